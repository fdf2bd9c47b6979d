/* tests/mbox/all_to_all.c: every thread sends one message to each of its
 * PARTNERS partners, (id + k * STRIDE) mod N for k = 1..PARTNERS (default:
 * every other thread), and checks that it receives exactly one from each of
 * its senders (a bitmap), with the right contents; then it tells thread 0,
 * which passes once every thread has reported. Unicast only, so on a board
 * the NoC carries most of them. With STRIDE odd, the partners are distinct. */
#include "mbox_test.h"

#define N TinselNumThreads
#ifndef PARTNERS
#define PARTNERS (N - 1)
#endif
#ifndef STRIDE
#define STRIDE 1
#endif
_Static_assert(PARTNERS < N && STRIDE % 2 == 1, "partners must be distinct");

typedef struct { uint32_t seen[N / 32]; uint32_t data, done; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  uint32_t src = m->src;
  if (m->kind == KIND_DONE) { s->done++; return; }
  if (m->kind != KIND_DATA || src >= N || src == tinselId()) { s->err = s->err ? s->err : 2; return; }
  if (s->seen[src / 32] >> (src % 32) & 1) s->err = s->err ? s->err : 3;   /* a duplicate */
  if (m->val != (src ^ tinselId()) || m->w[0] != pattern(src, m->seq, 0) ||
      (src + m->seq * STRIDE) % N != tinselId())
    s->err = s->err ? s->err : 4;
  s->seen[src / 32] |= 1u << (src % 32);
  s->data++;
}

int main(void) {
  uint32_t id = tinselId();
  State s = { { 0 }, 0, 0, 0 };
  for (uint32_t k = 1; k <= PARTNERS; k++) {
    uint32_t dest = (id + k * STRIDE) % N;
    Msg m = { KIND_DATA, id, k, id ^ dest, { pattern(id, k, 0) } };
    send_msg(dest, &m, 2, on_recv, &s);
  }
  while (s.data < PARTNERS) recv_one(on_recv, &s);
  if (s.err) return s.err;
  report_done(&s.done, N - 1, on_recv, &s);
  return s.err;
}
