/* tests/mbox/multicast.c: thread 0 multicasts ROUNDS 4-flit messages to
 * all threads of the last mailbox (on a tile, its own, itself included).
 * The receivers first sleep HOLD cycles, so with ROUNDS above the queue size
 * every queue fills and the mailbox must back-pressure; then each receiver
 * checks that it gets every message, in order, every flit intact, and tells
 * thread 0. tsim's statistics show the queues full (run.sh checks). */
#include "mbox_test.h"

enum { ROUNDS = 80, HOLD = 60000 };
#define MBOX_DEST (TinselMailboxesPerBoard - 1)

typedef struct { uint32_t next, done; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  if (m->kind == KIND_DONE) { s->done++; return; }
  if (m->kind != KIND_DATA || m->seq != s->next) s->err = s->err ? s->err : 2;
  for (int i = 0; i < 12; i++)
    if (m->w[i] != pattern(0, m->seq, (uint32_t)i)) s->err = s->err ? s->err : 3;
  s->next++;
}

int main(void) {
  uint32_t id = tinselId();
  int receiver = id >> TinselLogThreadsPerMailbox == MBOX_DEST;
  State s = { 0, 0, 0 };
  uint32_t t0 = sim_cycle();
  if (id == 0)
    for (uint32_t k = 0; k < ROUNDS; k++) {
      /* Waiting to send, thread 0 takes its own copies only after HOLD, as the others. */
      while (!tinselCanSend())
        if (receiver && sim_cycle() - t0 >= HOLD && tinselCanRecv()) take_one(on_recv, &s);
      tinselMulticast(MBOX_DEST, 0xffffffffu, 0xffffffffu, fill_slot(KIND_DATA, 0, k, 0));
    }
  if (receiver) {
    while (sim_cycle() - t0 < HOLD) {}
    while (s.next < ROUNDS) recv_one(on_recv, &s);
    if (s.err) return s.err;
  }
  if (id != 0 && !receiver) return 0;
  report_done(&s.done, TinselThreadsPerMailbox - (MBOX_DEST == 0), on_recv, &s);
  return s.err;
}
