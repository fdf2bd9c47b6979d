/*
 * tree_tg.h: the multifrontal tree's random tree and its tg.h graph, shared
 * by apps/tree/tree.c (--engine tg, the host scheduler), tg.h's POETS back
 * end (taskgraph/tg_poets.c --graph tree) and its kernel table for the
 * firmware (taskgraph/tgp_tree.c), which must name the same functions.
 *
 * The tree: node i > 0 hangs under a node before it, half the time a
 * uniformly random one (a random recursive tree: wide, shallow) and half
 * the time one of the 8 before it (long chains): depths and fan-ins of
 * both kinds.
 *
 * The graph: node i is a function whose one input port is counted
 * (UNTIL_COUNT = its NC children: every child's edge goes into it), with
 * no input port for a leaf and no output port for the root; the firing
 * folds the NC children's results with tree_fold and writes tree_result.
 * Its ctx (TgNode, 32 bytes) holds its props and receives its result.
 * --extra-post / --missing-post make one node a coroutine that writes its
 * result twice (two steps) or never.
 */
#ifndef TREE_TG_H
#define TREE_TG_H

#include <stdint.h>
#include <string.h>

#include "tg.h"
#include "tree.h"

typedef struct {
  tree_props p;
  tree_msg result;
} TgNode;

static inline void tg_tree_fn(void *ctx, const void *const *in, void *const *out) {
  TgNode *t = ctx;
  tree_state s;
  memset(&s, 0, sizeof(s));
  for (uint32_t k = 0; k < t->p.nc; k++) { /* the counted port's NC items */
    tree_msg m;
    memcpy(&m, (const uint8_t *)in[0] + k * sizeof(tree_msg), sizeof(m));
    tree_fold(&s, &m);
  }
  t->result = tree_result(&t->p, &s);
  if (!t->p.root)
    memcpy(out[0], &t->result, sizeof(tree_msg));
}

static inline tg_run_state tg_tree_co(void *ctx, void *state, const void *const *in, void *const *out, uint32_t *produced) {
  TgNode *t = ctx;
  uint32_t *steps = state;
  if (t->p.extra == 2)
    return TG_FINAL; /* never posts */
  if ((*steps)++ == 0)
    tg_tree_fn(ctx, in, out);
  else
    memcpy(out[0], &t->result, sizeof(tree_msg));
  *produced = !t->p.root;
  return *steps == 2 ? TG_FINAL : TG_ACTIVE;
}

#ifndef TREE_TG_KERNELS_ONLY /* the host's part */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  uint32_t n, seed;
  uint32_t *parent;  /* [n]; parent[0] unused (the root) */
  uint32_t *nc;      /* [n] children */
  uint32_t extra;    /* this node posts twice (--extra-post) or never (--missing-post); n: none */
  uint32_t extra_kind; /* 1 twice, 2 never */
} Tree;

static uint64_t tree_rng_state;
static inline uint32_t tree_rnd(uint32_t n) {
  tree_rng_state ^= tree_rng_state << 13, tree_rng_state ^= tree_rng_state >> 7, tree_rng_state ^= tree_rng_state << 17;
  return (uint32_t)(tree_rng_state % n);
}

/* A random tree of N nodes (the top): 0, or -1 out of memory. */
static inline int tree_make(Tree *t, uint32_t n, uint32_t seed) {
  t->n = n, t->seed = seed, t->extra = n;
  t->parent = calloc(n ? n : 1, sizeof(uint32_t));
  t->nc = calloc(n ? n : 1, sizeof(uint32_t));
  if (!t->parent || !t->nc)
    return -1;
  tree_rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 17 | 1);
  for (uint32_t i = 1; i < n; i++) {
    uint32_t p = tree_rnd(2) ? tree_rnd(i) : i - 1 - tree_rnd(i < 8 ? i : 8);
    t->parent[i] = p;
    t->nc[p]++;
  }
  return 0;
}

static inline tree_props props_of(const Tree *t, uint32_t i) {
  return (tree_props){.id = i, .value = tree_value(t->seed, i), .nc = t->nc[i], .root = i == 0, .extra = i == t->extra ? t->extra_kind : 0};
}

/* The tree as a tg.h graph; NODES[n] become the nodes' ctx. NULL with a
 * message in ERR. */
static inline tg_graph *tree_tg_graph(const Tree *t, TgNode *nodes, char *err, size_t errlen) {
  tg_graph *g = tg_graph_new(0);
  if (!g)
    return snprintf(err, errlen, "out of memory (tg_graph_new)"), NULL;
  const tg_port out = {1, sizeof(tree_msg), 0};
  const uint32_t zero = 0;
  int ok = 1;
  for (uint32_t i = 0; i < t->n && ok; i++) {
    nodes[i].p = props_of(t, i);
    tg_port in = {1, sizeof(tree_msg), t->nc[i]};
    char name[24];
    snprintf(name, sizeof(name), "node%u", i);
    uint32_t nin = t->nc[i] ? 1 : 0, nout = i ? 1 : 0;
    ok = (nodes[i].p.extra ? tg_add_coroutine(g, name, tg_tree_co, &nodes[i], nin, &in, nout, &out, sizeof(zero), &zero)
                           : tg_add_function(g, name, tg_tree_fn, &nodes[i], nin, &in, nout, &out)) == (int)i;
  }
  for (uint32_t i = 1; i < t->n && ok; i++)
    ok = tg_add_edge(g, (int)i, 0, (int)t->parent[i], 0, 1) >= 0;
  if (!ok) {
    snprintf(err, errlen, "the tg.h graph: %s", tg_error(g));
    tg_graph_free(g);
    return NULL;
  }
  return g;
}

#endif
#endif
