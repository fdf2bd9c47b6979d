/* tsim_threads.c: every thread's state at the end of a run, gathered from
   the cores' and mailboxes' final blocks, and the watchdog's deadlock
   report (sim/README.md): one line per group of threads in the same state. */
#include "tsim_threads.h"

#include "Vtsim_top__Dpi.h"
#include "tinsel_config.h"
#include "tsim_boards.h"

#include <stdio.h>
#include <string.h>

enum { NUM_THREADS = TSIM_THREADS };  /* run-wide thread numbers (tsim_boards.h) */

static struct {
  unsigned char alive, ready, wait_send, wait_recv, in_idle;
  uint32_t pc;
} th[NUM_THREADS];

void tsim_thread_state(unsigned core, unsigned thread, svBit alive, svBit ready, unsigned pc) {
  unsigned id = core * TinselThreadsPerCore + thread;
  if (id >= NUM_THREADS) return;
  th[id].alive = alive;
  th[id].ready = ready;
  th[id].pc = pc;
}

void tsim_mbox_thread_wait(unsigned tile, unsigned thread, svBit can_send, svBit can_recv, svBit idle) {
  unsigned id = tile * TinselThreadsPerMailbox + thread;
  if (id >= NUM_THREADS) return;
  th[id].wait_send = can_send;
  th[id].wait_recv = can_recv;
  th[id].in_idle = idle;
}

void tsim_threads_reduce(void (*or)(void *buf, size_t bytes)) { or(th, sizeof th); }

/* A thread's state in words; threads with equal text are grouped. */
static void describe(unsigned id, char *buf, size_t n) {
  if (!th[id].alive) {
    snprintf(buf, n, "stopped");
  } else if (th[id].in_idle) {
    snprintf(buf, n, "in tinselIdle, pc 0x%08x", th[id].pc);
  } else if (th[id].wait_send || th[id].wait_recv) {
    snprintf(buf, n, "in WaitUntil(%s%s%s), pc 0x%08x", th[id].wait_send ? "CAN_SEND" : "",
             th[id].wait_send && th[id].wait_recv ? "|" : "", th[id].wait_recv ? "CAN_RECV" : "", th[id].pc);
  } else {
    snprintf(buf, n, "%s, pc 0x%08x", th[id].ready ? "running" : "suspended (memory, FPU or mailbox answer)",
             th[id].pc);
  }
}

void tsim_threads_report(void) {
  static unsigned char done[NUM_THREADS];
  char what[96], other[96];
  const unsigned n = tsim_boards() * TinselThreadsPerBoard;
  memset(done, 0, sizeof done);
  for (unsigned i = 0; i < n; i++) {
    if (done[i]) continue;
    describe(i, what, sizeof what);
    unsigned count = 0, first_shown = 0;
    char ids[160] = "";
    size_t len = 0;
    for (unsigned j = i; j < n; j++) {
      if (done[j]) continue;
      describe(j, other, sizeof other);
      if (strcmp(what, other)) continue;
      done[j] = 1;
      count++;
      /* Name the first few threads (core.thread, board:core.thread in a
         box); count the rest. */
      if (first_shown < 8 && len < sizeof ids - 24) {
        unsigned core = j / TinselThreadsPerCore;
        if (tsim_boards() > 1)
          len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%u:", first_shown ? " " : "",
                                  core / TinselCoresPerBoard);
        len += (size_t)snprintf(ids + len, sizeof ids - len, "%s%u.%u", first_shown && tsim_boards() == 1 ? " " : "",
                                core % TinselCoresPerBoard, j % TinselThreadsPerCore);
        first_shown++;
      }
    }
    fprintf(stderr, "tsim:   %u thread%s (%s %s%s): %s\n", count, count == 1 ? "" : "s",
            tsim_boards() > 1 ? "board:core.thread" : "core.thread", ids,
            count > first_shown ? " ..." : "", what);
  }
}

void tsim_threads_count(TsimThreadCounts *c) {
  memset(c, 0, sizeof *c);
  const unsigned n = tsim_boards() * TinselThreadsPerBoard;
  for (unsigned i = 0; i < n; i++) {
    if (!th[i].alive) continue;
    c->alive++;
    if (th[i].in_idle) c->in_idle++;
    else if (th[i].wait_send) c->wait_send++;
    else if (th[i].wait_recv) c->wait_recv++;
    else c->awake++;
  }
}
