#include "op_seq.h"
#include "mesh.h"
// op_arg_info's ref must be a constant naming the loop's OP_MIN/OP_MAX global.
inline void pick(const double *x, double *best, const int *i, int *at) {
  if (x[0] > *best) {
    *best = x[0];
    *at = *i;
  }
}
void run(int *m, double *x, int ref) {
  declare(m, x);
  int at = 0;
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", 4));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_INC), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", 1));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", 2));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", ref));
  op_par_loop(pick, "pick", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&gam, 1, "double", OP_READ), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", 1));
}
