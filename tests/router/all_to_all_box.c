/* tests/router/all_to_all_box.c: all-to-all across the boards of a box.
 * Thread 0 of every fifth mailbox (0, 5, 10, 15: every row and column of
 * the mesh) of every board (the participants) sends ROUNDS
 * numbered 4-flit messages to every other participant, then sits in
 * tinselIdle: idle detection must wait for the messages still in flight
 * between boards. Each receiver checks every flit, that each source's
 * messages arrive in order (per-pair order over inter-board links) and
 * after idle that it got them all. A second idle round lets failures
 * report before thread 0 passes; other threads only idle. */
#include "mbox_test.h"

#ifndef ROUNDS
#define ROUNDS 2
#endif
enum { STEP = 5, PER_BOARD = (TinselMailboxesPerBoard + STEP - 1) / STEP,
       MBOXES = PER_BOARD * TinselMeshXLenWithinBox * TinselMeshYLenWithinBox };

/* Participant p's thread id: board p / PER_BOARD, thread 0 of mailbox STEP * (p % PER_BOARD). */
static uint32_t participant(uint32_t p) {
  uint32_t b = p / PER_BOARD, x = b % TinselMeshXLenWithinBox, y = b / TinselMeshXLenWithinBox;
  uint32_t board = y << TinselMeshXBits | x;
  return board << TinselLogThreadsPerBoard | (STEP * (p % PER_BOARD)) << TinselLogThreadsPerMailbox;
}

typedef struct { uint32_t got; int err; uint8_t next[MBOXES]; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  uint32_t src = m->src;
  if (m->kind != KIND_DATA || src >= MBOXES) { s->err = s->err ? s->err : 2; return; }
  if (m->seq != s->next[src]) s->err = s->err ? s->err : 3;   /* out of order or lost */
  s->next[src] = (uint8_t)(m->seq + 1);
  for (uint32_t i = 0; i < 12; i++)
    if (m->w[i] != pattern(src, m->seq, i)) s->err = s->err ? s->err : 4;
  s->got++;
}

int main(void) {
  uint32_t id = tinselId(), me = MBOXES;
  State s = { 0, 0, { 0 } };
  for (uint32_t p = 0; p < MBOXES; p++)
    if (participant(p) == id) me = p;
  if (me < MBOXES)
    for (uint32_t r = 0; r < ROUNDS; r++)
      for (uint32_t k = 1; k < MBOXES; k++) {
        uint32_t dst = (me + k) % MBOXES;
        while (!tinselCanSend()) {
          if (tinselCanRecv()) take_one(on_recv, &s);
          else tinselWaitUntil((TinselWakeupCond)(TINSEL_CAN_SEND | TINSEL_CAN_RECV));
        }
        tinselSend((int)participant(dst), fill_slot(KIND_DATA, me, r, 0));
      }
  while (tinselIdle(1) == 0) take_one(on_recv, &s);
  if (!s.err && me < MBOXES && s.got != ROUNDS * (MBOXES - 1)) s.err = 5;
  if (!s.err && me == MBOXES && s.got) s.err = 6;
  if (s.err) {
    sim_emit(id);
    return s.err;
  }
  while (tinselIdle(1) == 0) {}
  return 0;
}
