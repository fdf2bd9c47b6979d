// dep_lazy_reads: reads through a map of dats that change at different
// times (issue 18's lazy re-sends: the tinsel runtime sends an indirect
// read again only when its dat may have changed since the readers got it).
// x is never written after op_decl_dat; y is written by a loop in every
// other round; t is written between the two calls of the same call site in
// every round. Every binding is the same from the second round on, so only
// the dats' changes can tell the runtime to send them again. A receiver
// that kept a stale copy of any of them gets a wrong sum.
// Integers, so every value is compared exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 8, NE = 11, ROUNDS = 5 };

#include "op2_check.h"
#include "dep_mesh.h"

// Nodes: y += k (direct RW), in even rounds only.
inline void bump(const int *k, int *y) { *y += *k; }
// Nodes: t = k * x (direct WRITE).
inline void fill(const int *k, const int *x, int *t) { *t = *k * *x; }
// Edges: e = x[p] + 3 y[q] + 5 t[from] - t[to]; s += e (direct). x and y
// come through pcross (each its own read message), t through pedge.
inline void gather(const int *xf, const int *yt, const int *tf, const int *tt, int *e, int *s) {
  *e = *xf + 3 * *yt + 5 * *tf - *tt;
  *s += *e;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int x[NN], y[NN];
  for (int n = 0; n < NN; n++)
    x[n] = 7 * n + 2, y[n] = 100 - n;
  int cross[2 * NE];
  for (int e = 0; e < NE; e++)
    cross[2 * e] = (2 * e + 5) % NN, cross[2 * e + 1] = (3 * e) % NN;
  decl_mesh(3, 1, 5, 4);
  op_map pcross = op_decl_map(edges, nodes, 2, cross, "pcross");
  op_dat p_x = op_decl_dat(nodes, 1, "int", x, "p_x");
  op_dat p_y = op_decl_dat(nodes, 1, "int", y, "p_y");
  op_dat p_e = op_decl_dat(edges, 1, "int", NULL, "p_e");
  op_dat p_s = op_decl_dat(edges, 1, "int", NULL, "p_s");
  op_dat p_t = op_decl_dat(nodes, 1, "int", NULL, "p_t");

  for (int k = 1; k <= ROUNDS; k++) {
    if (k % 2 == 0)
      op_par_loop(bump, "bump", nodes, op_arg_gbl(&k, 1, "int", OP_READ),
                  op_arg_dat(p_y, -1, OP_ID, 1, "int", OP_RW));
    for (int pass = 0; pass < 2; pass++) {
      op_par_loop(gather, "gather", edges, op_arg_dat(p_x, 0, pcross, 1, "int", OP_READ),
                  op_arg_dat(p_y, 1, pcross, 1, "int", OP_READ), op_arg_dat(p_t, 0, pedge, 1, "int", OP_READ),
                  op_arg_dat(p_t, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_e, -1, OP_ID, 1, "int", OP_WRITE),
                  op_arg_dat(p_s, -1, OP_ID, 1, "int", OP_RW));
      if (pass == 0)
        op_par_loop(fill, "fill", nodes, op_arg_gbl(&k, 1, "int", OP_READ),
                    op_arg_dat(p_x, -1, OP_ID, 1, "int", OP_READ), op_arg_dat(p_t, -1, OP_ID, 1, "int", OP_WRITE));
    }
  }

  // The replay: the same arithmetic in program order.
  int t[NN] = {0}, we[NE], ws[NE] = {0};
  for (int k = 1; k <= ROUNDS; k++) {
    if (k % 2 == 0)
      for (int n = 0; n < NN; n++)
        y[n] += k;
    for (int pass = 0; pass < 2; pass++) {
      for (int e = 0; e < NE; e++) {
        int f = edge[2 * e], to = edge[2 * e + 1];
        we[e] = x[cross[2 * e]] + 3 * y[cross[2 * e + 1]] + 5 * t[f] - t[to];
        ws[e] += we[e];
      }
      if (pass == 0)
        for (int n = 0; n < NN; n++)
          t[n] = k * x[n];
    }
  }
  CHECK_DAT_I(p_y, y, NN);
  CHECK_DAT_I(p_e, we, NE);
  CHECK_DAT_I(p_s, ws, NE);
  op_exit();
  return check_finish("dep_lazy_reads");
}
