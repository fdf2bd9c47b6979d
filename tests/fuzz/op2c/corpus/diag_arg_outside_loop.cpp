#include "op_seq.h"
// A small mesh and kernels shared by the diagnostic tests.
#define NDIM 2
op_set nodes, edges;
op_map pedge;
op_dat p_x, p_res, p_flag;
double gam, total;

inline void flux(const double *x1, const double *x2, double *r1, double *r2) {
  *r1 += gam * (x1[0] - x2[0]);
  *r2 -= gam * (x1[1] - x2[1]);
}

inline void scale(double *r, const double *g) { *r *= *g; }

inline void gather(const double **x, double *r) { *r = x[0][0] + x[1][0]; }

static void declare(int *map, double *x) {
  nodes = op_decl_set(3, "nodes");
  edges = op_decl_set(2, "edges");
  pedge = op_decl_map(edges, nodes, NDIM, map, "pedge");
  p_x = op_decl_dat(nodes, 2, "double", x, "p_x");
  p_res = op_decl_dat(nodes, 1, "double", x, "p_res");
  p_flag = op_decl_dat(edges, 1, "int", map, "p_flag");
  op_decl_const(1, "double", &gam);
}
void run(int *m, double *x) {
  declare(m, x);
  op_arg_gbl(&total, 1, "double", OP_READ);
}
