// indirect_write: indirect WRITE (boundary nodes set through a map, like
// aero's Dirichlet condition), indirect RW (each target reached once), and
// direct INC.
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

inline void set_value(const double *v, double *u) { u[0] = *v, u[1] = -*v; }
inline void scale(const double *f, double *u) { u[0] *= *f, u[1] *= *f; }
inline void accumulate(const double *u, double *acc) { acc[0] += u[0] + u[1]; }

enum { NNODE = 12, NB = 4 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int bmap[NB] = {11, 0, 5, 7}; // the boundary nodes, in no particular order
  double bval[NB] = {1.5, 2.5, 3.5, 4.5}, factor[NB] = {2, 3, 4, 5}, u0[2 * NNODE];
  for (int n = 0; n < 2 * NNODE; n++)
    u0[n] = n;
  op_set nodes = op_decl_set(NNODE, "nodes");
  op_set bnodes = op_decl_set(NB, "bnodes");
  op_map pbnodes = op_decl_map(bnodes, nodes, 1, bmap, "pbnodes");
  op_dat p_u = op_decl_dat(nodes, 2, "double", u0, "p_u");
  op_dat p_bval = op_decl_dat(bnodes, 1, "double", bval, "p_bval");
  op_dat p_factor = op_decl_dat(bnodes, 1, "double", factor, "p_factor");
  op_dat p_acc = op_decl_dat(nodes, 1, "double", NULL, "p_acc");

  op_par_loop(set_value, "set_value", bnodes,
              op_arg_dat(p_bval, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_u, 0, pbnodes, 2, "double", OP_WRITE));
  op_par_loop(scale, "scale", bnodes,
              op_arg_dat(p_factor, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_u, 0, pbnodes, 2, "double", OP_RW));
  for (int rep = 0; rep < 3; rep++)
    op_par_loop(accumulate, "accumulate", nodes,
                op_arg_dat(p_u, -1, OP_ID, 2, "double", OP_READ),
                op_arg_dat(p_acc, -1, OP_ID, 1, "double", OP_INC));

  double u[2 * NNODE], acc[NNODE];
  op_fetch_data(p_u, u);
  op_fetch_data(p_acc, acc);
  double want[2 * NNODE];
  for (int n = 0; n < 2 * NNODE; n++)
    want[n] = n;
  for (int b = 0; b < NB; b++) {
    want[2 * bmap[b]] = bval[b] * factor[b];
    want[2 * bmap[b] + 1] = -bval[b] * factor[b];
  }
  for (int n = 0; n < NNODE; n++) {
    CHECK_EQ_D(u[2 * n], want[2 * n]);
    CHECK_EQ_D(u[2 * n + 1], want[2 * n + 1]);
    CHECK_EQ_D(acc[n], 3 * (want[2 * n] + want[2 * n + 1]));
  }
  op_exit();
  return check_finish("indirect_write");
}
