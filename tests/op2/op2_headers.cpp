// op2_headers: a program written as current OP2-Common applications are.
// It includes OP2's header names (op_seq.h, <op_profile.h>, op_lib_cpp.h,
// op_lib_core.h), relies on them for <cmath>, <cstdlib> and <cstring>, uses
// their MIN, MAX and ROUND_UP in host code, in dims and in kernels, and
// their op_malloc/op_calloc/op_realloc/op_free, and hands const variables
// to op_decl_const and to an OP_READ op_arg_gbl.
#include "op_seq.h"
#include <op_profile.h>
#include "op_lib_cpp.h"
#include "op_lib_core.h"

#include "op2_check.h"

const double gam = 1.5;            // const T for op_decl_const
const double band[2] = {-2.0, 3.0}; // and a const array

#define NDIM MAX(1, 2) // a dim written with OP2's macros

// y = x clamped to [band[0] * lo, gam * band[1]]; m = the larger of y's two values.
inline void clamp(const double *x, const double *lo, double *y, double *m) {
  for (int k = 0; k < NDIM; k++)
    y[k] = MIN(MAX(x[k], band[0] * *lo), gam * band[1]);
  *m = MAX(y[0], y[1]);
}

// The largest and smallest id, as ints through MIN/MAX reductions.
inline void extremes(const int *id, int *hi, int *lo) {
  *hi = MAX(*hi, *id);
  *lo = MIN(*lo, *id);
}

enum { NC = 12 };

static double clamped(double v, double lo) { return MIN(MAX(v, -2.0 * lo), 1.5 * 3.0); }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  op_decl_const(1, "double", &gam);
  op_decl_const(2, "double", band);

  // The host uses OP2's macros and the standard headers OP2's bring in.
  CHECK_EQ_I(MIN(3, 4), 3);
  CHECK_EQ_I(MAX(3, 4), 4);
  CHECK_EQ_D(MIN(-0.5, 0.25), -0.5);
  CHECK_EQ_I(ROUND_UP(1), 16);
  CHECK_EQ_I(ROUND_UP(16), 16);
  CHECK_EQ_I(ROUND_UP(17), 32);
  CHECK_EQ_I(ROUND_UP_64(65), 128);
  CHECK_EQ_D(std::pow(2.0, 10), 1024.0);
  CHECK_EQ_D(std::sqrt(gam * 6.0), 3.0);
  CHECK_EQ_I(std::abs(-7), 7);
  CHECK_EQ_I(strlen("op2"), 3);
  if (ROUND_UP(0) != 0)
    exit(1);

  // The mesh data from OP2's allocator.
  double *x = (double *)op_malloc(NDIM * NC * sizeof(double));
  int *ids = (int *)op_calloc(NC, sizeof(int));
  CHECK(x != NULL && ids != NULL);
  for (int i = 0; i < NC; i++)
    CHECK_EQ_I(ids[i], 0); // op_calloc zeroes
  ids = (int *)op_realloc(ids, 2 * NC * sizeof(int));
  CHECK(ids != NULL);
  for (int i = 0; i < NC; i++) {
    CHECK_EQ_I(ids[i], 0); // op_realloc keeps the contents
    ids[i] = (i * 7) % NC + 3;
    x[2 * i] = i - 5.5;
    x[2 * i + 1] = (i % 4) * 2.25 - 4;
  }

  op_set cells = op_decl_set(NC, "cells");
  op_dat p_x = op_decl_dat(cells, NDIM, "double", x, "p_x");
  op_dat p_y = op_decl_dat(cells, MIN(2, 5), "double", NULL, "p_y");
  op_dat p_m = op_decl_dat(cells, 1, "double", NULL, "p_m");
  op_dat p_id = op_decl_dat(cells, 1, "int", ids, "p_id");

  const double lo = 0.75; // a const pointer for OP_READ
  op_par_loop(clamp, "clamp", cells, op_arg_dat(p_x, -1, OP_ID, NDIM, "double", OP_READ),
              op_arg_gbl(&lo, 1, "double", OP_READ), op_arg_dat(p_y, -1, OP_ID, 2, "double", OP_WRITE),
              op_arg_dat(p_m, -1, OP_ID, 1, "double", OP_WRITE));
  int hi = -1000, low = 1000;
  op_par_loop(extremes, "extremes", cells, op_arg_dat(p_id, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&hi, 1, "int", OP_MAX), op_arg_gbl(&low, 1, "int", OP_MIN));

  double *y = (double *)op_malloc(2 * NC * sizeof(double)), m[NC];
  op_fetch_data(p_y, y);
  op_fetch_data(p_m, m);
  int want_hi = -1000, want_lo = 1000;
  for (int i = 0; i < NC; i++) {
    double y0 = clamped(x[2 * i], lo), y1 = clamped(x[2 * i + 1], lo);
    CHECK_EQ_D(y[2 * i], y0);
    CHECK_EQ_D(y[2 * i + 1], y1);
    CHECK_EQ_D(m[i], y0 > y1 ? y0 : y1);
    want_hi = ids[i] > want_hi ? ids[i] : want_hi;
    want_lo = ids[i] < want_lo ? ids[i] : want_lo;
  }
  CHECK_EQ_I(hi, want_hi);
  CHECK_EQ_I(low, want_lo);
  CHECK_EQ_I(hi, NC + 2);
  CHECK_EQ_I(low, 3);
  op_free(y);
  op_free(x);
  op_free(ids);
  op_free(NULL); // as free(NULL)
  op_exit();
  return check_finish("op2_headers");
}
