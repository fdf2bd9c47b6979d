/*
 * tg_example.h: the worked example of docs/taskgraph.md, shared by the
 * checkpoint demonstration (tg_demo.c), the unit tests and the checkpoint
 * fuzzer. Four nodes, every edge of capacity CAP (back-pressure):
 *
 *   gen (coroutine, no input): one step per number 1..n, then final;
 *   steps (coroutine, one invocation per number x): one step per Collatz
 *         iteration of x (x -> x/2 or 3x+1) until 1, then writes how many;
 *   sum (coroutine): folds a stream of n counts, asking for each next one
 *         (TG_WANT_INPUT), then writes the total and is final;
 *   out (function): copies the total to the host (ctx).
 *
 * The total is the sum over x = 1..n of the Collatz step counts of x,
 * which tg_example_expect computes directly. Everything is 32-bit (the
 * firmware stays small): n up to 100000 keeps every Collatz value and the
 * total below 2^32.
 */
#ifndef TG_EXAMPLE_H
#define TG_EXAMPLE_H

#include <stdint.h>
#include <string.h>

#include "tg.h"

typedef struct { uint32_t next, n; } tgx_gen_state;
typedef struct { uint32_t x, steps; } tgx_steps_state;
typedef struct { uint32_t count, total, n; } tgx_sum_state;

static tg_run_state tgx_gen(void *ctx, void *state, const void *const *in, void *const *out, uint32_t *produced) {
  (void)ctx, (void)in;
  tgx_gen_state *s = state;
  uint32_t x = ++s->next;
  memcpy(out[0], &x, sizeof(x));
  *produced = 1;
  return s->next >= s->n ? TG_FINAL : TG_ACTIVE;
}

static tg_run_state tgx_steps(void *ctx, void *state, const void *const *in, void *const *out, uint32_t *produced) {
  (void)ctx;
  tgx_steps_state *s = state;
  if (s->steps == 0 && s->x == 0) /* the invocation's first step: its input */
    memcpy(&s->x, in[0], sizeof(s->x));
  if (s->x > 1) {
    s->x = s->x % 2 ? 3 * s->x + 1 : s->x / 2;
    s->steps++;
    return TG_ACTIVE; /* yield after each iteration */
  }
  memcpy(out[0], &s->steps, sizeof(s->steps));
  *produced = 1;
  return TG_FINAL;
}

static tg_run_state tgx_sum(void *ctx, void *state, const void *const *in, void *const *out, uint32_t *produced) {
  (void)ctx;
  tgx_sum_state *s = state;
  uint32_t v;
  memcpy(&v, in[0], sizeof(v));
  s->total += v;
  if (++s->count < s->n) {
    *produced = TG_WANT_INPUT;
    return TG_ACTIVE;
  }
  memcpy(out[0], &s->total, sizeof(s->total));
  *produced = 1;
  return TG_FINAL;
}

static void tgx_out(void *ctx, const void *const *in, void *const *out) {
  (void)out;
  memcpy(ctx, in[0], sizeof(uint32_t));
}

/* Node indices in the example graph. */
enum { TGX_GEN, TGX_STEPS, TGX_SUM, TGX_OUT };

/* Builds the example for 1..N with edges of capacity CAP; RESULT receives
 * the total. NULL on failure. */
static inline tg_graph *tg_example(uint32_t n, uint32_t cap, uint32_t *result) {
  tg_graph *g = tg_graph_new(TG_DAG);
  if (!g)
    return NULL;
  const tg_port u32 = {1, sizeof(uint32_t), 0};
  tgx_gen_state gs = {0, n};
  tgx_steps_state ss = {0, 0};
  tgx_sum_state su = {0, 0, n};
  int gen = tg_add_coroutine(g, "gen", tgx_gen, NULL, 0, NULL, 1, &u32, sizeof(gs), &gs);
  int steps = tg_add_coroutine(g, "steps", tgx_steps, NULL, 1, &u32, 1, &u32, sizeof(ss), &ss);
  int sum = tg_add_coroutine(g, "sum", tgx_sum, NULL, 1, &u32, 1, &u32, sizeof(su), &su);
  int out = tg_add_function(g, "out", tgx_out, result, 1, &u32, 0, NULL);
  if (gen != TGX_GEN || steps != TGX_STEPS || sum != TGX_SUM || out != TGX_OUT || tg_add_edge(g, gen, 0, steps, 0, cap) < 0 ||
      tg_add_edge(g, steps, 0, sum, 0, cap) < 0 || tg_add_edge(g, sum, 0, out, 0, cap) < 0) {
    tg_graph_free(g);
    return NULL;
  }
  return g;
}

/* The same total, computed directly. */
static inline uint32_t tg_example_expect(uint32_t n) {
  uint32_t total = 0;
  for (uint32_t x = 1; x <= n; x++)
    for (uint32_t y = x; y > 1; total++)
      y = y % 2 ? 3 * y + 1 : y / 2;
  return total;
}

#endif
