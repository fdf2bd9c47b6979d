// resident_dats: dats written by one loop and read by the next, several
// times over, then fetched; temp dats declared into one variable twice, so
// the second takes the first's place in the loop while the first is still
// alive. On the tinsel target dats stay on the devices between loops and
// come back only when the host reads them (host/tinsel/resident.c): the
// values must be those of a run where every loop goes through the host.
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

inline void step(const double *a, double *b) { b[0] = 2.0 * a[0] + 1.0; }
inline void back(const double *b, double *a) { a[0] = b[0] - 0.5; }
inline void add(const double *x, double *acc) { acc[0] += x[0]; }

enum { N = 5, ROUNDS = 4 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  op_set cells = op_decl_set(N, "cells");
  double init[N] = {0, 1, 2, 3, 4};
  op_dat p_a = op_decl_dat(cells, 1, "double", init, "p_a");
  op_dat p_b = op_decl_dat(cells, 1, "double", NULL, "p_b");
  double want[N];
  for (int i = 0; i < N; i++)
    want[i] = init[i];
  for (int r = 0; r < ROUNDS; r++) {
    op_par_loop(step, "step", cells, op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_b, -1, OP_ID, 1, "double", OP_WRITE));
    op_par_loop(back, "back", cells, op_arg_dat(p_b, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_WRITE));
    for (int i = 0; i < N; i++)
      want[i] = 2.0 * want[i] + 0.5;
  }
  double got[N];
  op_fetch_data(p_a, got);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(got[i], want[i]);
  op_fetch_data(p_a, got); // again: nothing new to bring back
  CHECK_EQ_D(got[N - 1], want[N - 1]);
  op_fetch_data(p_b, got);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(got[i], want[i] + 0.5);

  // Two live temp dats through one variable: the second evicts the first
  // from the loop's place in the device state; the first keeps its values.
  op_dat temps[2];
  for (int r = 0; r < 2; r++) {
    op_dat p_t = op_decl_dat_temp(cells, 1, "double", NULL, "p_t");
    op_par_loop(step, "twice", cells, op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_t, -1, OP_ID, 1, "double", OP_WRITE));
    double sum = 0;
    op_par_loop(add, "sum_t", cells, op_arg_dat(p_t, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
    double want_sum = 0;
    for (int i = 0; i < N; i++)
      want_sum += 2.0 * want[i] + 1.0;
    CHECK_EQ_D(sum, want_sum);
    op_par_loop(back, "halve", cells, op_arg_dat(p_t, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_WRITE));
    for (int i = 0; i < N; i++)
      want[i] = 2.0 * want[i] + 0.5;
    temps[r] = p_t;
  }
  op_fetch_data(temps[0], got);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(got[i], (want[i] - 0.5) / 2.0 + 0.5); // the first round's step
  op_fetch_data(temps[1], got);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(got[i], want[i] + 0.5);
  CHECK_EQ_I(op_free_dat_temp(temps[0]), 0);
  CHECK_EQ_I(op_free_dat_temp(temps[1]), 0);

  op_exit();
  return check_finish("resident_dats");
}
