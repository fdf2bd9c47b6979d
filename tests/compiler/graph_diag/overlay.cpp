// A dat that shares another's storage (op_decl_dat_overlay) cannot be held
// in devices' states: refused at the call.
#include "op_seq.h"
#include "mesh.h"
inline void twice(double *v) { *v *= 2.0; }
void run(int *m, double *x) {
  declare(m, x);
  op_set first = op_decl_set(2, "first");
  op_dat p_head = op_decl_dat_overlay(first, p_res);
  op_par_loop(twice, "twice", first, op_arg_dat(p_head, -1, OP_ID, 1, "double", OP_RW));
}
