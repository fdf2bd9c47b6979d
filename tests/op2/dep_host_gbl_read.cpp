// dep_host_gbl_read: the host reads a global between loops (issue 18's
// loop chains). A loop sums and maxes v into globals; the host takes
// their values; the next loop goes on adding to and maxing into the same
// globals; the host's snapshot must be the first loop's result alone, and
// the value it derives from it steers the loop after. Integers: compared
// exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 11, NE = 15, ROUNDS = 3 };

#include "op2_check.h"
#include "dep_mesh.h"

inline void measure(const int *v, int *sum, int *mx) {
  *sum += *v;
  *mx = *v > *mx ? *v : *mx;
}
// Edges: w = scale (v[from] - v[to]), also summed and maxed on.
inline void weigh(const int *vf, const int *vt, const int *scale, int *w, int *sum, int *mx) {
  *w = *scale * (*vf - *vt);
  *sum += *w;
  *mx = *w > *mx ? *w : *mx;
}
// Nodes: v changes for the next round.
inline void stir(const int *k, int *v) { *v = (*v * 7 + *k) % 101; }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int v0[NN];
  for (int n = 0; n < NN; n++)
    v0[n] = (n * 37) % 23 - 5;
  decl_mesh(2, 1, 5, 0);
  op_dat p_v = op_decl_dat(nodes, 1, "int", v0, "p_v");
  op_dat p_w = op_decl_dat(edges, 1, "int", NULL, "p_w");

  int v[NN], w[NE];
  for (int n = 0; n < NN; n++)
    v[n] = v0[n];
  for (int k = 0; k < ROUNDS; k++) {
    int sum = 0, mx = -1000;
    op_par_loop(measure, "measure", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&sum, 1, "int", OP_INC), op_arg_gbl(&mx, 1, "int", OP_MAX));
    int sum1 = sum, mx1 = mx;                          // the host reads both
    int scale = (sum1 % 5 + 5) % 5 + 1 + (mx1 > 15); // and steers the next loop with them
    op_par_loop(weigh, "weigh", edges, op_arg_dat(p_v, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ), op_arg_gbl(&scale, 1, "int", OP_READ),
                op_arg_dat(p_w, -1, OP_ID, 1, "int", OP_WRITE), op_arg_gbl(&sum, 1, "int", OP_INC),
                op_arg_gbl(&mx, 1, "int", OP_MAX));
    op_par_loop(stir, "stir", nodes, op_arg_gbl(&k, 1, "int", OP_READ), op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_RW));

    // The replay of this round.
    int want_sum = 0, want_mx = -1000;
    for (int n = 0; n < NN; n++) {
      want_sum += v[n];
      want_mx = v[n] > want_mx ? v[n] : want_mx;
    }
    CHECK_EQ_I(sum1, want_sum);
    CHECK_EQ_I(mx1, want_mx);
    int want_scale = (want_sum % 5 + 5) % 5 + 1 + (want_mx > 15);
    for (int e = 0; e < NE; e++) {
      w[e] = want_scale * (v[edge[2 * e]] - v[edge[2 * e + 1]]);
      want_sum += w[e];
      want_mx = w[e] > want_mx ? w[e] : want_mx;
    }
    CHECK_EQ_I(sum, want_sum);
    CHECK_EQ_I(mx, want_mx);
    for (int n = 0; n < NN; n++)
      v[n] = (v[n] * 7 + k) % 101;
  }
  CHECK_DAT_I(p_v, v, NN);
  CHECK_DAT_I(p_w, w, NE);
  op_exit();
  return check_finish("dep_host_gbl_read");
}
