// op_arg_info in the IR (kind info, with ref) and in the protocol: its value
// rides on begin, and on end with the element that found it.
#include "op_seq.h"

inline void argmax(const double *v, double *sum, double *mx, const int *idx, int *at, double *where) {
  *sum += *v;
  if (*v > *mx) {
    *mx = *v;
    *at = *idx;
    where[0] = where[1] = *v;
  }
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double v[4] = {1, 3, 3, 2}, sum = 0, mx = 0, where[2] = {0, 0};
  int at = -1;
  op_set cells = op_decl_set(4, "cells");
  op_dat p_v = op_decl_dat(cells, 1, "double", v, "p_v");
  op_par_loop(argmax, "argmax", cells, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(&sum, 1, "double", OP_INC), op_arg_gbl(&mx, 1, "double", OP_MAX), op_arg_idx(-1, OP_ID),
              op_arg_info(&at, 1, "int", 2), op_arg_info(where, 2, "double", 2));
  op_exit();
  return 0;
}
