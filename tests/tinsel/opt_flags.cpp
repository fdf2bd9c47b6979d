// opt_flags: op_opt_arg_dat and op_opt_arg_gbl through maps, switched on
// and off at run time. Off, a kernel sees NULL, and on Tinsel an indirect
// write that is off must not reach its target (its edges leave the
// receivers' write totals). Kernels see no globals but their args, so the
// program runs on POETS as on the host.
#include "op_seq.h"

#include "../op2/op2_check.h"

inline void opt_kernel(const double *a, const double *b, double *inc, double *w, double *sum) {
  double v = *a + (b ? *b : 100.0);
  if (inc)
    *inc += v;
  if (w)
    *w = -v;
  if (sum)
    *sum += v;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  enum { NC = 8, NN = 5 };
  double av[NC], bv[NN], iv[NN], wv[NN];
  int nodemap[NC];
  for (int i = 0; i < NC; i++) {
    av[i] = i;
    nodemap[i] = (3 * i + 1) % NN; // several cells per node: INC collects them
  }
  for (int i = 0; i < NN; i++)
    bv[i] = 10 * i, iv[i] = 0.5, wv[i] = 7;
  op_set cells = op_decl_set(NC, "cells");
  op_set nodes = op_decl_set(NN, "nodes");
  op_map c2n = op_decl_map(cells, nodes, 1, nodemap, "c2n");
  op_dat a = op_decl_dat(cells, 1, "double", av, "a");
  op_dat b = op_decl_dat(nodes, 1, "double", bv, "b");
  op_dat inc = op_decl_dat(nodes, 1, "double", iv, "inc");
  op_dat w = op_decl_dat(nodes, 1, "double", wv, "w");

  double expect_inc[NN], expect_w[NN];
  for (int i = 0; i < NN; i++)
    expect_inc[i] = iv[i], expect_w[i] = wv[i];
  for (int round = 0; round < 8; round++) {
    int use_b = round & 1, use_inc = round >> 1 & 1, use_w = round >> 2 & 1;
    double sum = 1.0, expect_sum = 1.0;
    op_par_loop(opt_kernel, "opt_kernel", cells,
                op_arg_dat(a, -1, OP_ID, 1, "double", OP_READ),
                op_opt_arg_dat(use_b, b, 0, c2n, 1, "double", OP_READ),
                op_opt_arg_dat(use_inc, inc, 0, c2n, 1, "double", OP_INC),
                op_opt_arg_dat(use_w, w, 0, c2n, 1, "double", OP_WRITE),
                op_opt_arg_gbl(use_inc, &sum, 1, "double", OP_INC));
    for (int c = 0; c < NC; c++) {
      double v = av[c] + (use_b ? bv[nodemap[c]] : 100.0);
      if (use_inc)
        expect_inc[nodemap[c]] += v, expect_sum += v;
      if (use_w)
        expect_w[nodemap[c]] = -v; // one of the writers: any is OP2's answer
    }
    double got_inc[NN], got_w[NN];
    op_fetch_data(inc, got_inc);
    op_fetch_data(w, got_w);
    for (int i = 0; i < NN; i++) {
      CHECK_EQ_D(got_inc[i], expect_inc[i]); // small integers and halves: exact in any order
      // Several cells write one node: any of their values is OP2's answer.
      bool ok = !use_w && got_w[i] == expect_w[i];
      for (int c = 0; c < NC && use_w && !ok; c++)
        ok = nodemap[c] == i && got_w[i] == -(av[c] + (use_b ? bv[i] : 100.0));
      CHECK(ok);
      expect_w[i] = got_w[i];
    }
    CHECK_EQ_D(sum, expect_sum);
  }
  op_exit();
  return check_finish("opt_flags");
}
