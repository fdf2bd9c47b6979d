#include "op_seq.h"
#include "mesh.h"
// Every loop below has one error; op2c reports all of them in one run.
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(scale, "a", nodes, op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_MIN),
              op_arg_gbl(&total, 1, "double", OP_READ));
  op_par_loop(scale, "b", nodes, op_arg_dat(p_res, -1, OP_ID, 2, "double", OP_RW),
              op_arg_gbl(&total, 1, "double", OP_READ));
  op_par_loop(scale, "c", nodes, op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_RW));
}
