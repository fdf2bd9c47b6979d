// merged_reads: reads of one element through the same map slot share a
// message (op2c's protocol): q and adt of each cell reach an edge in one
// message, as in airfoil's res_calc; as vectors too; a wide dat that does
// not fit with them travels alone; an RW arg shares with a READ one.
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

inline void flux(const float *q0, const float *q1, const float *a0, const float *a1, const double *w0,
                 double *r0) {
  r0[0] += q0[0] + q1[1] + 2 * a0[0] + 3 * a1[0] + w0[5];
}
inline void gather(const float **q, const float **a, float *e) { e[0] = q[0][2] + q[1][3] + a[0][0] - a[1][0]; }
inline void relax(const float *a1, float *q1, const float *e) { q1[0] += a1[0] + e[0]; }

// A chain of cells; edge i joins cells i and i + 1.
enum { NCELL = 5, NEDGE = NCELL - 1 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int ec[2 * NEDGE];
  float q[4 * NCELL], adt[NCELL], e[NEDGE];
  double wide[6 * NCELL], r[NCELL] = {0};
  for (int c = 0; c < NCELL; c++) {
    for (int k = 0; k < 4; k++)
      q[4 * c + k] = (float)(10 * c + k);
    for (int k = 0; k < 6; k++)
      wide[6 * c + k] = 100 * c + k;
    adt[c] = (float)c + 0.5f;
  }
  for (int i = 0; i < NEDGE; i++)
    ec[2 * i] = i, ec[2 * i + 1] = i + 1;
  op_set cells = op_decl_set(NCELL, "cells");
  op_set edges = op_decl_set(NEDGE, "edges");
  op_map pecell = op_decl_map(edges, cells, 2, ec, "pecell");
  op_dat p_q = op_decl_dat(cells, 4, "float", q, "p_q");
  op_dat p_adt = op_decl_dat(cells, 1, "float", adt, "p_adt");
  op_dat p_wide = op_decl_dat(cells, 6, "double", wide, "p_wide");
  op_dat p_r = op_decl_dat(cells, 1, "double", r, "p_r");
  op_dat p_e = op_decl_dat(edges, 1, "float", NULL, "p_e");

  op_par_loop(flux, "flux", edges,
              op_arg_dat(p_q, 0, pecell, 4, "float", OP_READ),
              op_arg_dat(p_q, 1, pecell, 4, "float", OP_READ),
              op_arg_dat(p_adt, 0, pecell, 1, "float", OP_READ),
              op_arg_dat(p_adt, 1, pecell, 1, "float", OP_READ),
              op_arg_dat(p_wide, 0, pecell, 6, "double", OP_READ),
              op_arg_dat(p_r, 0, pecell, 1, "double", OP_INC));
  op_par_loop(gather, "gather", edges,
              op_arg_dat(p_q, -2, pecell, 4, "float", OP_READ),
              op_arg_dat(p_adt, -2, pecell, 1, "float", OP_READ),
              op_arg_dat(p_e, -1, OP_ID, 1, "float", OP_WRITE));
  op_par_loop(relax, "relax", edges,
              op_arg_dat(p_adt, 1, pecell, 1, "float", OP_READ),
              op_arg_dat(p_q, 1, pecell, 4, "float", OP_RW),
              op_arg_dat(p_e, -1, OP_ID, 1, "float", OP_READ));

  double got_r[NCELL], want_r[NCELL] = {0};
  float got_e[NEDGE], got_q[4 * NCELL], want_q[4 * NCELL];
  op_fetch_data(p_r, got_r);
  op_fetch_data(p_e, got_e);
  op_fetch_data(p_q, got_q);
  for (int i = 0; i < 4 * NCELL; i++)
    want_q[i] = q[i];
  for (int i = 0; i < NEDGE; i++) {
    int a = ec[2 * i], b = ec[2 * i + 1];
    want_r[a] += q[4 * a] + q[4 * b + 1] + 2 * adt[a] + 3 * adt[b] + wide[6 * a + 5];
    float want_e = q[4 * a + 2] + q[4 * b + 3] + adt[a] - adt[b];
    CHECK_EQ_D(got_e[i], want_e);
    want_q[4 * b] += adt[b] + want_e;
  }
  for (int c = 0; c < NCELL; c++)
    CHECK_EQ_D(got_r[c], want_r[c]);
  for (int i = 0; i < 4 * NCELL; i++)
    CHECK_EQ_D(got_q[i], want_q[i]);
  op_exit();
  return check_finish("merged_reads");
}
