// map_long: op_init_soa and op_decl_map_long. A map declared from 64-bit
// global indices (idx_g_t) must drive an indirect loop exactly as the same
// map declared with int: each edge adds its weight to both its nodes.
#include "op_seq.h"

#include "op2_check.h"

inline void spread(const double *w, double *a, double *b) {
  *a += *w;
  *b += 2.0 * *w;
}

enum { NE = 11, NN = 6 };

int main(int argc, char **argv) {
  op_init_soa(argc, argv, 2, 1);
  idx_g_t emap[2 * NE];
  double w[NE];
  for (int e = 0; e < NE; e++) {
    emap[2 * e] = (5 * e + 1) % NN;
    emap[2 * e + 1] = (5 * e + 3) % NN;
    w[e] = 0.25 * (e + 1);
  }
  op_set nodes = op_decl_set(NN, "nodes");
  op_set edges = op_decl_set(NE, "edges");
  op_map pedge = op_decl_map_long(edges, nodes, 2, emap, "pedge");
  op_dat p_w = op_decl_dat(edges, 1, "double", w, "p_w");
  op_dat p_acc = op_decl_dat(nodes, 1, "double", NULL, "p_acc");

  op_par_loop(spread, "spread", edges, op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_acc, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_acc, 1, pedge, 1, "double", OP_INC));

  double acc[NN], want[NN] = {0};
  for (int e = 0; e < NE; e++) {
    want[emap[2 * e]] += w[e];
    want[emap[2 * e + 1]] += 2.0 * w[e];
  }
  op_fetch_data(p_acc, acc);
  for (int n = 0; n < NN; n++)
    CHECK_EQ_D(acc[n], want[n]); // quarters: exact in any order
  op_exit();
  return check_finish("map_long");
}
