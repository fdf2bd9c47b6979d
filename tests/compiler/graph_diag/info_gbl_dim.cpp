#include "op_seq.h"
#include "mesh.h"
// On POETS the element whose info wins is picked by the one value of its global.
inline void pick2(const double *x, double *best, const int *i, int *at) {
  if (x[0] > best[0]) {
    best[0] = x[0];
    best[1] = x[1];
    *at = *i;
  }
}
void run(int *m, double *x) {
  declare(m, x);
  int at = 0;
  double best[2] = {0, 0};
  op_par_loop(pick2, "pick2", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(best, 2, "double", OP_MAX), op_arg_idx(-1, OP_ID), op_arg_info(&at, 1, "int", 1));
}
