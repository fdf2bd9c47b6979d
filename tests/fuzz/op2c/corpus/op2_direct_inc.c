// direct_inc: a C (not C++) OP2 program: direct INC and RW loops with
// kernels in C, and a float gbl READ.
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

static inline void axpy(const float *a, const float *x, float *y) { *y += *a * *x; }
static inline void halve(float *y) { *y *= 0.5f; }

enum { N = 10 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  float x[N], y[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i, y[i] = 1.0f;
  op_set s = op_decl_set(N, "s");
  op_dat p_x = op_decl_dat(s, 1, "float", x, "p_x");
  op_dat p_y = op_decl_dat(s, 1, "float", y, "p_y");
  float a = 2.0f;
  for (int k = 0; k < 2; k++)
    op_par_loop(axpy, "axpy", s, op_arg_gbl(&a, 1, "float", OP_READ),
                op_arg_dat(p_x, -1, OP_ID, 1, "float", OP_READ),
                op_arg_dat(p_y, -1, OP_ID, 1, "float", OP_INC));
  op_par_loop(halve, "halve", s, op_arg_dat(p_y, -1, OP_ID, 1, "float", OP_RW));
  float out[N];
  op_fetch_data(p_y, out);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(out[i], (1.0 + 4.0 * i) * 0.5);
  op_exit();
  return check_finish("direct_inc");
}
