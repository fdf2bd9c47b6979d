#include "op_seq.h"
#include "mesh.h"
// The end message carries the globals, the info and the element that found it.
inline void pick6(const double *x, double *sum, double *best, const int *i, double *where) {
  *sum += x[0];
  if (x[0] > *best) {
    *best = x[0];
    for (int k = 0; k < 5; k++)
      where[k] = x[1] + k + *i;
  }
}
void run(int *m, double *x) {
  declare(m, x);
  double best = 0, where[5];
  op_par_loop(pick6, "pick6", nodes, op_arg_dat(p_x, -1, OP_ID, 2, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_INC), op_arg_gbl(&best, 1, "double", OP_MAX),
              op_arg_idx(-1, OP_ID), op_arg_info(where, 5, "double", 2));
}
