// tests/hostlink/boot_test.c: boots a board through the host link
// (libhostlink against tsim --hostlink --debuglink) and checks the
// conversation with the test app (app.c): every thread says hello, answers
// the host's ping, one thread prints a line, thread 0 of each core leaves
// a result in DRAM that hl_load reads back.
//   boot_test HOSTLINK DEBUGLINK APP.elf
//   boot_test --idle MS HOSTLINK DEBUGLINK   (connect, wait MS ms, close:
//                                             tsim must sleep meanwhile)
//   boot_test --bad-header HOSTLINK          (send a header with 8 flits:
//                                             tsim must stop and say why)
// Prints one line per check ("ok ..." or "FAILED ...") and exits non-zero
// when any failed.
#define _POSIX_C_SOURCE 200809L
#include "elf32.h"
#include "hl_sockaddr.h"
#include "hostlink.h"
#include "tinsel_config.h"
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { THREADS = TinselThreadsPerBoard, WAIT_MS = 120000 };
static int failures;

static void check(int ok, const char *fmt, const char *detail) {
  printf("%s ", ok ? "ok" : "FAILED");
  printf(fmt, detail);
  putchar('\n');
  failures += !ok;
}

static void die(const char *what, const char *why) {
  fprintf(stderr, "boot_test: %s: %s\n", what, why);
  exit(2);
}

// Receives one message per thread whose word 1 is TAG (word 2: the thread's
// value); returns how many distinct threads answered correctly.
static int collect(hostlink *h, uint32_t tag, const uint32_t *value, char *why, size_t whylen) {
  static unsigned char seen[THREADS];
  memset(seen, 0, sizeof seen);
  int good = 0;
  for (int i = 0; i < THREADS; i++) {
    uint32_t msg[16];
    int r = hl_recv(h, msg, WAIT_MS);
    if (r <= 0) {
      snprintf(why, whylen, "after %d messages: %s", i, r < 0 ? hl_error(h) : "timeout");
      return good;
    }
    uint32_t id = msg[0];
    if (id >= THREADS || seen[id] || msg[1] != tag || (value && msg[2] != value[id] + 1)) {
      snprintf(why, whylen, "bad message {0x%x, 0x%x, 0x%x}", msg[0], msg[1], msg[2]);
      return good;
    }
    seen[id] = 1;
    good++;
  }
  snprintf(why, whylen, "%d of %d", good, THREADS);
  return good;
}

int main(int argc, char **argv) {
  char err[512], why[256];
  if (argc == 5 && !strcmp(argv[1], "--idle")) {
    hostlink *h = hl_open(argv[3], argv[4], 1, 1, err, sizeof err);
    if (!h) die("hl_open", err);
    long ms = atol(argv[2]);
    struct timespec idle = { ms / 1000, ms % 1000 * 1000000L };
    nanosleep(&idle, NULL);
    hl_close(h);
    return 0;
  }
  if (argc == 3 && !strcmp(argv[1], "--bad-header")) {
    struct sockaddr_un sa;
    socklen_t salen;
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (hl_unix_addr(argv[2], &sa, &salen, err, sizeof err)) die("address", err);
    for (int tries = 0; connect(fd, (struct sockaddr *)&sa, salen) && tries < 50; tries++) {
      struct timespec pause = { 0, 100000000L };
      nanosleep(&pause, NULL);
    }
    uint32_t bad[4 + 32] = { 0, 0, 7u << 24, 0 };   // 8 flits: more than a message has
    if (write(fd, bad, sizeof bad) != (ssize_t)sizeof bad) die("write", "short");
    char c;
    while (read(fd, &c, 1) > 0) {}   // until tsim closes
    close(fd);
    return 0;
  }
  if (argc != 4) {
    fprintf(stderr, "usage: boot_test HOSTLINK DEBUGLINK APP.elf | boot_test --idle MS HOSTLINK DEBUGLINK\n");
    return 2;
  }
  hostlink *h = hl_open(argv[1], argv[2], 1, 1, err, sizeof err);
  if (!h) die("hl_open", err);
  Elf32 elf;
  uint32_t results;
  if (elf32_load(argv[3], &elf, err, sizeof err) || elf32_symbol(&elf, "app_results", &results))
    die(argv[3], "cannot read it or its symbol app_results");
  elf32_free(&elf);

  if (hl_load_elf(h, argv[3], NULL, 0)) die("hl_load_elf", hl_error(h));
  if (hl_start(h, NULL, 0, TinselThreadsPerCore - 1)) die("hl_start", hl_error(h));
  check(1, "%s", "every core acknowledged StartCmd");
  if (hl_go(h)) die("hl_go", hl_error(h));

  check(collect(h, APP_HELLO, NULL, why, sizeof why) == THREADS, "hello from every thread (%s)", why);
  static uint32_t value[THREADS];
  for (uint32_t id = 0; id < THREADS; id++) {
    uint32_t msg[4] = { APP_PING, value[id] = id * 7u + 5u, 0, 0 };
    if (hl_send(h, id, 1, msg)) die("hl_send", hl_error(h));
  }
  check(collect(h, APP_ECHO, value, why, sizeof why) == THREADS, "every thread echoed the host's message (%s)", why);

  // The DebugLink line, prefixed x:y:core:thread.
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  for (int tries = 0; tries < 600 && !strstr(text ? text : "", "\n"); tries++) {
    if (hl_poll_stdout(h, mem) < 0) die("hl_poll_stdout", hl_error(h));
    fflush(mem);
    if (!strstr(text ? text : "", "\n")) {
      struct timespec pause = { 0, 100000000L };
      nanosleep(&pause, NULL);
    }
  }
  fclose(mem);
  int ok = text && !strcmp(text, "0:0:3:5: hello from core 3 thread 5\n");
  if (text && len && text[len - 1] == '\n') text[len - 1] = 0;   /* one report line */
  check(ok, "DebugLink StdOut: %s", text && *text ? text : "(nothing)");
  free(text);

  // What thread 0 of each core stored, through the boot loader of the first core of each DRAM.
  int right = 0;
  for (int dram = 0; dram < TinselDRAMsPerBoard; dram++) {
    uint32_t words[TinselCoresPerDRAM];
    int core0 = dram * TinselCoresPerDRAM;
    if (hl_load(h, 0, 0, core0, results, words, TinselCoresPerDRAM)) die("hl_load", hl_error(h));
    for (int c = 0; c < TinselCoresPerDRAM; c++) right += words[c] == APP_RESULT(hl_to_addr(h, 0, 0, core0 + c, 0));
  }
  snprintf(why, sizeof why, "%d of %d", right, TinselCoresPerBoard);
  check(right == TinselCoresPerBoard, "hl_load read back every core's result (%s)", why);
  hl_close(h);
  return failures != 0;
}
