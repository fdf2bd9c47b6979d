// fuse_chain: consecutive loops over one set, some of which op2c
// --transform may fuse (tests/compiler/transform/: the scripts, the errors
// for the ones it may not). As written it is an ordinary OP2 program;
// fused, every result must be the same. Integers, compared exactly with a
// plain C++ replay.
#include "op_seq.h"

enum { NN = 7, NE = 10, ROUNDS = 3 };

#include "op2_check.h"
#include "dep_mesh.h"

inline void start(const int *id, int *a) { *a = 2 * *id + 1; }
inline void scale(const int *k, int *a) { *a = *a * *k + 3; }
inline void gather(const int *xf, const int *xt, int *a) { *a += *xf - 2 * *xt; }
inline void spread(const int *a, int *yf, int *yt) {
  *yf += *a;
  *yt += 3 * *a;
}
inline void pull(const int *yf, const int *yt, int *b) { *b = *yf - *yt; }
inline void total(const int *b, int *s) { *s += *b; }
inline void shift(const int *s, int *b) { *b += *s; }

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int id[NE], x[NN];
  for (int e = 0; e < NE; e++)
    id[e] = e;
  for (int n = 0; n < NN; n++)
    x[n] = 5 * n - 4;
  decl_mesh(2, 1, 3, 5);
  op_dat p_id = op_decl_dat(edges, 1, "int", id, "p_id");
  op_dat p_x = op_decl_dat(nodes, 1, "int", x, "p_x");
  op_dat p_y = op_decl_dat(nodes, 1, "int", NULL, "p_y");
  op_dat p_a = op_decl_dat(edges, 1, "int", NULL, "p_a");
  op_dat p_b = op_decl_dat(edges, 1, "int", NULL, "p_b");
  int sums[ROUNDS];

  for (int k = 1; k <= ROUNDS; k++) {
    int s = 0;
    op_par_loop(start, "start", edges, op_arg_dat(p_id, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(scale, "scale", edges, op_arg_gbl(&k, 1, "int", OP_READ),
                op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_RW));
    op_par_loop(gather, "gather", edges, op_arg_dat(p_x, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_x, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_RW));
    op_par_loop(spread, "spread", edges, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(p_y, 0, pedge, 1, "int", OP_INC), op_arg_dat(p_y, 1, pedge, 1, "int", OP_INC));
    op_par_loop(pull, "pull", edges, op_arg_dat(p_y, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_y, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(total, "total", edges, op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&s, 1, "int", OP_INC));
    op_par_loop(shift, "shift", edges, op_arg_gbl(&s, 1, "int", OP_READ),
                op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_RW));
    sums[k - 1] = s;
  }

  // The replay: the same arithmetic in program order.
  int a[NE], y[NN] = {0}, b[NE];
  for (int k = 1; k <= ROUNDS; k++) {
    int s = 0;
    for (int e = 0; e < NE; e++)
      a[e] = (2 * e + 1) * k + 3 + x[edge[2 * e]] - 2 * x[edge[2 * e + 1]];
    for (int e = 0; e < NE; e++)
      y[edge[2 * e]] += a[e], y[edge[2 * e + 1]] += 3 * a[e];
    for (int e = 0; e < NE; e++)
      b[e] = y[edge[2 * e]] - y[edge[2 * e + 1]], s += b[e];
    for (int e = 0; e < NE; e++)
      b[e] += s;
    CHECK_EQ_I(sums[k - 1], s);
  }
  CHECK_DAT_I(p_a, a, NE);
  CHECK_DAT_I(p_y, y, NN);
  CHECK_DAT_I(p_b, b, NE);
  op_exit();
  return check_finish("fuse_chain");
}
