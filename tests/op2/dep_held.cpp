// dep_held: the program's first calls (issue 19). On an engine that loads
// the instance (the models, real boards) the calls made before anything is
// loaded are held and the instance is loaded once, when the host first
// waits; until then nothing a held call sees may change. Each case below
// begins with calls that are held when it comes first, then changes what
// a held call sees: a constant redeclared; a dat variable declared again
// (a later loop moves the new dat into the state field a held call
// reads); a set declared again (another loop replaces the devices of its
// type); the same loop again through another map. The last makes ten
// calls (six need not wait for one another: more than the window), with
// a READ global the host changes between them, dats declared between
// them and an indirect INC of a dat held calls use (it must follow them).
// DEP_HELD_FIRST=N runs case N first (tests/op2/run.sh runs each first on
// the tile model); all run every time. Integers, compared exactly with a
// plain C++ replay.
#include <stdlib.h>

#include "op_seq.h"

enum { NN = 9, NE = 13, NCASES = 5 };

#include "op2_check.h"
#include "dep_mesh.h"

int scale; // op_decl_const

inline void times_scale(const int *x, int *y) { *y = scale * *x + 1; }
inline void copy(const int *x, int *y) { *y = *x; }
inline void add_gbl(const int *x, const int *g, int *y) { *y = *x + *g; }
inline void add_into(const int *x, int *y) { *y += *x; }
inline void add2(const int *x, const int *z, int *y) { *y = *x + *z; }
inline void spread(const int *a, int *wf, int *wt) {
  *wf += *a;
  *wt += 2 * *a;
}

static int x0[NN];

// v[i] = a i + b
static void ramp(int *v, int n, int a, int b) {
  for (int i = 0; i < n; i++)
    v[i] = a * i + b;
}

// 0: a constant redeclared after a held call that uses it.
static void case_const(void) {
  op_dat c_x = op_decl_dat(nodes, 1, "int", x0, "c_x");
  op_dat c_y = op_decl_dat(nodes, 1, "int", NULL, "c_y");
  op_dat c_z = op_decl_dat(nodes, 1, "int", NULL, "c_z");
  scale = 3;
  op_decl_const(1, "int", &scale);
  op_par_loop(times_scale, "scale_y", nodes, op_arg_dat(c_x, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(c_y, -1, OP_ID, 1, "int", OP_WRITE));
  scale = -5;
  op_decl_const(1, "int", &scale);
  op_par_loop(times_scale, "scale_z", nodes, op_arg_dat(c_x, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(c_z, -1, OP_ID, 1, "int", OP_WRITE));
  int y[NN], z[NN];
  for (int n = 0; n < NN; n++)
    y[n] = 3 * x0[n] + 1, z[n] = -5 * x0[n] + 1;
  CHECK_DAT_I(c_y, y, NN);
  CHECK_DAT_I(c_z, z, NN);
}

// 1: a dat variable (one state field) declared again: a later loop moves
// the new dat into the state a held call reads.
static void case_slot(void) {
  int b[NN];
  ramp(b, NN, 7, -20);
  op_dat s_u = op_decl_dat(nodes, 1, "int", x0, "s_u1");
  op_dat s_o1 = op_decl_dat(nodes, 1, "int", NULL, "s_o1");
  op_dat s_o2 = op_decl_dat(nodes, 1, "int", NULL, "s_o2");
  op_par_loop(copy, "copy_u1", nodes, op_arg_dat(s_u, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(s_o1, -1, OP_ID, 1, "int", OP_WRITE));
  s_u = op_decl_dat(nodes, 1, "int", b, "s_u2");
  op_par_loop(copy, "copy_u2", nodes, op_arg_dat(s_u, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(s_o2, -1, OP_ID, 1, "int", OP_WRITE));
  CHECK_DAT_I(s_o1, x0, NN);
  CHECK_DAT_I(s_o2, b, NN);
}

// 2: a set declared again (one declaration, run twice): another loop on
// it replaces the devices a held call runs on (that call writes through
// a map to the nodes, so no dat of the set has to come back first).
static void case_set(void) {
  op_dat t_sum = op_decl_dat(nodes, 1, "int", NULL, "t_sum");
  int want[NN] = {0};
  for (int r = 0; r < 2; r++) {
    int v[NN + 4], m[NN + 4];
    for (int i = 0; i < NN + 4 * r; i++)
      v[i] = 10 * r - 3 * i, m[i] = (5 * i + r) % NN, want[m[i]] += v[i];
    op_set t_s = op_decl_set(NN + 4 * r, "t_s");
    op_map t_m = op_decl_map(t_s, nodes, 1, m, "t_m");
    op_dat t_d = op_decl_dat(t_s, 1, "int", v, "t_d");
    if (r == 0)
      op_par_loop(add_into, "scatter_0", t_s, op_arg_dat(t_d, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(t_sum, 0, t_m, 1, "int", OP_INC));
    else
      op_par_loop(add_into, "scatter_1", t_s, op_arg_dat(t_d, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(t_sum, 0, t_m, 1, "int", OP_INC));
  }
  CHECK_DAT_I(t_sum, want, NN);
}

// 3: the same loop again through another map (one declaration, run
// twice): the later call binds the loop anew, on the same dats.
static void case_again(void) {
  op_dat r_acc = op_decl_dat(nodes, 1, "int", NULL, "r_acc");
  int want[NN] = {0}, ve[NE];
  ramp(ve, NE, 4, -7);
  op_dat r_e = op_decl_dat(edges, 1, "int", ve, "r_e");
  for (int r = 0; r < 2; r++) {
    int m[NE];
    for (int e = 0; e < NE; e++)
      m[e] = ((r + 2) * e + r) % NN, want[m[e]] += ve[e];
    op_map r_m = op_decl_map(edges, nodes, 1, m, "r_m");
    op_par_loop(add_into, "gather", edges, op_arg_dat(r_e, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(r_acc, 0, r_m, 1, "int", OP_INC));
  }
  CHECK_DAT_I(r_acc, want, NN);
}

// 4: ten calls before the first wait: six that need not wait for one
// another (more than the window: the threads hold at most 4 begins), a
// READ global the host changes between them, dats declared between them,
// and an indirect INC of a dat that held calls use (it must follow them).
static void case_chain(void) {
  op_dat h_x = op_decl_dat(nodes, 1, "int", x0, "h_x");
  op_dat h_a = op_decl_dat(nodes, 1, "int", NULL, "h_a");
  op_dat h_b = op_decl_dat(nodes, 1, "int", NULL, "h_b");
  op_dat h_w = op_decl_dat(nodes, 1, "int", NULL, "h_w");
  int g = 5;
  op_par_loop(add_gbl, "chain_a", nodes, op_arg_dat(h_x, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&g, 1, "int", OP_READ), op_arg_dat(h_a, -1, OP_ID, 1, "int", OP_WRITE));
  g = 11;
  op_par_loop(add_gbl, "chain_b", nodes, op_arg_dat(h_a, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&g, 1, "int", OP_READ), op_arg_dat(h_b, -1, OP_ID, 1, "int", OP_WRITE));
  op_dat h_e1 = op_decl_dat(nodes, 1, "int", NULL, "h_e1");
  op_dat h_e2 = op_decl_dat(nodes, 1, "int", NULL, "h_e2");
  op_dat h_e3 = op_decl_dat(nodes, 1, "int", NULL, "h_e3");
  op_dat h_e4 = op_decl_dat(nodes, 1, "int", NULL, "h_e4");
  op_par_loop(copy, "chain_e1", nodes, op_arg_dat(h_b, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_e1, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(copy, "chain_e2", nodes, op_arg_dat(h_e1, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_e2, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(copy, "chain_e3", nodes, op_arg_dat(h_e2, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_e3, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(copy, "chain_e4", nodes, op_arg_dat(h_e3, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_e4, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(spread, "chain_w1", edges, op_arg_dat(h_e4, 0, pedge, 1, "int", OP_READ),
              op_arg_dat(h_w, 0, pedge, 1, "int", OP_INC), op_arg_dat(h_w, 1, pedge, 1, "int", OP_INC));
  op_dat h_c = op_decl_dat(nodes, 1, "int", NULL, "h_c");
  op_par_loop(add2, "chain_c", nodes, op_arg_dat(h_w, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_b, -1, OP_ID, 1, "int", OP_READ), op_arg_dat(h_c, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(spread, "chain_w2", edges, op_arg_dat(h_c, 0, pedge, 1, "int", OP_READ),
              op_arg_dat(h_w, 0, pedge, 1, "int", OP_INC), op_arg_dat(h_w, 1, pedge, 1, "int", OP_INC));
  op_dat h_d = op_decl_dat(nodes, 1, "int", NULL, "h_d");
  op_par_loop(copy, "chain_d", nodes, op_arg_dat(h_w, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(h_d, -1, OP_ID, 1, "int", OP_WRITE));
  int a[NN], b[NN], w[NN] = {0}, c[NN];
  for (int n = 0; n < NN; n++)
    a[n] = x0[n] + 5, b[n] = a[n] + 11;
  for (int e = 0; e < NE; e++)
    w[edge[2 * e]] += b[edge[2 * e]], w[edge[2 * e + 1]] += 2 * b[edge[2 * e]];
  for (int n = 0; n < NN; n++)
    c[n] = w[n] + b[n];
  for (int e = 0; e < NE; e++)
    w[edge[2 * e]] += c[edge[2 * e]], w[edge[2 * e + 1]] += 2 * c[edge[2 * e]];
  CHECK_DAT_I(h_d, w, NN);
  CHECK_DAT_I(h_c, c, NN);
  CHECK_DAT_I(h_e4, b, NN);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  for (int n = 0; n < NN; n++)
    x0[n] = n * n - 4 * n + 2;
  decl_mesh(2, 1, 5, 3);
  void (*cases[NCASES])(void) = {case_const, case_slot, case_set, case_again, case_chain};
  const char *first = getenv("DEP_HELD_FIRST");
  int f = first && *first ? atoi(first) : 0;
  if (f < 0 || f >= NCASES) {
    printf("DEP_HELD_FIRST=%s: expected 0..%d\n", first, NCASES - 1);
    return 2;
  }
  cases[f]();
  for (int i = 0; i < NCASES; i++)
    if (i != f)
      cases[i]();
  op_exit();
  return check_finish("dep_held");
}
