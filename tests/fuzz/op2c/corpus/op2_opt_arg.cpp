// opt_arg: op_opt_arg_dat with the flag off hands the kernel no data (NULL);
// with it on the kernel sees the dat as usual.
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

static int null_seen, data_seen;

inline void maybe_add(const double *a, const double *b, double *out) {
  if (b == NULL)
    null_seen++;
  else
    data_seen++;
  *out = *a + (b ? *b : 100.0);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  enum { N = 6 };
  double av[N], bv[N];
  int nodemap[N];
  for (int i = 0; i < N; i++) {
    av[i] = i;
    bv[i] = 10 * i;
    nodemap[i] = N - 1 - i;
  }
  op_set cells = op_decl_set(N, "cells");
  op_set nodes = op_decl_set(N, "nodes");
  op_map rev = op_decl_map(cells, nodes, 1, nodemap, "rev");
  op_dat a = op_decl_dat(cells, 1, "double", av, "a");
  op_dat b = op_decl_dat(nodes, 1, "double", bv, "b");
  op_dat out = op_decl_dat(cells, 1, "double", NULL, "out");

  for (int flag = 0; flag <= 1; flag++) {
    null_seen = data_seen = 0;
    op_par_loop(maybe_add, "maybe_add", cells,
                op_arg_dat(a, -1, OP_ID, 1, "double", OP_READ),
                op_opt_arg_dat(flag, b, 0, rev, 1, "double", OP_READ),
                op_arg_dat(out, -1, OP_ID, 1, "double", OP_WRITE));
    double got[N];
    op_fetch_data(out, got);
    CHECK_EQ_I(flag ? data_seen : null_seen, N);
    for (int i = 0; i < N; i++)
      CHECK_EQ_D(got[i], i + (flag ? 10.0 * (N - 1 - i) : 100.0));
  }
  op_exit();
  return check_finish("opt_arg");
}
