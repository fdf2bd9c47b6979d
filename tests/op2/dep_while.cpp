// dep_while: a data-dependent host while loop (issue 18's loop chains):
// each round halves every value and counts those still non-zero, and a
// loop reads the halved values through a map; the host goes on while the
// count it read is non-zero. The number of rounds and every value are
// compared exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 9, NE = 11 };

#include "op2_check.h"
#include "dep_mesh.h"

// Nodes: v halves; live counts the values still non-zero.
inline void halve(int *v, int *live) {
  *v /= 2;
  *live += *v != 0;
}
// Edges add (v[from] + 2 v[to]) % 5 to h at both ends.
inline void mark(const int *vf, const int *vt, int *hf, int *ht) {
  int m = (*vf + 2 * *vt) % 5;
  *hf += m;
  *ht += m + 1;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int v0[NN];
  for (int n = 0; n < NN; n++)
    v0[n] = (n * 131 + 17) % 700 - (n == 4 ? 0 : 200); // the largest, 541: 10 halvings
  decl_mesh(2, 0, 5, 3);
  op_dat p_v = op_decl_dat(nodes, 1, "int", v0, "p_v");
  op_dat p_h = op_decl_dat(nodes, 1, "int", NULL, "p_h");

  int live = 1, rounds = 0;
  while (live > 0) {
    live = 0;
    op_par_loop(halve, "halve", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_RW),
                op_arg_gbl(&live, 1, "int", OP_INC));
    op_par_loop(mark, "mark", edges, op_arg_dat(p_v, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_h, 0, pedge, 1, "int", OP_INC),
                op_arg_dat(p_h, 1, pedge, 1, "int", OP_INC));
    rounds++;
  }

  int v[NN], h[NN] = {0}, want_rounds = 0;
  for (int n = 0; n < NN; n++)
    v[n] = v0[n];
  for (int left = 1; left > 0; want_rounds++) {
    left = 0;
    for (int n = 0; n < NN; n++) {
      v[n] /= 2;
      left += v[n] != 0;
    }
    for (int e = 0; e < NE; e++) {
      int m = (v[edge[2 * e]] + 2 * v[edge[2 * e + 1]]) % 5;
      h[edge[2 * e]] += m;
      h[edge[2 * e + 1]] += m + 1;
    }
  }
  printf("dep_while: %d rounds\n", rounds);
  CHECK_EQ_I(rounds, want_rounds);
  CHECK(rounds == 10);
  CHECK_DAT_I(p_v, v, NN);
  CHECK_DAT_I(p_h, h, NN);
  op_exit();
  return check_finish("dep_while");
}
