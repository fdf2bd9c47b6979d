// dep_host_gbl_write: the host writes globals between loops (issue 18's
// loop chains): a READ global (and a two-element one) the next loop uses,
// the starting value of an INC global and of a MIN global, each set anew
// between the loops of every round. Integers: compared exactly with a
// plain C++ replay.
#include "op_seq.h"

enum { NN = 8, NE = 12, ROUNDS = 4 };

#include "op2_check.h"
#include "dep_mesh.h"

// Nodes: v = v * mul[0] + mul[1] + offset (direct RW).
inline void shift(const int *offset, const int *mul, int *v) { *v = (*v * mul[0] + mul[1] + *offset) % 1000; }
// Nodes: acc starts from the host's value.
inline void total(const int *v, int *acc) { *acc += *v; }
// Edges: the lowest v[from] - v[to], from the host's starting value.
inline void lowest(const int *vf, const int *vt, int *lo) {
  int d = *vf - *vt;
  *lo = d < *lo ? d : *lo;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int v0[NN];
  for (int n = 0; n < NN; n++)
    v0[n] = 3 * n + 1;
  decl_mesh(1, 0, 3, 5);
  op_dat p_v = op_decl_dat(nodes, 1, "int", v0, "p_v");

  int v[NN];
  for (int n = 0; n < NN; n++)
    v[n] = v0[n];
  int offset = 0, mul[2] = {1, 0}, acc = 0, lo = 0;
  for (int k = 0; k < ROUNDS; k++) {
    offset = 3 * k - 4; // the host writes a READ global
    mul[0] = k + 2;
    mul[1] = -k;
    op_par_loop(shift, "shift", nodes, op_arg_gbl(&offset, 1, "int", OP_READ), op_arg_gbl(mul, 2, "int", OP_READ),
                op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_RW));
    acc = 1000 * (k + 1); // the starting value of an INC global
    op_par_loop(total, "total", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&acc, 1, "int", OP_INC));
    lo = 50 - 40 * k; // and of a MIN global: some rounds below every difference
    op_par_loop(lowest, "lowest", edges, op_arg_dat(p_v, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ), op_arg_gbl(&lo, 1, "int", OP_MIN));

    int want_acc = 1000 * (k + 1), want_lo = 50 - 40 * k;
    for (int n = 0; n < NN; n++) {
      v[n] = (v[n] * (k + 2) - k + 3 * k - 4) % 1000;
      want_acc += v[n];
    }
    for (int e = 0; e < NE; e++) {
      int d = v[edge[2 * e]] - v[edge[2 * e + 1]];
      want_lo = d < want_lo ? d : want_lo;
    }
    CHECK_EQ_I(acc, want_acc);
    CHECK_EQ_I(lo, want_lo);
  }
  CHECK_DAT_I(p_v, v, NN);
  op_exit();
  return check_finish("dep_host_gbl_write");
}
