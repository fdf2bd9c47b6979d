// branch.cpp: two loops fused by --transform (branch.tf) whose first call
// sits in a branch of its own: the tokens are adjacent, but the first call
// does not always run before the second. The fused program stops with an
// error at the first call of the second part that runs alone.
#include "op_seq.h"

inline void twice(int *a) { *a *= 2; }
inline void once(int *a) { *a += 1; }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int v[4] = {1, 2, 3, 4};
  op_set cells = op_decl_set(4, "cells");
  op_dat p_a = op_decl_dat(cells, 1, "int", v, "p_a");
  for (int k = 0; k < 3; k++) {
    if (k != 1)
      op_par_loop(twice, "twice", cells, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_RW));
    op_par_loop(once, "once", cells, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_RW));
  }
  op_fetch_data(p_a, v);
  printf("%d %d %d %d\n", v[0], v[1], v[2], v[3]);
  op_exit();
  return 0;
}
