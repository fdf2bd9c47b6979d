// dep_inc_war: write-after-read on an INC target (issue 18's loop
// chains): a loop reads r through a map, the next one adds to r through
// the same map; the read must see r from before every addition. Then a
// direct loop rewrites r, and the host loop starts again (the read after
// the write). Integers: every value is compared exactly with a plain C++
// replay.
#include "op_seq.h"

enum { NN = 10, NE = 14, ROUNDS = 4 };

#include "op2_check.h"
#include "dep_mesh.h"

// Edges: c = 5 r[from] + r[to], and the sum of every c so far.
inline void copy(const int *rf, const int *rt, int *c, int *csum) {
  *c = 5 * *rf + *rt;
  *csum += *c;
}
// Edges add to r at both ends (indirect INC of what copy read).
inline void bump(const int *w, int *rf, int *rt) {
  *rf += *w;
  *rt += 3 * *w;
}
// Nodes: r shrinks (direct RW).
inline void shrink(int *r) { *r = *r % 97 - *r / 5; }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int r0[NN], w[NE];
  for (int n = 0; n < NN; n++)
    r0[n] = 7 * n - 20;
  for (int e = 0; e < NE; e++)
    w[e] = e % 4 + 1;
  decl_mesh(3, 0, 7, 2);
  op_dat p_r = op_decl_dat(nodes, 1, "int", r0, "p_r");
  op_dat p_w = op_decl_dat(edges, 1, "int", w, "p_w");
  op_dat p_c = op_decl_dat(edges, 1, "int", NULL, "p_c");
  op_dat p_csum = op_decl_dat(edges, 1, "int", NULL, "p_csum");

  for (int k = 0; k < ROUNDS; k++) {
    op_par_loop(copy, "copy", edges, op_arg_dat(p_r, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_r, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_c, -1, OP_ID, 1, "int", OP_WRITE),
                op_arg_dat(p_csum, -1, OP_ID, 1, "int", OP_INC));
    op_par_loop(bump, "bump", edges, op_arg_dat(p_w, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_r, 0, pedge, 1, "int", OP_INC), op_arg_dat(p_r, 1, pedge, 1, "int", OP_INC));
    op_par_loop(shrink, "shrink", nodes, op_arg_dat(p_r, -1, OP_ID, 1, "int", OP_RW));
  }

  int r[NN], c[NE], csum[NE] = {0};
  for (int n = 0; n < NN; n++)
    r[n] = r0[n];
  for (int k = 0; k < ROUNDS; k++) {
    for (int e = 0; e < NE; e++) {
      c[e] = 5 * r[edge[2 * e]] + r[edge[2 * e + 1]];
      csum[e] += c[e];
    }
    for (int e = 0; e < NE; e++) {
      r[edge[2 * e]] += w[e];
      r[edge[2 * e + 1]] += 3 * w[e];
    }
    for (int n = 0; n < NN; n++)
      r[n] = r[n] % 97 - r[n] / 5;
  }
  CHECK_DAT_I(p_r, r, NN);
  CHECK_DAT_I(p_c, c, NE);
  CHECK_DAT_I(p_csum, csum, NE);
  op_exit();
  return check_finish("dep_inc_war");
}
