// self_map: a set mapped to itself, so one device type is the iteration
// set and the target of the same invocation's reads and writes; one dat
// read through two maps (one read pin fanned out to two args); a vector
// read; an INC into the iteration set's own elements from neighbours.
#include "op_seq.h"

#include "../op2/op2_check.h"

inline void smooth(const double *self, const double *left, const double *right, const double **both,
                   double *acc_left, double *acc_right, double *out) {
  *out = 0.5 * *self + 0.25 * (*left + *right) + 0.125 * (both[0][0] - both[1][0]);
  *acc_left += 1.0;   // each cell counts the cells whose left neighbour it is
  *acc_right += 2.0;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  enum { N = 12 };
  double v[N], acc[N], out[N];
  int left[N], right[N], pair[2 * N];
  for (int i = 0; i < N; i++) {
    v[i] = i * i;              // exact in double: every sum below is exact
    acc[i] = 0;
    left[i] = (i + N - 1) % N;
    right[i] = (i + 1) % N;
    pair[2 * i] = (i + 3) % N;
    pair[2 * i + 1] = (i + 5) % N;
  }
  op_set cells = op_decl_set(N, "cells");
  op_map ml = op_decl_map(cells, cells, 1, left, "left");
  op_map mr = op_decl_map(cells, cells, 1, right, "right");
  op_map mp = op_decl_map(cells, cells, 2, pair, "pair");
  op_dat p_v = op_decl_dat(cells, 1, "double", v, "p_v");
  op_dat p_acc = op_decl_dat(cells, 1, "double", acc, "p_acc");
  op_dat p_out = op_decl_dat(cells, 1, "double", NULL, "p_out");
  for (int round = 0; round < 3; round++)
    op_par_loop(smooth, "smooth", cells, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_v, 0, ml, 1, "double", OP_READ), op_arg_dat(p_v, 0, mr, 1, "double", OP_READ),
                op_arg_dat(p_v, -2, mp, 1, "double", OP_READ), op_arg_dat(p_acc, 0, ml, 1, "double", OP_INC),
                op_arg_dat(p_acc, 0, mr, 1, "double", OP_INC), op_arg_dat(p_out, -1, OP_ID, 1, "double", OP_WRITE));
  op_fetch_data(p_out, out);
  op_fetch_data(p_acc, acc);
  for (int i = 0; i < N; i++) {
    CHECK_EQ_D(out[i], 0.5 * v[i] + 0.25 * (v[left[i]] + v[right[i]]) + 0.125 * (v[pair[2 * i]] - v[pair[2 * i + 1]]));
    CHECK_EQ_D(acc[i], 3 * 3.0); // one left and one right neighbour per round
  }
  op_exit();
  return check_finish("self_map");
}
