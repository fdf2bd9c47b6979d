// temp_dats: op_decl_dat_temp starts zeroed whatever data it is given, can
// be used like any dat, and op_free_dat_temp releases it; declared and
// freed once per iteration, as OP2's airfoil_tempdats does.
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

inline void add_to(const double *a, double *t) { t[0] += a[0], t[1] += 2 * a[0]; }
inline void copy_out(const double *t, double *out) { *out = t[0] + t[1]; }
inline void is_zero(const double *t, int *nonzero) { *nonzero += t[0] != 0 || t[1] != 0; }

enum { N = 9 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double a[N], junk[2 * N];
  for (int i = 0; i < N; i++)
    a[i] = i + 1;
  for (int i = 0; i < 2 * N; i++)
    junk[i] = 99;
  op_set cells = op_decl_set(N, "cells");
  op_dat p_a = op_decl_dat(cells, 1, "double", a, "p_a");
  op_dat p_out = op_decl_dat(cells, 1, "double", NULL, "p_out");

  for (int iter = 1; iter <= 3; iter++) {
    op_dat p_t = op_decl_dat_temp(cells, 2, "double", junk, "p_t");
    int nonzero = 0;
    op_par_loop(is_zero, "is_zero", cells, op_arg_dat(p_t, -1, OP_ID, 2, "double", OP_READ),
                op_arg_gbl(&nonzero, 1, "int", OP_INC));
    CHECK_EQ_I(nonzero, 0);
    for (int k = 0; k < iter; k++)
      op_par_loop(add_to, "add_to", cells, op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_READ),
                  op_arg_dat(p_t, -1, OP_ID, 2, "double", OP_INC));
    op_par_loop(copy_out, "copy_out", cells, op_arg_dat(p_t, -1, OP_ID, 2, "double", OP_READ),
                op_arg_dat(p_out, -1, OP_ID, 1, "double", OP_WRITE));
    double out[N];
    op_fetch_data(p_out, out);
    for (int i = 0; i < N; i++)
      CHECK_EQ_D(out[i], 3.0 * iter * a[i]);
    CHECK_EQ_I(op_free_dat_temp(p_t), 0);
  }
  op_exit();
  return check_finish("temp_dats");
}
