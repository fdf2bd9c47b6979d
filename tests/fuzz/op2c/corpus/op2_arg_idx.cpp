// arg_idx: op_arg_idx(-1, OP_ID) gives the kernel the element's index and
// op_arg_idx(k, map) the map's k-th entry for it.
#include "op_seq.h"

/*
 * op2_check.h: the self-check helpers of the OP2 test programs. Each
 * program counts failed checks, prints "<name> PASSED" or "<name> FAILED",
 * and exits non-zero on failure.
 */
#ifndef OP2_CHECK_H
#define OP2_CHECK_H

#include <math.h>
#include <stdio.h>

static int check_failures;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      check_failures++;                                                        \
      printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                          \
  } while (0)

// Exact comparison where the order of operations is fixed, else relative.
#define CHECK_EQ_D(got, want)                                                  \
  do {                                                                         \
    double g_ = (got), w_ = (want);                                            \
    if (!(g_ == w_)) {                                                         \
      check_failures++;                                                        \
      printf("%s:%d: %s is %.17g, expected %.17g\n", __FILE__, __LINE__, #got, g_, w_); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_I(got, want)                                                  \
  do {                                                                         \
    long long g_ = (got), w_ = (want);                                         \
    if (g_ != w_) {                                                            \
      check_failures++;                                                        \
      printf("%s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #got, g_, w_); \
    }                                                                          \
  } while (0)

static int check_finish(const char *name) {
  printf("%s %s\n", name, check_failures ? "FAILED" : "PASSED");
  return check_failures != 0;
}

#endif

inline void record(const int *self, const int *left, const int *right, int *out) {
  out[0] = *self;
  out[1] = *left;
  out[2] = *right;
}

enum { NE = 7, NN = 5 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int emap[2 * NE];
  for (int e = 0; e < NE; e++) {
    emap[2 * e] = (3 * e) % NN;
    emap[2 * e + 1] = (3 * e + 4) % NN;
  }
  op_set nodes = op_decl_set(NN, "nodes");
  op_set edges = op_decl_set(NE, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, emap, "pedge");
  op_dat p_out = op_decl_dat(edges, 3, "int", NULL, "p_out");

  op_par_loop(record, "record", edges, op_arg_idx(-1, OP_ID), op_arg_idx(0, pedge),
              op_arg_idx(1, pedge), op_arg_dat(p_out, -1, OP_ID, 3, "int", OP_WRITE));

  int out[3 * NE];
  op_fetch_data(p_out, out);
  for (int e = 0; e < NE; e++) {
    CHECK_EQ_I(out[3 * e], e);
    CHECK_EQ_I(out[3 * e + 1], emap[2 * e]);
    CHECK_EQ_I(out[3 * e + 2], emap[2 * e + 1]);
  }
  op_exit();
  return check_finish("arg_idx");
}
