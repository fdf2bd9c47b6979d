// vector_args: a negative idx -m hands the kernel an array of m pointers,
// one per map slot: cell centroids from the 4 corners (READ, written as
// const double **), and scattering a cell value to its corners (INC, as
// double *x[4]).
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

inline void centroid(const double **x, double *c) {
  c[0] = 0.25 * (x[0][0] + x[1][0] + x[2][0] + x[3][0]);
  c[1] = 0.25 * (x[0][1] + x[1][1] + x[2][1] + x[3][1]);
}

inline void scatter(const double *v, double *corner[4]) {
  for (int k = 0; k < 4; k++)
    corner[k][0] += *v;
}

// A 3x2 grid of unit squares: 12 nodes, 6 cells, corners counter-clockwise.
enum { NX = 3, NY = 2, NNODE = (NX + 1) * (NY + 1), NCELL = NX * NY };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double xy[2 * NNODE], val[NCELL];
  int cn[4 * NCELL];
  for (int j = 0; j <= NY; j++)
    for (int i = 0; i <= NX; i++) {
      xy[2 * (j * (NX + 1) + i)] = i;
      xy[2 * (j * (NX + 1) + i) + 1] = j;
    }
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      int c = j * NX + i, n = j * (NX + 1) + i;
      cn[4 * c] = n, cn[4 * c + 1] = n + 1, cn[4 * c + 2] = n + NX + 2, cn[4 * c + 3] = n + NX + 1;
      val[c] = c + 1;
    }
  op_set nodes = op_decl_set(NNODE, "nodes");
  op_set cells = op_decl_set(NCELL, "cells");
  op_map pcell = op_decl_map(cells, nodes, 4, cn, "pcell");
  op_dat p_x = op_decl_dat(nodes, 2, "double", xy, "p_x");
  op_dat p_c = op_decl_dat(cells, 2, "double", NULL, "p_c");
  op_dat p_v = op_decl_dat(cells, 1, "double", val, "p_v");
  op_dat p_sum = op_decl_dat(nodes, 1, "double", NULL, "p_sum");

  op_par_loop(centroid, "centroid", cells,
              op_arg_dat(p_x, -4, pcell, 2, "double", OP_READ),
              op_arg_dat(p_c, -1, OP_ID, 2, "double", OP_WRITE));
  op_par_loop(scatter, "scatter", cells,
              op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_sum, -4, pcell, 1, "double", OP_INC));

  double c[2 * NCELL], sum[NNODE], want[NNODE] = {0};
  op_fetch_data(p_c, c);
  op_fetch_data(p_sum, sum);
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      CHECK_EQ_D(c[2 * (j * NX + i)], i + 0.5);
      CHECK_EQ_D(c[2 * (j * NX + i) + 1], j + 0.5);
    }
  for (int cc = 0; cc < NCELL; cc++)
    for (int k = 0; k < 4; k++)
      want[cn[4 * cc + k]] += val[cc];
  for (int n = 0; n < NNODE; n++)
    CHECK_EQ_D(sum[n], want[n]);
  op_exit();
  return check_finish("vector_args");
}
