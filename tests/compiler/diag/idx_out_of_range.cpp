#include "op_seq.h"
#include "mesh.h"
// A map index past the range of any map.
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(scale, "scale", edges, op_arg_dat(p_flag, 4294967296, pedge, 1, "int", OP_RW),
              op_arg_gbl(&total, 1, "double", OP_READ));
}
