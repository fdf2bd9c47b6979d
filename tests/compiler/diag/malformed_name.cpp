#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  const char *name = "scale";
  op_par_loop(scale, name, nodes,
              op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_RW),
              op_arg_gbl(&total, 1, "double", OP_READ));
}
