// op_decl_dat_overlay of something that is not a declared dat.
#include "op_seq.h"
#include "mesh.h"
inline void twice(double *v) { *v *= 2.0; }
op_dat p_none;
void run(int *m, double *x) {
  declare(m, x);
  op_set first = op_decl_set(2, "first");
  op_dat p_a = op_decl_dat_overlay(first, p_none);
  op_dat p_b = op_decl_dat_overlay(first, p_res + 1);
  op_par_loop(twice, "twice", first, op_arg_dat(p_a, -1, OP_ID, 1, "double", OP_RW));
}
