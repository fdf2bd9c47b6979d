// tests/preload/preload_test.c: tsim --preload with a host link.
//
//   preload_test write APP.elf OUT.pre CORE...
//     writes a preload file: APP's code into each CORE's pair, its data
//     through each CORE, all threads of each CORE started at its entry, and
//     test words in the interleaved DRAM alias, SRAM and the scratchpad.
//   preload_test host HOSTLINK DEBUGLINK APP.elf CORE...
//     against tsim serving that file (every other core runs the boot
//     loader): every preloaded thread says hello and echoes a ping (the
//     tests/hostlink app); thread 0 of each preloaded core returns into the
//     boot loader of its own pair's image; the boot loader of core 0 (never
//     preloaded) reads back the app's results and the test words.
// Prints `ok WHAT` or `FAILED WHAT` lines; exits 1 after a failure.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "elf32.h"
#include "hostlink.h"
#include "tinsel_config.h"
#include "tsim_preload_write.h"
#include "wire.h"

enum { MAX_CORES = 8, WAIT_MS = 60000 };
static int failures;

static void check(int ok, const char *what) {
  printf("%s %s\n", ok ? "ok" : "FAILED", what);
  failures += !ok;
}

static void die(const char *what, const char *why) {
  fprintf(stderr, "preload_test: %s: %s\n", what, why);
  exit(2);
}

// Test words: a 64-byte run across two cache lines of thread partition 5,
// a word of SRAM, a word of the scratchpad.
static const uint32_t test_addr[] = {
    TinselDRAMInterleavedBase + (5u << TinselLogBytesPerDRAMPartition) + 48u,
    TinselSRAMBase + 0x100u,
    0x8000u + 0x40u,
};
static const uint32_t test_words[] = {16, 1, 1};
static uint32_t pattern(int k, uint32_t i) { return 0x5e000000u + (uint32_t)k * 0x10000u + i; }

static int write_file(const char *elf_path, const char *out, int *cores, int n) {
  Elf32 elf;
  char err[512];
  if (elf32_load(elf_path, &elf, err, sizeof err)) die(elf_path, err);
  op2t_preload p;
  if (op2t_preload_open(&p, out)) die(out, "cannot create");
  for (int c = 0; c < n; c++) {
    for (int s = 0; s < elf.nsecs; s++) {
      const Elf32Section *sec = &elf.secs[s];
      if (sec->kind & ELF32_SEC_NOBITS) continue;
      if (sec->kind & ELF32_SEC_EXEC) op2t_preload_code(&p, (uint32_t)cores[c], sec->addr, sec->data, sec->size);
      else op2t_preload_data(&p, (uint32_t)cores[c], sec->addr, sec->data, sec->size);
    }
    op2t_preload_start(&p, (uint32_t)cores[c], elf.entry, (1u << TinselThreadsPerCore) - 1);
  }
  for (int k = 0; k < 3; k++) {
    uint32_t w[16];
    for (uint32_t i = 0; i < test_words[k]; i++) w[i] = pattern(k, i);
    op2t_preload_data(&p, (uint32_t)cores[0], test_addr[k], w, 4 * test_words[k]);
  }
  elf32_free(&elf);
  if (op2t_preload_close(&p)) die(out, "cannot write");
  return 0;
}

// Messages with TAG from the preloaded threads; counts those right.
static int collect(hostlink *h, uint32_t tag, int *cores, int n, const uint32_t *value) {
  int good = 0;
  for (int i = 0; i < n * TinselThreadsPerCore; i++) {
    uint32_t msg[16];
    if (hl_recv(h, msg, WAIT_MS) != 1) break;
    int bx, by, core, thread, mine = 0;
    hl_from_addr(h, msg[0], &bx, &by, &core, &thread);
    for (int c = 0; c < n; c++) mine |= cores[c] == core;
    uint32_t idx = (uint32_t)core * TinselThreadsPerCore + (uint32_t)thread;
    good += mine && msg[1] == tag && (!value || msg[2] == value[idx] + 1);
  }
  return good;
}

static int host(const char *hl, const char *dl, const char *elf_path, int *cores, int n) {
  char err[512], what[200];
  Elf32 elf;
  uint32_t results;
  if (elf32_load(elf_path, &elf, err, sizeof err) || elf32_symbol(&elf, "app_results", &results))
    die(elf_path, "cannot read it or its symbol app_results");
  elf32_free(&elf);
  const hl_geometry board = { 1, 1, TinselMeshXBits, TinselMeshYBits, TinselMeshXBitsWithinBox,
                              TinselLogCoresPerBoard, TinselLogCoresPerDRAM, TinselRoutingKeyBit };
  hostlink *h = hl_open(hl, dl, &board, err, sizeof err);
  if (!h) die("hl_open", err);
  if (hl_set_timeout(h, WAIT_MS)) die("hl_set_timeout", hl_error(h));
  int threads = n * TinselThreadsPerCore;
  snprintf(what, sizeof what, "hello from every preloaded thread (%d)", threads);
  check(collect(h, APP_HELLO, cores, n, NULL) == threads, what);
  static uint32_t value[TinselCoresPerBoard * TinselThreadsPerCore];
  for (int c = 0; c < n; c++)
    for (int t = 0; t < TinselThreadsPerCore; t++) {
      uint32_t id = hl_to_addr(h, 0, 0, cores[c], t), idx = (uint32_t)cores[c] * TinselThreadsPerCore + (uint32_t)t;
      uint32_t msg[4] = {APP_PING, value[idx] = idx * 7u + 5u, 0, 0};
      if (hl_send(h, id, 1, msg)) die("hl_send", hl_error(h));
    }
  check(collect(h, APP_ECHO, cores, n, value) == threads, "every preloaded thread echoed the host's message");
  // The boot loader of core 0 (never preloaded) reads what thread 0 of each preloaded core stored.
  int right = 0;
  for (int c = 0; c < n; c++) {
    uint32_t w, slot = (uint32_t)cores[c] % TinselCoresPerDRAM;
    if (hl_load(h, 0, 0, (cores[c] / TinselCoresPerDRAM) * TinselCoresPerDRAM, results + 4 * APP_RESULT_WORDS * slot, &w, 1))
      die("hl_load", hl_error(h));
    right += w == APP_RESULT(hl_to_addr(h, 0, 0, cores[c], 0));
  }
  check(right == n, "a boot-loader core read back every preloaded core's result");
  // Thread 0 of each preloaded core re-entered the boot loader of its pair's image.
  right = 0;
  for (int c = 0; c < n; c++) {
    uint32_t w;
    if (hl_load(h, 0, 0, cores[c], results + 4 * APP_RESULT_WORDS * ((uint32_t)cores[c] % TinselCoresPerDRAM), &w, 1))
      die("hl_load", hl_error(h));
    right += w == APP_RESULT(hl_to_addr(h, 0, 0, cores[c], 0));
  }
  check(right == n, "thread 0 of each preloaded core returned into the boot loader");
  // The preloaded test words, as the threads of the first core's DRAM and tile see them.
  for (int k = 0; k < 3; k++) {
    uint32_t w[16];
    if (hl_load(h, 0, 0, cores[0], test_addr[k], w, test_words[k])) die("hl_load", hl_error(h));
    int same = 1;
    for (uint32_t i = 0; i < test_words[k]; i++) same &= w[i] == pattern(k, i);
    snprintf(what, sizeof what, "preloaded %u words at 0x%08x read back", test_words[k], test_addr[k]);
    check(same, what);
  }
  // The interleaved alias is spread over lines: its first word in the plain upper region.
  enum { PART_BITS = 30 - TinselLogBytesPerDRAMPartition };
  uint32_t off = test_addr[0] - TinselDRAMInterleavedBase, part = off >> TinselLogBytesPerDRAMPartition;
  uint32_t within = off & ((1u << TinselLogBytesPerDRAMPartition) - 1);
  uint32_t line = within >> TinselLogBytesPerLine, byte = within & (TinselBytesPerLine - 1);
  uint32_t plain = TinselDRAMUpperBase + ((line << (TinselLogBytesPerLine + PART_BITS)) | (part << TinselLogBytesPerLine) | byte);
  uint32_t w;
  if (hl_load(h, 0, 0, cores[0], plain, &w, 1)) die("hl_load", hl_error(h));
  check(w == pattern(0, 0), "the interleaved words landed where the plain upper region has them");
  hl_close(h);
  return failures != 0;
}

int main(int argc, char **argv) {
  int cores[MAX_CORES], n = 0;
  int first = argc > 1 && !strcmp(argv[1], "write") ? 4 : 5;
  for (int i = first; i < argc && n < MAX_CORES; i++) cores[n++] = atoi(argv[i]);
  if (argc >= 5 && !strcmp(argv[1], "write")) return write_file(argv[2], argv[3], cores, n);
  if (argc >= 6 && !strcmp(argv[1], "host")) return host(argv[2], argv[3], argv[4], cores, n);
  fprintf(stderr, "usage: preload_test write APP.elf OUT.pre CORE... | preload_test host HOSTLINK DEBUGLINK APP.elf CORE...\n");
  return 2;
}
