// tree.h: John Reid's multifrontal tree (seeds/002, J3/14-104 annex A) as a
// softswitch app. One device per tree node; a parent waits, with a counted
// event (firmware/softswitch/ss_counted.h), for exactly its NC children,
// combines their data and posts its own to its parent; the root reports.
// Shared by the firmware (tree_dev.c on Tinsel), the host's softswitch
// engine (tree_dev.c compiled for the host) and the host oracle (tree.c):
// one definition of the data, of the fold and of the node's result.
#ifndef TREE_H
#define TREE_H

#include <stdint.h>

#include "ss_counted.h"

// What a node sends its parent: the result of its subtree.
typedef struct {
  uint32_t hash;    // tree_result of the subtree
  uint32_t size;    // nodes in the subtree
  uint32_t height;  // levels in the subtree (a leaf: 1)
} tree_msg;

// Read-only per node.
typedef struct {
  uint32_t id;      // node number (0 is the root)
  uint32_t value;   // the node's own datum
  uint32_t nc;      // children: the UNTIL_COUNT of the node's wait
  uint32_t root;    // 1 for the root (reports instead of posting)
  uint32_t extra;   // test of the test: 1 posts to its parent twice (tree --extra-post), 2 never (--missing-post)
} tree_props;

// Per node, in the thread image.
typedef struct {
  ss_counted done;  // posts from children (EVENT POST), one wait for nc
  uint32_t sum;     // children's hashes, summed (order-insensitive)
  uint32_t size;    // children's sizes, summed
  uint32_t height;  // the highest child
  uint32_t state;   // TREE_*
  uint32_t errors;  // TREE_ERR_* seen
  uint32_t sends;   // messages sent to the parent
  tree_msg out;     // the node's result, once ready
} tree_state;

enum { TREE_WAITING = 0, TREE_READY = 1, TREE_SENT = 2 };
#define TREE_ERR_OVER   1u  // a post took the count beyond the threshold (ss_event_* said SS_EVENT_OVER)
#define TREE_ERR_EXCESS 2u  // at the end, posts no wait took (more posts than children)
#define TREE_ERR_SHORT  4u  // at the end, the wait is still waiting (fewer posts than children)

// A 32-bit mixer (an avalanche of xor-shifts and odd multiplies; any change
// to the input changes about half the output bits).
static inline uint32_t tree_mix(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// A node's datum in a tree of seed SEED.
static inline uint32_t tree_value(uint32_t seed, uint32_t id) { return tree_mix(seed * 0x9e3779b9u ^ tree_mix(id + 1)); }

// Folds one child's result into the node's accumulators (commutative and
// associative: children may arrive in any order).
static inline void tree_fold(tree_state *s, const tree_msg *m) {
  s->sum += m->hash;
  s->size += m->size;
  if (m->height > s->height)
    s->height = m->height;
}

// The node's own result from its datum and the folded children.
static inline tree_msg tree_result(const tree_props *p, const tree_state *s) {
  tree_msg r;
  r.size = s->size + 1;
  r.height = s->height + 1;
  r.hash = tree_mix(p->value ^ tree_mix(s->sum + r.size * 0x85ebca6bu));
  return r;
}

// Where a device reports (the firmware prints on the debug link; the host
// engine records): the root's result, and a node's errors at the end.
void tree_report_root(const tree_props *p, const tree_msg *m);
void tree_report_error(const tree_props *p, const tree_state *s);

#endif
