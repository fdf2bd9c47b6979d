/* tests/mbox/idle.c: tinselIdle with messages in flight. Thread 0 starts a
 * token that hops HOPS times around the threads (stride STRIDE), each holder
 * keeping it (unfreed) for a while before passing it on; everyone else sits
 * in tinselIdle(1), which may return only 0 (a message) until the token
 * stops. Then idle must return 2 (all voted true); each thread reports how
 * many hops it made to thread 0 and calls tinselIdle again with thread
 * VETO voting false: 1 everywhere; thread 0 checks the hop total. */
#include "mbox_test.h"

#define N TinselNumThreads
#define STRIDE (N > TinselThreadsPerMailbox ? 97u : 5u)
enum { HOPS = 100, HOLD = 300, VETO = 3 };

typedef struct { uint32_t hops, counts, total; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  if (m->kind == KIND_COUNT) { s->counts++; s->total += m->val; return; }
  if (m->kind != KIND_DATA) { s->err = s->err ? s->err : 2; return; }
  s->hops++;
  if (m->val == 0) return;   /* the token stops here */
  spin(HOLD);                /* holding a received, unfreed message */
  Msg t = { KIND_DATA, tinselId(), m->seq + 1, m->val - 1, { 0 } };
  send_msg((tinselId() + STRIDE) % N, &t, 1, on_recv, s);
}

int main(void) {
  uint32_t id = tinselId();
  State s = { 0, 0, 0, 0 };
  if (id == 0) {
    Msg t = { KIND_DATA, 0, 0, HOPS - 1, { 0 } };
    send_msg(STRIDE % N, &t, 1, on_recv, &s);
  }
  int r;
  while ((r = tinselIdle(1)) == 0) take_one(on_recv, &s);
  if (s.err) return s.err;
  if (r != 2) return 3;                /* every thread voted true */
  if (id != 0) {
    Msg c = { KIND_COUNT, id, 0, s.hops, { 0 } };
    send_msg(0, &c, 1, on_recv, &s);
  } else s.total += s.hops;
  while ((r = tinselIdle(id != VETO)) == 0) take_one(on_recv, &s);
  if (s.err) return s.err;
  if (r != 1) return 4;                /* thread VETO voted false */
  if (id == 0 && (s.counts != N - 1 || s.total != HOPS)) return 5;
  return 0;
}
