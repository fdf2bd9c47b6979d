/* hl_boot.c: the boot loader's commands (tinsel.md §1.9; firmware/boot):
 * requests {cmd | numArgs << 8, args...} to thread 0 of a core, replies
 * from it to the host. */
#include "hl_internal.h"

#include <stdio.h>
#include <string.h>

int hl_check_core(hostlink *h, int x, int y, int core) {
  if (x < 0 || y < 0 || x >= h->boards_x || y >= h->boards_y)
    return hl_fail(h, "board (%d, %d) is outside the %d x %d mesh", x, y, h->boards_x, h->boards_y);
  if (core < 0 || core >= h->cores_per_board)
    return hl_fail(h, "core %d of board (%d, %d): a board has cores 0..%d", core, x, y, h->cores_per_board - 1);
  return 0;
}

int hl_boot_cmd(hostlink *h, int x, int y, int core, uint32_t cmd, const uint32_t *args, size_t n) {
  uint32_t msg[HL_MSG_BYTES / 4] = { 0 };
  if (hl_check_core(h, x, y, core)) return -1;
  msg[0] = cmd | (uint32_t)n << 8;
  memcpy(msg + 1, args, n * 4);
  int flits = (int)((4 * (1 + n) + TinselBytesPerFlit - 1) / TinselBytesPerFlit);
  return hl_send(h, hl_to_addr(h, x, y, core, 0), flits, msg);
}

int hl_set_addr(hostlink *h, int x, int y, int core, uint32_t addr) {
  return hl_boot_cmd(h, x, y, core, TinselBootSetAddrCmd, &addr, 1);
}

/* SetAddr, then CMD with up to HL_BOOT_MAX_ARGS words per message (the
   boot loader's address register advances by 4 per word). */
static int write_words(hostlink *h, int x, int y, int core, uint32_t cmd, uint32_t addr, const uint32_t *words,
                       size_t n) {
  if (hl_set_addr(h, x, y, core, addr)) return -1;
  for (size_t i = 0; i < n; i += HL_BOOT_MAX_ARGS) {
    size_t k = n - i < HL_BOOT_MAX_ARGS ? n - i : HL_BOOT_MAX_ARGS;
    if (hl_boot_cmd(h, x, y, core, cmd, words + i, k)) return -1;
  }
  return 0;
}

int hl_write_instrs(hostlink *h, int x, int y, int core, uint32_t addr, const uint32_t *words, size_t n) {
  if ((addr & 3) || addr > h->instr_bytes || n > (h->instr_bytes - addr) / 4)
    return hl_fail(h, "hl_write_instrs: %zu words at 0x%x do not fit instruction memory [0, 0x%x)", n, addr,
                   h->instr_bytes);
  return write_words(h, x, y, core, TinselBootWriteInstrCmd, addr, words, n);
}

int hl_store(hostlink *h, int x, int y, int core, uint32_t addr, const uint32_t *words, size_t n) {
  if (addr & 3) return hl_fail(h, "hl_store: address 0x%08x is not word-aligned", addr);
  if (write_words(h, x, y, core, TinselBootStoreCmd, addr, words, n)) return -1;
  h->stored[(y * h->boards_x + x) * h->cores_per_board + core] = 1;
  return 0;
}

int hl_load(hostlink *h, int x, int y, int core, uint32_t addr, uint32_t *words, size_t n) {
  if (addr & 3) return hl_fail(h, "hl_load: address 0x%08x is not word-aligned", addr);
  if (n > 0xffffffffu / 4) return hl_fail(h, "hl_load: %zu words is too many", n);
  if (n == 0) return 0;
  uint32_t count = (uint32_t)n;
  if (hl_set_addr(h, x, y, core, addr) || hl_boot_cmd(h, x, y, core, TinselBootLoadCmd, &count, 1)) return -1;
  /* Replies: one flit of up to 4 words each, in order. */
  const size_t per = TinselBytesPerFlit / 4;
  for (size_t i = 0; i < n; i += per) {
    uint32_t msg[HL_MSG_BYTES / 4];
    int r = hl_recv(h, msg, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0)
      return hl_fail(h, "hl_load: core %d of board (%d, %d) sent %zu of %zu words of 0x%08x within %d ms "
                     "(is its boot loader waiting for commands?)", core, x, y, i, n, addr, h->timeout_ms);
    memcpy(words + i, msg, (n - i < per ? n - i : per) * 4);
  }
  h->stored[(y * h->boards_x + x) * h->cores_per_board + core] = 0;   /* it flushed before replying */
  return 0;
}

/* The cores a call names: LIST[0..N) or, for NULL, every core of every board. */
static int core_at(const hostlink *h, const int *list, int i) { (void)h; return list ? list[i] : i; }
static int core_count(const hostlink *h, const int *list, int n) {
  return list ? n : h->nboards * h->cores_per_board;
}

int hl_check_cores(hostlink *h, const int *cores, int ncores, const char *what) {
  if (cores && ncores < 0) return hl_fail(h, "%s: %d cores", what, ncores);
  int total = h->nboards * h->cores_per_board;
  for (int i = 0; cores && i < ncores; i++)
    if (cores[i] < 0 || cores[i] >= total)
      return hl_fail(h, "%s: core %d (entry %d) is not one of the %d cores of the %d x %d mesh", what, cores[i], i, total,
                     h->boards_x, h->boards_y);
  return 0;
}

/* Global core index g -> board (x, y) and core. */
static void place(const hostlink *h, int g, int *x, int *y, int *core) {
  int b = g / h->cores_per_board;
  *core = g % h->cores_per_board;
  *x = b % h->boards_x;
  *y = b / h->boards_x;
}

static int start(hostlink *h, const int *cores, int ncores, int nthreads);

/* Data caches are write-back and not coherent (tinsel.md §11): what a boot
   loader stored may still sit in its cache. A started core's boot loader
   flushes before its ack; one that only stored (router tables, globals
   written through another core of the DRAM) is flushed by a one-word Load,
   whose reply comes after its flush (firmware/boot/boot.c). */
static int flush_stores(hostlink *h, const unsigned char *starting) {
  for (int g = 0; g < h->nboards * h->cores_per_board; g++) {
    if (!h->stored[g] || starting[g]) continue;
    int x, y, c;
    uint32_t w;
    place(h, g, &x, &y, &c);
    if (hl_load(h, x, y, c, TinselDRAMBase, &w, 1)) return -1;
  }
  return 0;
}

int hl_start(hostlink *h, const int *cores, int ncores, int nthreads) {
  int rc = start(h, cores, ncores, nthreads);
  if (rc)   /* forget the cores still awaited: a later start may list them again */
    for (int g = 0; g < h->nboards * h->cores_per_board; g++)
      if (h->started[g] == 1) h->started[g] = 0;
  return rc;
}

static int start(hostlink *h, const int *cores, int ncores, int nthreads) {
  if (nthreads < 0 || nthreads > TinselThreadsPerCore - 1)
    return hl_fail(h, "hl_start: %d further threads: a core has %d threads, so 0..%d", nthreads, TinselThreadsPerCore,
                   TinselThreadsPerCore - 1);
  if (hl_check_cores(h, cores, ncores, "hl_start")) return -1;
  int n = core_count(h, cores, ncores), total = h->nboards * h->cores_per_board;
  unsigned char *want = h->started;   /* 1: ack awaited, 2: acknowledged */
  for (int i = 0; i < n; i++) {
    int g = core_at(h, cores, i);
    if (want[g] == 1) return hl_fail(h, "hl_start: core %d is listed twice", g);
    want[g] = 1;
  }
  if (flush_stores(h, want)) return -1;
  for (int i = 0; i < n; i++) {
    int g = core_at(h, cores, i), x, y, c;
    place(h, g, &x, &y, &c);
    uint32_t arg = (uint32_t)nthreads;
    if (hl_boot_cmd(h, x, y, c, TinselBootStartCmd, &arg, 1)) return -1;
    h->stored[g] = 0;   /* its boot loader flushes before the ack */
  }
  for (int acks = 0; acks < n; acks++) {
    uint32_t msg[HL_MSG_BYTES / 4];
    int r = hl_recv(h, msg, h->timeout_ms);
    if (r < 0) return -1;
    if (r == 0) {
      int first = 0;
      while (first < total && want[first] != 1) first++;
      return hl_fail(h, "hl_start: %d of %d cores acknowledged StartCmd within %d ms; core %d did not", acks, n,
                     h->timeout_ms, first);
    }
    int x, y, c, t;
    hl_from_addr(h, msg[0], &x, &y, &c, &t);
    int g = (y * h->boards_x + x) * h->cores_per_board + c;
    if (t != 0 || x >= h->boards_x || y >= h->boards_y || want[g] != 1)
      return hl_fail(h, "hl_start: unexpected message (word 0 = 0x%08x) while waiting for StartCmd acks", msg[0]);
    want[g] = 2;
  }
  return 0;
}

int hl_go(hostlink *h) {
  if (h->dfd < 0) return hl_fail(h, "hl_go: the go byte travels on the DebugLink, and none is open");
  for (int b = 0; b < h->nboards; b++) {
    int x = b % h->boards_x, y = b / h->boards_x, all = 1, any = 0;
    for (int c = 0; c < h->cores_per_board; c++) {
      all &= h->started[b * h->cores_per_board + c] == 2;
      any |= h->started[b * h->cores_per_board + c] == 2;
    }
    if (all) {
      if (hl_put_stdin(h, x, y, -1, 0, 0)) return -1;   /* one broadcast per board, as HostLink::go */
    } else if (any) {
      for (int c = 0; c < h->cores_per_board; c++)
        if (h->started[b * h->cores_per_board + c] == 2 && hl_put_stdin(h, x, y, c, 0, 0)) return -1;
    }
  }
  for (int g = 0; g < h->nboards * h->cores_per_board; g++)
    if (h->started[g] == 2) h->started[g] = 0;
  return 0;
}
