// The front end must see exactly the loops a C++ compiler sees: none of the
// comments, strings, disabled code or macro tricks below may confuse it.
#include <math.h>
#include <stdio.h>
#include "op_seq.h"
double coeffs[4];
#ifndef FLUX_H
#define FLUX_H
// Kernel in a header found through -I include.
inline double weight(double a) { return coeffs[0] * a + coeffs[3]; }

inline void flux(const double *x1, const double *x2, double *r1, double *r2) {
  double f = weight(x1[0] - x2[0]); /* op_par_loop(flux, "not a call", s) */
  *r1 += f;
  *r2 -= f;
}
#endif

#define PDIM 2
#define TWICE(x) ((x) * 2)
#define ACC_SUM OP_INC
#define LAST_SLOT (PDIM - 1)
static const int NB = 3;

/* op_par_loop(ghost, "in a block comment", nodes, op_arg_gbl(0, 1, "int", OP_READ)); */
static const char *msg = "op_par_loop(ghost, \"in a string\", nodes)";

inline void gather(const double **x, double *s, const int *i) { *s += x[0][0] + x[1][1] + *i; }
inline void stats(const double *x, double *lo, double *hi, int *count) {
  if (x[0] < *lo) *lo = x[0];
  if (x[0] > *hi) *hi = x[0];
  (*count)++;
}
inline void maybe(const double *x, double *y, double *opt) { *y = x[0] + (opt ? *opt : 0.0); }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int map[4] = {0, 1, 1, 2};
  double x[6] = {1, 2, 3, 4, 5, 6}, r[3] = {0}, lo = 1e30, hi = -1e30, sums[2] = {0};
  double t[3], rr[3];
  coeffs[0] = 2.0;
  coeffs[3] = 0.5;
  int count = 0, use_opt = 0;
  op_set nodes = op_decl_set(3, "nodes"), edges;
  edges = op_decl_set(2, "edges");
  op_map pedge = op_decl_map(edges, nodes, PDIM, map, "pedge");
  op_dat p_x = op_decl_dat(nodes, TWICE(1), "double", x, "p_x");
  op_dat p_r = op_decl_dat(nodes, 1, "double", r, "p_r");
  op_dat p_b = op_decl_dat(edges, NB, "double", x, "p_b");
  op_decl_const(4, "double", coeffs);

  op_par_loop(flux, "flux", edges,
              op_arg_dat(p_x, 0, pedge, PDIM, "double", OP_READ),   // first, (comment)
              op_arg_dat(p_x, LAST_SLOT, pedge, TWICE(1), "double", OP_READ),
              op_arg_dat(p_r, 0, pedge, 1, "double", ACC_SUM),
              op_arg_dat(p_r, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "flux \"reversed\", (really)", edges, \
              op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ), \
              op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ),
              op_arg_dat(p_r, 1, pedge, 1, "double", OP_INC),
              op_arg_dat(p_r, 0, pedge, 1, "double", OP_INC));
#if 0
  op_par_loop(ghost, "disabled", nodes, op_arg_gbl(&count, 1, "int", OP_INC));
#endif
#ifdef NO_GATHER
  op_par_loop(ghost, "disabled too", nodes, op_arg_gbl(&count, 1, "int", OP_INC));
#else
  op_par_loop(gather, "gather", edges,
              op_arg_dat(p_x, -PDIM, pedge, 2, "double", OP_READ),
              op_arg_gbl(&(sums[(1)]), 1, "double", OP_INC),
              op_arg_idx(0, pedge));
#endif
  op_dat p_t = op_decl_dat_temp(nodes, 1, "double", NULL, "p_t");
  op_par_loop(stats, "stats", nodes,
              op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&lo, 1, "double", OP_MIN),
              op_arg_gbl(&hi, 1, "double", OP_MAX),
              op_arg_gbl(&count, 1, "int", OP_INC));
  op_par_loop(maybe, "maybe", nodes,
              op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_dat(p_t, -1, OP_ID, 1, "double", OP_WRITE),
              op_opt_arg_dat(use_opt, p_r, -1, OP_ID, 1, "double", OP_READ));
  op_fetch_data(p_t, t);
  op_fetch_data(p_r, rr);
  op_free_dat_temp(p_t);
  (void)msg;
  op_exit();
  // Expected values worked by hand from the mesh above.
  int ok = rr[0] == -8 && rr[1] == 0 && rr[2] == 8 && sums[1] == 15 && lo == 1 && hi == 5 &&
           count == 3 && t[0] == 1 && t[1] == 3 && t[2] == 5;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
