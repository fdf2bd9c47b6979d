/* Reads through the same map and slot share one message (protocol.c):
 * q and adt of each cell, also as vectors; wide (48 bytes) does not fit
 * with them and gets a message of its own; the RW arg shares too. */
#include "op_seq.h"

static void flux(const float *q0, const float *q1, const float *a0, const float *a1, const double *w0,
                 float *r0) {
  r0[0] += q0[0] + q1[1] + a0[0] + a1[0] + (float)w0[5];
}
static void gather(const float **q, const float **a, float *e) { e[0] = q[0][0] + q[1][0] + a[0][0] + a[1][0]; }
static void relax(const float *a0, float *q0, float *e) { q0[0] += a0[0] + e[0]; }

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int map[4] = {0, 1, 1, 2};
  float q[12] = {0}, adt[3] = {1, 2, 3}, e[2] = {0};
  double wide[18] = {0};
  op_set cells = op_decl_set(3, "cells"), edges = op_decl_set(2, "edges");
  op_map pecell = op_decl_map(edges, cells, 2, map, "pecell");
  op_dat p_q = op_decl_dat(cells, 4, "float", q, "p_q");
  op_dat p_adt = op_decl_dat(cells, 1, "float", adt, "p_adt");
  op_dat p_wide = op_decl_dat(cells, 6, "double", wide, "p_wide");
  op_dat p_e = op_decl_dat(edges, 1, "float", e, "p_e");
  op_par_loop(flux, "flux", edges,
              op_arg_dat(p_q, 0, pecell, 4, "float", OP_READ),
              op_arg_dat(p_q, 1, pecell, 4, "float", OP_READ),
              op_arg_dat(p_adt, 0, pecell, 1, "float", OP_READ),
              op_arg_dat(p_adt, 1, pecell, 1, "float", OP_READ),
              op_arg_dat(p_wide, 0, pecell, 6, "double", OP_READ),
              op_arg_dat(p_q, 0, pecell, 4, "float", OP_INC));
  op_par_loop(gather, "gather", edges,
              op_arg_dat(p_q, -2, pecell, 4, "float", OP_READ),
              op_arg_dat(p_adt, -2, pecell, 1, "float", OP_READ),
              op_arg_dat(p_e, -1, OP_ID, 1, "float", OP_WRITE));
  op_par_loop(relax, "relax", edges,
              op_arg_dat(p_adt, 1, pecell, 1, "float", OP_READ),
              op_arg_dat(p_q, 1, pecell, 4, "float", OP_RW),
              op_arg_dat(p_e, -1, OP_ID, 1, "float", OP_READ));
  op_exit();
  return 0;
}
