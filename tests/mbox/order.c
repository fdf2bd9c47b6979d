/* tests/mbox/order.c: arrival order under tsim --delay-seed. Every thread
 * other than 0 sends SENDS numbered messages to thread 0, which checks that
 * each source's messages arrive in order (Tinsel's per-pair guarantee: a
 * random delivery delay must not break it) and emits a hash of the order of
 * sources, which depends on timing: different seeds should give different
 * hashes, the same seed the same. */
#include "mbox_test.h"

#define N TinselNumThreads
enum { SENDS = 4 };

typedef struct { uint32_t next[N], count, hash; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  uint32_t src = m->src;
  if (m->kind != KIND_DATA || src == 0 || src >= N) { s->err = 2; return; }
  if (m->seq != s->next[src]) { s->err = 3; return; }   /* per-pair order broken */
  s->next[src]++;
  s->count++;
  s->hash = (s->hash ^ src) * 16777619u;               /* FNV-1a over the source order */
}

int main(void) {
  uint32_t id = tinselId();
  if (id != 0) {
    State s_unused;   /* senders receive nothing */
    for (uint32_t k = 0; k < SENDS; k++) {
      Msg m = { KIND_DATA, id, k, 0, { 0 } };
      send_msg(0, &m, 1, on_recv, &s_unused);
    }
    return 0;
  }
  static State s;   /* thread 0 only: too big for comfort on the stack */
  s.hash = 2166136261u;
  while (s.count < (N - 1) * SENDS && !s.err) recv_one(on_recv, &s);
  if (s.err) return s.err;
  sim_emit(s.hash);
  return 0;
}
