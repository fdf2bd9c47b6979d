#include "op_seq.h"
#include "mesh.h"
// A 16-double element (aero's p_K) cannot travel in one 64-byte message.
inline void stiff(const double *k, double *r) { *r = k[0]; }
void run(int *m, double *x) {
  declare(m, x);
  op_dat p_K = op_decl_dat(nodes, 16, "double", x, "p_K");
  op_par_loop(stiff, "stiff", edges,
              op_arg_dat(p_K, 0, pedge, 16, "double", OP_READ),
              op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
}
