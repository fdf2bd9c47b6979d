// gbl_reductions: global INC, MIN and MAX for int, float and double, in a
// direct loop (over cells) and an indirect one (nodes read through a map).
// A reduction's result is its initial value combined with every element's.
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

inline void reduce_d(const double *v, double *sum, double *mn, double *mx) {
  *sum += *v;
  *mn = *v < *mn ? *v : *mn;
  *mx = *v > *mx ? *v : *mx;
}

inline void reduce_f(const float *v, float *sum, float *mn, float *mx) {
  *sum += *v;
  *mn = *v < *mn ? *v : *mn;
  *mx = *v > *mx ? *v : *mx;
}

inline void reduce_i(const int *v, int *sum, int *mn, int *mx) {
  *sum += *v;
  *mn = *v < *mn ? *v : *mn;
  *mx = *v > *mx ? *v : *mx;
}

enum { NC = 50, NN = 20 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double dv[NC];
  float fv[NC];
  int iv[NC], map[NN];
  for (int i = 0; i < NC; i++) {
    iv[i] = (i * 37) % 101 - 50; // -50..50, scrambled
    dv[i] = iv[i] * 0.25;
    fv[i] = iv[i] * 0.5f;
  }
  for (int i = 0; i < NN; i++)
    map[i] = (7 * i + 3) % NC; // edges read a subset of the cells
  op_set cells = op_decl_set(NC, "cells");
  op_set edges = op_decl_set(NN, "edges");
  op_map pick = op_decl_map(edges, cells, 1, map, "pick");
  op_dat p_d = op_decl_dat(cells, 1, "double", dv, "p_d");
  op_dat p_f = op_decl_dat(cells, 1, "float", fv, "p_f");
  op_dat p_i = op_decl_dat(cells, 1, "int", iv, "p_i");

  // Direct: every cell, starting from non-neutral initial values.
  double dsum = 1000, dmin = 0, dmax = 0;
  float fsum = 1000, fmin = 0, fmax = 0;
  int isum = 1000, imin = 0, imax = 0;
  op_par_loop(reduce_d, "reduce_d", cells, op_arg_dat(p_d, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(&dsum, 1, "double", OP_INC), op_arg_gbl(&dmin, 1, "double", OP_MIN),
              op_arg_gbl(&dmax, 1, "double", OP_MAX));
  op_par_loop(reduce_f, "reduce_f", cells, op_arg_dat(p_f, -1, OP_ID, 1, "float", OP_READ),
              op_arg_gbl(&fsum, 1, "float", OP_INC), op_arg_gbl(&fmin, 1, "float", OP_MIN),
              op_arg_gbl(&fmax, 1, "float", OP_MAX));
  op_par_loop(reduce_i, "reduce_i", cells, op_arg_dat(p_i, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&isum, 1, "int", OP_INC), op_arg_gbl(&imin, 1, "int", OP_MIN),
              op_arg_gbl(&imax, 1, "int", OP_MAX));
  int esum = 1000, emin = 0, emax = 0;
  for (int i = 0; i < NC; i++) {
    esum += iv[i];
    emin = iv[i] < emin ? iv[i] : emin;
    emax = iv[i] > emax ? iv[i] : emax;
  }
  CHECK_EQ_I(isum, esum);
  CHECK_EQ_I(imin, emin);
  CHECK_EQ_I(imax, emax);
  CHECK_EQ_D(dsum, 1000 + (esum - 1000) * 0.25); // quarter-integers: exact
  CHECK_EQ_D(dmin, emin * 0.25);
  CHECK_EQ_D(dmax, emax * 0.25);
  CHECK_EQ_D(fsum, 1000 + (esum - 1000) * 0.5);
  CHECK_EQ_D(fmin, emin * 0.5);
  CHECK_EQ_D(fmax, emax * 0.5);

  // Indirect: the cells picked by the edges, min and max from the first one.
  dsum = 0, dmin = 1e300, dmax = -1e300;
  fsum = 0, fmin = 1e30f, fmax = -1e30f;
  isum = 0, imin = 1 << 30, imax = -(1 << 30);
  op_par_loop(reduce_d, "reduce_d", edges, op_arg_dat(p_d, 0, pick, 1, "double", OP_READ),
              op_arg_gbl(&dsum, 1, "double", OP_INC), op_arg_gbl(&dmin, 1, "double", OP_MIN),
              op_arg_gbl(&dmax, 1, "double", OP_MAX));
  op_par_loop(reduce_f, "reduce_f", edges, op_arg_dat(p_f, 0, pick, 1, "float", OP_READ),
              op_arg_gbl(&fsum, 1, "float", OP_INC), op_arg_gbl(&fmin, 1, "float", OP_MIN),
              op_arg_gbl(&fmax, 1, "float", OP_MAX));
  op_par_loop(reduce_i, "reduce_i", edges, op_arg_dat(p_i, 0, pick, 1, "int", OP_READ),
              op_arg_gbl(&isum, 1, "int", OP_INC), op_arg_gbl(&imin, 1, "int", OP_MIN),
              op_arg_gbl(&imax, 1, "int", OP_MAX));
  esum = 0, emin = 1 << 30, emax = -(1 << 30);
  for (int i = 0; i < NN; i++) {
    int v = iv[map[i]];
    esum += v;
    emin = v < emin ? v : emin;
    emax = v > emax ? v : emax;
  }
  CHECK_EQ_I(isum, esum);
  CHECK_EQ_I(imin, emin);
  CHECK_EQ_I(imax, emax);
  CHECK_EQ_D(dsum, esum * 0.25);
  CHECK_EQ_D(dmin, emin * 0.25);
  CHECK_EQ_D(dmax, emax * 0.25);
  CHECK_EQ_D(fsum, esum * 0.5);
  CHECK_EQ_D(fmin, emin * 0.5);
  CHECK_EQ_D(fmax, emax * 0.5);
  op_exit();
  return check_finish("gbl_reductions");
}
