// dep_const_redecl: constants declared again between dependent loops, in
// a host loop (issue 18's loop chains): each round sets scale anew before
// a loop that uses it and whose result the next loop reads through a map
// (also using scale); a two-element constant changes between the two
// loops of one round. Integers: compared exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 7, NE = 10, ROUNDS = 4 };

#include "op2_check.h"
#include "dep_mesh.h"

int scale;    // op_decl_const, every round
int bias[2];  // op_decl_const2, then op_decl_const

// Nodes: y = scale x + bias[0] (direct WRITE).
inline void apply(const int *x, int *y) { *y = scale * *x + bias[0]; }
// Edges add scale (y[from] - y[to]) + bias[1] to z at both ends.
inline void spread(const int *yf, const int *yt, int *zf, int *zt) {
  int d = scale * (*yf - *yt) + bias[1];
  *zf += d;
  *zt -= d;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int x[NN];
  for (int n = 0; n < NN; n++)
    x[n] = n * n - 3;
  decl_mesh(1, 1, 4, 0);
  op_dat p_x = op_decl_dat(nodes, 1, "int", x, "p_x");
  op_dat p_y = op_decl_dat(nodes, 1, "int", NULL, "p_y");
  op_dat p_z = op_decl_dat(nodes, 1, "int", NULL, "p_z");

  bias[0] = 1;
  bias[1] = 0;
  op_decl_const2("bias", 2, "int", bias);
  int y[NN], z[NN] = {0};
  for (int k = 0; k < ROUNDS; k++) {
    scale = 2 * k - 3;
    op_decl_const(1, "int", &scale);
    op_par_loop(apply, "apply", nodes, op_arg_dat(p_x, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_y, -1, OP_ID, 1, "int", OP_WRITE));
    for (int n = 0; n < NN; n++)
      y[n] = (2 * k - 3) * x[n] + bias[0];
    bias[1] = 5 * k - 2; // between the two loops of the round
    op_decl_const(2, "int", bias);
    op_par_loop(spread, "spread", edges, op_arg_dat(p_y, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_y, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_z, 0, pedge, 1, "int", OP_INC),
                op_arg_dat(p_z, 1, pedge, 1, "int", OP_INC));
    for (int e = 0; e < NE; e++) {
      int d = (2 * k - 3) * (y[edge[2 * e]] - y[edge[2 * e + 1]]) + 5 * k - 2;
      z[edge[2 * e]] += d;
      z[edge[2 * e + 1]] -= d;
    }
    bias[0] = k + 4;
    op_decl_const2("bias", 2, "int", bias);
  }
  CHECK_DAT_I(p_y, y, NN);
  CHECK_DAT_I(p_z, z, NN);
  op_exit();
  return check_finish("dep_const_redecl");
}
