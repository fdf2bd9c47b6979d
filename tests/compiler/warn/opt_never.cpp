// An op_opt_arg_dat whose flag is the constant 0 is never used, and OP2
// does not check it: a dim or type that does not match its dat is a
// warning, not an error (OP2 v1.1.0's aero_hdf5 passes dim 2 for dim 4).
#include "op_seq.h"
#include "mesh.h"
inline void touch(double *r, double *unused) { *r += unused ? *unused : 1.0; }
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(touch, "touch", nodes, op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_RW),
              op_opt_arg_dat(0, p_x, -1, OP_ID, 3, "float", OP_RW));
}
