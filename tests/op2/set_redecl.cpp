// set_redecl: one op_set variable assigned by two op_decl_set calls, as
// OP2 allows: loops before the second call run over the first set, loops
// after it over the second. The map and dat variables are declared again
// too: d on the new set with another dim, and acc on the same nodes with
// another dim (through the map, so its INC messages differ too). On
// --target tinsel each call is a device type of its own (set_s, set_s_2)
// and each dat a state field of its own (dat_acc, dat_acc_2); the second
// set's loops alternate with a loop on the nodes that also reads what the
// first set's loop wrote. Then a loop body that declares its set again
// (loop_back). Integers, compared exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 6, N1 = 5, N2 = 7 };

#include "op2_check.h"

inline void twice(int *x) { *x *= 2; }
inline void scatter(const int *x, int *y, int *k) { *y += *x, *k -= *x; }
inline void scatter2(const int *x, int *y) { y[0] += x[0], y[1] += x[0] * x[1]; }
inline void combine(const int *k, const int *a, int *c) { *c = *k + 3 * a[0] - a[1]; }

// One call site reached with the sets of both calls (a loop body that
// declares the set again): it runs on the type of the call before it in
// the source, set_t, which the second pass binds to the second set (the
// devices replaced; the first set's dat, written, comes back first).
static void loop_back(void) {
  int a[N1], b[N2];
  for (int i = 0; i < N1; i++)
    a[i] = 5 - 2 * i;
  for (int i = 0; i < N2; i++)
    b[i] = i * i + 1;
  op_set t = op_decl_set(N1, "t1");
  op_dat e = op_decl_dat(t, 1, "int", a, "e1");
  op_dat first = e;
  for (int r = 0; r < 2; r++) {
    op_par_loop(twice, "twice_t", t, op_arg_dat(e, -1, OP_ID, 1, "int", OP_RW));
    if (r == 0) {
      t = op_decl_set(N2, "t2");
      e = op_decl_dat(t, 1, "int", b, "e2");
    }
  }
  int got[N2];
  op_fetch_data(first, got);
  for (int i = 0; i < N1; i++)
    CHECK_EQ_I(got[i], 2 * a[i]);
  op_fetch_data(e, got);
  for (int i = 0; i < N2; i++)
    CHECK_EQ_I(got[i], 2 * b[i]);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int m1[N1], v1[N1], m2[N2], v2[2 * N2];
  int want_a[NN] = {0}, want_b[2 * NN] = {0}, want_c[NN];
  for (int i = 0; i < N1; i++)
    m1[i] = (2 * i + 1) % NN, v1[i] = 3 * i - 4;
  for (int i = 0; i < N2; i++)
    m2[i] = (5 * i + 2) % NN, v2[2 * i] = 7 - i, v2[2 * i + 1] = i * i - 3;
  op_set nodes = op_decl_set(NN, "nodes");
  op_dat keep = op_decl_dat(nodes, 1, "int", NULL, "keep");
  op_dat sum = op_decl_dat(nodes, 1, "int", NULL, "sum");

  op_set s = op_decl_set(N1, "s");
  op_map m = op_decl_map(s, nodes, 1, m1, "m1");
  op_dat d = op_decl_dat(s, 1, "int", v1, "d1");
  op_dat acc = op_decl_dat(nodes, 1, "int", NULL, "acc1");
  op_par_loop(twice, "twice", s, op_arg_dat(d, -1, OP_ID, 1, "int", OP_RW));
  op_par_loop(scatter, "scatter", s, op_arg_dat(d, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(acc, 0, m, 1, "int", OP_INC), op_arg_dat(keep, 0, m, 1, "int", OP_INC));
  for (int i = 0; i < N1; i++)
    want_a[m1[i]] += 2 * v1[i];
  int got[2 * NN];
  op_fetch_data(acc, got);
  for (int n = 0; n < NN; n++)
    CHECK_EQ_I(got[n], want_a[n]);

  s = op_decl_set(N2, "s2"); // the same variables, a new set
  m = op_decl_map(s, nodes, 1, m2, "m2");
  d = op_decl_dat(s, 2, "int", v2, "d2");
  acc = op_decl_dat(nodes, 2, "int", NULL, "acc2");
  for (int r = 0; r < 2; r++) {
    op_par_loop(scatter2, "scatter2", s, op_arg_dat(d, -1, OP_ID, 2, "int", OP_READ),
                op_arg_dat(acc, 0, m, 2, "int", OP_INC));
    op_par_loop(combine, "combine", nodes, op_arg_dat(keep, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(acc, -1, OP_ID, 2, "int", OP_READ), op_arg_dat(sum, -1, OP_ID, 1, "int", OP_WRITE));
  }
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < N2; i++)
      want_b[2 * m2[i]] += v2[2 * i], want_b[2 * m2[i] + 1] += v2[2 * i] * v2[2 * i + 1];
  for (int n = 0; n < NN; n++)
    want_c[n] = -want_a[n] + 3 * want_b[2 * n] - want_b[2 * n + 1];
  op_fetch_data(acc, got);
  for (int n = 0; n < 2 * NN; n++)
    CHECK_EQ_I(got[n], want_b[n]);
  op_fetch_data(sum, got);
  for (int n = 0; n < NN; n++)
    CHECK_EQ_I(got[n], want_c[n]);
  loop_back();
  op_exit();
  return check_finish("set_redecl");
}
