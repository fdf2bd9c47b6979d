// dep_indirect_raw: each loop reads, through a map, what the loop before
// it wrote (issue 18's loop chains): a direct write read indirectly, then
// an indirect INC read indirectly through another map, three times over
// in a host loop. Integers, so every value is compared exactly with a
// plain C++ replay.
#include "op_seq.h"

enum { NN = 9, NE = 12, ROUNDS = 3 };

#include "op2_check.h"
#include "dep_mesh.h"

// Nodes: a = 10 * id + k (direct WRITE).
inline void set_a(const int *id, const int *k, int *a) { *a = 10 * *id + *k; }
// Edges: e = 3 a[from] - a[to], read through pedge.
inline void gather(const int *af, const int *at, int *e) { *e = 3 * *af - *at; }
// Edges add e to s at both ends (indirect INC, s never reset).
inline void scatter(const int *e, int *sf, int *st) {
  *sf += *e;
  *st += 2 * *e;
}
// Edges: d = s[p] - s[q], read through pcross.
inline void diff(const int *sp, const int *sq, int *d) { *d = *sp - *sq; }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int id[NN], cross[2 * NE];
  for (int n = 0; n < NN; n++)
    id[n] = n;
  for (int e = 0; e < NE; e++)
    cross[2 * e] = (5 * e + 1) % NN, cross[2 * e + 1] = (e + 2) % NN;
  decl_mesh(1, 0, 4, 3);
  op_map pcross = op_decl_map(edges, nodes, 2, cross, "pcross");
  op_dat p_id = op_decl_dat(nodes, 1, "int", id, "p_id");
  op_dat p_a = op_decl_dat(nodes, 1, "int", NULL, "p_a");
  op_dat p_s = op_decl_dat(nodes, 1, "int", NULL, "p_s");
  op_dat p_e = op_decl_dat(edges, 1, "int", NULL, "p_e");
  op_dat p_d = op_decl_dat(edges, 1, "int", NULL, "p_d");

  for (int k = 1; k <= ROUNDS; k++) {
    op_par_loop(set_a, "set_a", nodes, op_arg_dat(p_id, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&k, 1, "int", OP_READ), op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(gather, "gather", edges, op_arg_dat(p_a, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_a, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_e, -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(scatter, "scatter", edges, op_arg_dat(p_e, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_s, 0, pedge, 1, "int", OP_INC), op_arg_dat(p_s, 1, pedge, 1, "int", OP_INC));
    op_par_loop(diff, "diff", edges, op_arg_dat(p_s, 0, pcross, 1, "int", OP_READ),
                op_arg_dat(p_s, 1, pcross, 1, "int", OP_READ), op_arg_dat(p_d, -1, OP_ID, 1, "int", OP_WRITE));
  }

  // The replay: the same arithmetic in program order.
  int a[NN], s[NN] = {0}, we[NE], wd[NE];
  for (int k = 1; k <= ROUNDS; k++) {
    for (int n = 0; n < NN; n++)
      a[n] = 10 * n + k;
    for (int e = 0; e < NE; e++)
      we[e] = 3 * a[edge[2 * e]] - a[edge[2 * e + 1]];
    for (int e = 0; e < NE; e++) {
      s[edge[2 * e]] += we[e];
      s[edge[2 * e + 1]] += 2 * we[e];
    }
    for (int e = 0; e < NE; e++)
      wd[e] = s[cross[2 * e]] - s[cross[2 * e + 1]];
  }
  CHECK_DAT_I(p_a, a, NN);
  CHECK_DAT_I(p_s, s, NN);
  CHECK_DAT_I(p_e, we, NE);
  CHECK_DAT_I(p_d, wd, NE);
  op_exit();
  return check_finish("dep_indirect_raw");
}
