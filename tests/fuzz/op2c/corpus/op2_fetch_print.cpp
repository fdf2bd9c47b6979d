// fetch_print: op_fetch_data, op_fetch_data_idx and the text file written
// by op_print_dat_to_txtfile (header "size dim", " %+2.15lE" per value,
// -0.0 as +0.0), read back and compared line by line.
#include <string.h>

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

inline void fill(const int *idx, double *v) {
  v[0] = *idx * 0.5 - 1.0; // element 2 gives exactly 0
  v[1] = -0.0 * *idx;      // negative zero: printed as +0.0
}

enum { N = 4 };

static const char *expected[] = {
    "4 2",
    " -1.000000000000000E+00 +0.000000000000000E+00",
    " -5.000000000000000E-01 +0.000000000000000E+00",
    " +0.000000000000000E+00 +0.000000000000000E+00",
    " +5.000000000000000E-01 +0.000000000000000E+00",
};

static void check_file(const char *path) {
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (!f)
    return;
  char line[256];
  int n = 0;
  while (fgets(line, sizeof(line), f)) {
    line[strcspn(line, "\n")] = '\0';
    if (n < 5 && strcmp(line, expected[n]) != 0) {
      printf("%s line %d: \"%s\", expected \"%s\"\n", path, n + 1, line, expected[n]);
      check_failures++;
    }
    n++;
  }
  fclose(f);
  CHECK_EQ_I(n, 5);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  const char *path = argc > 1 ? argv[1] : "fetch_print.txt";
  op_set cells = op_decl_set(N, "cells");
  op_dat p_v = op_decl_dat(cells, 2, "double", NULL, "p_v");
  op_par_loop(fill, "fill", cells, op_arg_idx(-1, OP_ID),
              op_arg_dat(p_v, -1, OP_ID, 2, "double", OP_WRITE));

  double all[2 * N], part[4] = {7, 7, 7, 7};
  op_fetch_data(p_v, all);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(all[2 * i], i * 0.5 - 1.0);
  CHECK(signbit(all[3])); // the dat itself keeps the sign
  op_fetch_data_idx(p_v, part, 1, 2);
  CHECK_EQ_D(part[0], all[2]);
  CHECK_EQ_D(part[2], all[4]);

  op_print_dat_to_txtfile(p_v, path);
  check_file(path);
  remove(path);
  op_exit();
  return check_finish("fetch_print");
}
