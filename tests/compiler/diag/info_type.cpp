#include "op_seq.h"
#include "mesh.h"
// op_arg_info's type and dim: checked as op_arg_gbl's, and against the kernel.
inline void pick(const double *x, double *best, const int *i, int *at) {
  if (x[0] > *best) {
    *best = x[0];
    *at = *i;
  }
}
void run(int *m, double *x) {
  declare(m, x);
  int at = 0;
  double where = 0;
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&where, 1, "double", 1));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "integer", 1));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 0, "int", 1));
}
