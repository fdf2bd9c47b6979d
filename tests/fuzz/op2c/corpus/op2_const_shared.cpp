// const_shared: kernels read op_decl_const globals (a scalar and an array),
// and one kernel serves two loops with different sets, dats and maps.
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

double scale;
double weights[3];

// out = scale * (w . in): used directly on cells and through a map on edges.
inline void weigh(const double *in, double *out) {
  *out = scale * (weights[0] * in[0] + weights[1] * in[1] + weights[2] * in[2]);
}

enum { NC = 8, NE = 5 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  scale = 0.5;
  weights[0] = 1, weights[1] = 10, weights[2] = 100;
  op_decl_const(1, "double", &scale);
  op_decl_const(3, "double", weights);

  double in[3 * NC];
  for (int i = 0; i < 3 * NC; i++)
    in[i] = i % 7;
  int emap[NE] = {7, 2, 2, 0, 5};
  op_set cells = op_decl_set(NC, "cells");
  op_set edges = op_decl_set(NE, "edges");
  op_map pe = op_decl_map(edges, cells, 1, emap, "pe");
  op_dat p_in = op_decl_dat(cells, 3, "double", in, "p_in");
  op_dat p_cell = op_decl_dat(cells, 1, "double", NULL, "p_cell");
  op_dat p_edge = op_decl_dat(edges, 1, "double", NULL, "p_edge");

  op_par_loop(weigh, "weigh_cells", cells, op_arg_dat(p_in, -1, OP_ID, 3, "double", OP_READ),
              op_arg_dat(p_cell, -1, OP_ID, 1, "double", OP_WRITE));
  scale = 2; // kernels see the global's current value, as in OP2's seq build
  op_par_loop(weigh, "weigh_edges", edges, op_arg_dat(p_in, 0, pe, 3, "double", OP_READ),
              op_arg_dat(p_edge, -1, OP_ID, 1, "double", OP_WRITE));

  double cell[NC], edge[NE];
  op_fetch_data(p_cell, cell);
  op_fetch_data(p_edge, edge);
  for (int c = 0; c < NC; c++)
    CHECK_EQ_D(cell[c], 0.5 * (in[3 * c] + 10 * in[3 * c + 1] + 100 * in[3 * c + 2]));
  for (int e = 0; e < NE; e++) {
    const double *v = &in[3 * emap[e]];
    CHECK_EQ_D(edge[e], 2 * (v[0] + 10 * v[1] + 100 * v[2]));
  }
  op_exit();
  return check_finish("const_shared");
}
