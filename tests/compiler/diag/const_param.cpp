#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(flux, "flux", edges,
              op_arg_dat(p_x, 0, pedge, 2, "double", OP_INC),
              op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC),
              op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
}
