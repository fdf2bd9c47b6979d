/* tests/mbox/multicast_asleep.c: the keyed-begin hang hypothesis (notes of
 * 2026-11-23): ONE multicast reaching a mailbox whose threads all sleep in
 * WaitUntil(CAN_RECV) must wake every one of them. Thread 0 waits GAP cycles
 * (so that every receiver is asleep), sends one 1-flit multicast to all
 * threads of the last mailbox, and repeats ROUNDS times; every receiver
 * sleeps for each message, checks it and tells thread 0 at the end. A lost
 * wake-up leaves a receiver asleep: the watchdog reports a deadlock. */
#include "mbox_test.h"

enum { ROUNDS = 8, GAP = 3000 };
#define MBOX_DEST (TinselMailboxesPerBoard - 1)

typedef struct { uint32_t next, done; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  if (m->kind == KIND_DONE) { s->done++; return; }
  if (m->kind != KIND_DATA || m->seq != s->next) s->err = s->err ? s->err : 2;
  s->next++;
}

int main(void) {
  uint32_t id = tinselId();
  int receiver = id >> TinselLogThreadsPerMailbox == MBOX_DEST;
  State s = { 0, 0, 0 };
  if (id == 0)
    for (uint32_t k = 0; k < ROUNDS; k++) {
      spin(GAP);
      while (!tinselCanSend()) {}
      volatile uint32_t *slot = (volatile uint32_t *)tinselSendSlot();
      slot[0] = KIND_DATA; slot[1] = 0; slot[2] = k; slot[3] = 0;
      tinselSetLen(0);
      tinselMulticast(MBOX_DEST, 0xffffffffu, 0xffffffffu, slot);
      if (receiver) recv_one(on_recv, &s);  /* on a tile, thread 0 is a receiver too */
    }
  if (receiver && id != 0) {
    while (s.next < ROUNDS) recv_one(on_recv, &s);
    if (s.err) return s.err;
  }
  if (id != 0 && !receiver) return 0;
  report_done(&s.done, TinselThreadsPerMailbox - (MBOX_DEST == 0), on_recv, &s);
  return s.err;
}
