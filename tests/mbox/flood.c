/* tests/mbox/flood.c: every thread sends ROUNDS 4-flit messages to one
 * partner ((id + STRIDE) mod N: the next thread on a tile, another tile on a
 * board) while nobody receives for HOLD cycles, so the receive pool fills
 * and the network backs up; then everyone drains. Each receiver checks that
 * it got all ROUNDS messages of its one sender in order (per-pair ordering)
 * with every flit intact: back-pressure must never lose or reorder. */
#include "mbox_test.h"

#define N TinselNumThreads
#define STRIDE (N > TinselThreadsPerMailbox ? 337u : 1u)
enum { ROUNDS = 40, HOLD = 20000 };

typedef struct { uint32_t next, done, from; int err; } State;

static void on_recv(void *ctx, volatile Msg *m) {
  State *s = ctx;
  if (m->kind == KIND_DONE) { s->done++; return; }
  if (m->kind != KIND_DATA || m->src != s->from) { s->err = s->err ? s->err : 2; return; }
  if (m->seq != s->next) s->err = s->err ? s->err : 3;   /* lost or out of order */
  for (int i = 0; i < 12; i++)
    if (m->w[i] != pattern(m->src, m->seq, (uint32_t)i)) s->err = s->err ? s->err : 4;
  s->next = m->seq + 1;
}

int main(void) {
  uint32_t id = tinselId(), t0 = sim_cycle();
  State s = { 0, 0, (id + N - STRIDE) % N, 0 };
  for (uint32_t k = 0; k < ROUNDS; k++) {
    while (!tinselCanSend())
      if (sim_cycle() - t0 >= HOLD && tinselCanRecv()) take_one(on_recv, &s);
    tinselSend((int)((id + STRIDE) % N), fill_slot(KIND_DATA, id, k, 0));
  }
  while (sim_cycle() - t0 < HOLD) {}
  while (s.next < ROUNDS && !s.err) recv_one(on_recv, &s);
  if (s.err) return s.err;
  report_done(&s.done, N - 1, on_recv, &s);
  return s.err;
}
