// while_loop: a data-dependent host loop, as in OP2's aero: Jacobi
// iterations on a 1D Laplace problem run until the residual reduction
// falls below a threshold. The iteration count is checked against a plain
// C++ replay of the same arithmetic.
//
// OP2_WHILE_TOL (default 1e-12: 293 iterations) is the residual the loop
// stops at; the cycle-model runs use 1e-4 (70 iterations, 140 invocations:
// tests/op2/model_runs.sh), since every iteration is two invocations and a
// host round trip for the residual.
#include "op_seq.h"

#ifndef OP2_WHILE_TOL
#define OP2_WHILE_TOL 1e-12
#endif

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

// Each edge adds its difference to both ends' residuals.
inline void edge_res(const double *ul, const double *ur, double *rl, double *rr) {
  double d = *ur - *ul;
  *rl += d;
  *rr -= d;
}

// Interior nodes relax; the two end nodes (fixed == 1) keep their value.
inline void relax(const int *fixed, double *u, double *r, double *rsq) {
  if (!*fixed) {
    *u += 0.5 * *r;
    *rsq += *r * *r;
  }
  *r = 0;
}

enum { NN = 12, NE = NN - 1 };

static int replay(const double *u0, double tol, double *uend) {
  double u[NN], r[NN] = {0};
  for (int n = 0; n < NN; n++)
    u[n] = u0[n];
  double rsq = 1;
  int iters = 0;
  while (rsq > tol && iters < 10000) {
    for (int e = 0; e < NE; e++)
      edge_res(&u[e], &u[e + 1], &r[e], &r[e + 1]);
    rsq = 0;
    for (int n = 0; n < NN; n++) {
      int fixed = n == 0 || n == NN - 1;
      relax(&fixed, &u[n], &r[n], &rsq);
    }
    iters++;
  }
  for (int n = 0; n < NN; n++)
    uend[n] = u[n];
  return iters;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double u0[NN] = {0};
  int fixed[NN] = {0}, emap[2 * NE];
  u0[NN - 1] = 1;
  fixed[0] = fixed[NN - 1] = 1;
  for (int e = 0; e < NE; e++)
    emap[2 * e] = e, emap[2 * e + 1] = e + 1;
  op_set nodes = op_decl_set(NN, "nodes");
  op_set edges = op_decl_set(NE, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, emap, "pedge");
  op_dat p_u = op_decl_dat(nodes, 1, "double", u0, "p_u");
  op_dat p_r = op_decl_dat(nodes, 1, "double", NULL, "p_r");
  op_dat p_fixed = op_decl_dat(nodes, 1, "int", fixed, "p_fixed");

  const double tol = OP2_WHILE_TOL;
  double rsq = 1;
  int iters = 0;
  while (rsq > tol && iters < 10000) {
    op_par_loop(edge_res, "edge_res", edges, op_arg_dat(p_u, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(p_u, 1, pedge, 1, "double", OP_READ),
                op_arg_dat(p_r, 0, pedge, 1, "double", OP_INC),
                op_arg_dat(p_r, 1, pedge, 1, "double", OP_INC));
    rsq = 0;
    op_par_loop(relax, "relax", nodes, op_arg_dat(p_fixed, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_u, -1, OP_ID, 1, "double", OP_RW),
                op_arg_dat(p_r, -1, OP_ID, 1, "double", OP_RW),
                op_arg_gbl(&rsq, 1, "double", OP_INC));
    iters++;
  }
  double u[NN], want[NN];
  op_fetch_data(p_u, u);
  int want_iters = replay(u0, tol, want);
  printf("converged in %d iterations, residual %.3e\n", iters, rsq);
  CHECK(iters > 10 && iters < 10000);
  CHECK_EQ_I(iters, want_iters);
  for (int n = 0; n < NN; n++) {
    CHECK_EQ_D(u[n], want[n]);
    // The linear solution: Jacobi's error ends ~3.6 times the residual's
    // norm here (its slowest mode), so within 10 sqrt(tol) (1e-5 by default).
    CHECK(fabs(u[n] - (double)n / (NN - 1)) < 10 * sqrt(tol));
  }
  op_exit();
  return check_finish("while_loop");
}
