/* tests/mbox/pingpong.c: thread 0 and a thread of another core (another
 * tile on a board) bounce one message ROUNDS times, each adding one; both
 * check every value and every flit. */
#include "mbox_test.h"

enum { ROUNDS = 50 };
#define PARTNER (TinselNumThreads - 1)   /* the last thread: another core and tile */

typedef struct { uint32_t last; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  if (m->kind != KIND_DATA) s->err = s->err ? s->err : 2;
  for (int i = 0; i < 12; i++)
    if (m->w[i] != pattern(m->src, m->seq, (uint32_t)i)) s->err = s->err ? s->err : 3;
  s->last = m->val;
}

int main(void) {
  uint32_t id = tinselId();
  if (id != 0 && id != PARTNER) return 0;
  uint32_t other = id == 0 ? PARTNER : 0;
  State s = { 0, 0 };
  /* Thread 0 serves odd values, the partner even ones; the first is 1 from 0. */
  uint32_t next = id == 0 ? 1 : 2;
  for (int r = 0; r < ROUNDS; r++) {
    if (!(id == 0 && r == 0)) {
      recv_one(on_recv, &s);
      if (s.err) return s.err;
      if (s.last + 1 != next) return 4;
    }
    Msg m = { KIND_DATA, id, next, next, { 0 } };
    for (uint32_t i = 0; i < 12; i++) m.w[i] = pattern(id, next, i);
    send_msg(other, &m, 4, on_recv, &s);
    next += 2;
  }
  if (id == 0) {
    recv_one(on_recv, &s);   /* the partner's last */
    if (s.err) return s.err;
    if (s.last != 2 * ROUNDS) return 5;
  }
  return 0;
}
