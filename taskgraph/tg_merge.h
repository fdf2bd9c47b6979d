/*
 * tg_merge.h: a small graph with a counted input port (tg.h), shared by the
 * unit tests (tests/taskgraph/tg_test.c) and the checkpoint fuzzer
 * (tests/fuzz/tgck):
 *
 *   src0 .. src(K-1) (coroutines, no input; tg_example.h's gen): source i
 *        writes PER numbers, i*PER + 1 .. i*PER + PER, one per step;
 *   merge (coroutine): its input port is counted (N); every edge of every
 *        source goes into it. Each invocation or resumption takes N
 *        numbers and adds them up; after K*PER/N rounds (TG_WANT_INPUT
 *        between them) it writes the total and is final;
 *   out (function): copies the total to the host (ctx).
 *
 * The total is 1 + 2 + ... + K*PER whatever order the posts come in.
 * K*PER must be a multiple of N (else merge is left waiting: an error).
 */
#ifndef TG_MERGE_H
#define TG_MERGE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tg.h"
#include "tg_example.h" /* tgx_gen: the sources */

typedef struct { uint32_t total, rounds, want_rounds; } tgm_merge_state;
/* The host's side (ctx of merge and out): the port's count, and the total
 * out receives. The count is not in the computation state, which a
 * checkpoint restores: a kernel must not trust it for sizes. */
typedef struct { uint32_t n, total; } tgm_host;

static tg_run_state tgm_merge(void *ctx, void *state, const void *const *in, void *const *out, uint32_t *produced) {
  tgm_merge_state *s = state;
  const uint8_t *items = in[0];
  for (uint32_t k = 0, n = ((const tgm_host *)ctx)->n; k < n; k++) {
    uint32_t x;
    memcpy(&x, items + 4 * (size_t)k, 4);
    s->total += x;
  }
  if (++s->rounds < s->want_rounds) {
    *produced = TG_WANT_INPUT;
    return TG_ACTIVE;
  }
  memcpy(out[0], &s->total, 4);
  *produced = 1;
  return TG_FINAL;
}

static void tgm_out(void *ctx, const void *const *in, void *const *out) {
  (void)out;
  memcpy(&((tgm_host *)ctx)->total, in[0], sizeof(uint32_t));
}

enum { TGM_MERGE, TGM_OUT, TGM_SRC0 };

/* K sources of PER numbers each into a port counted N (HOST->n, set here;
 * HOST->total receives the total): NULL on failure. */
static inline tg_graph *tg_merge(uint32_t k, uint32_t per, uint32_t n, tgm_host *host) {
  tg_graph *g = tg_graph_new(TG_DAG);
  if (!g)
    return NULL;
  const tg_port u32 = {1, sizeof(uint32_t), 0}, counted = {1, sizeof(uint32_t), n};
  tgm_merge_state ms = {0, 0, n ? k * per / n : 0};
  host->n = n, host->total = 0;
  int ok = tg_add_coroutine(g, "merge", tgm_merge, host, 1, &counted, 1, &u32, sizeof(ms), &ms) == TGM_MERGE &&
           tg_add_function(g, "out", tgm_out, host, 1, &u32, 0, NULL) == TGM_OUT &&
           tg_add_edge(g, TGM_MERGE, 0, TGM_OUT, 0, 1) >= 0;
  for (uint32_t i = 0; i < k && ok; i++) {
    char name[32];
    tgx_gen_state ss = {i * per, i * per + per};
    snprintf(name, sizeof(name), "src%u", i);
    int s = tg_add_coroutine(g, name, tgx_gen, NULL, 0, NULL, 1, &u32, sizeof(ss), &ss);
    ok = s >= 0 && tg_add_edge(g, s, 0, TGM_MERGE, 0, 1) >= 0;
  }
  if (!ok) {
    tg_graph_free(g);
    return NULL;
  }
  return g;
}

static inline uint32_t tg_merge_expect(uint32_t k, uint32_t per) { return k * per * (k * per + 1) / 2; }

#endif
