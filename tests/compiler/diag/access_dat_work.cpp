// OP_WORK is scratch for a global, not an access mode for a dat.
#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(scale, "scale", nodes, op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_WORK),
              op_arg_gbl(&total, 1, "double", OP_READ));
}
