// dep_gbl_later: globals written by loops, taken by the host later (issue
// 18: the host waits only where the program needs a value). op2c guards
// the locals whose every use it can see (OP2T_GBL_SCOPE) and makes each
// use wait (OP2T_GBL), so on the streaming engines those calls return at
// once; the others wait at the call. Covered: a host write of the global
// before the next round's loop, a later loop reading the global (its begin
// carries the value), two loops adding to one global with no host use
// between, a block's local, two declarators in one declaration, helpers
// whose local is read at the return or never (the scope's end waits), a
// struct whose second member a loop writes (its uses wait for the whole), and
// what op2c cannot see through: a static local, a file-scope variable and
// one whose address is taken. Integers: compared exactly with a replay.
#include "op_seq.h"

enum { NN = 9, NE = 13, ROUNDS = 4 };

#include "op2_check.h"
#include "dep_mesh.h"

inline void add_up(const int *v, int *s) { *s += *v; }
inline void top_of(const int *v, int *m) { *m = *v > *m ? *v : *m; }
inline void bump(const int *s, const int *k, int *v) { *v = (*v * 3 + *s + *k) % 97; }
inline void across(const int *a, const int *b, int *s) { *s += *a - 2 * *b; }

int file_total; // file scope: other code could read it, so the call waits

struct Pair {
  int lo, hi;
};

static int unread(op_dat p_v);
static int sum_of(op_dat p_v);

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int v[NN];
  for (int n = 0; n < NN; n++)
    v[n] = (5 * n + 3) % 17;
  decl_mesh(2, 1, 5, 3);
  op_dat p_v = op_decl_dat(nodes, 1, "int", v, "p_v");

  int got[ROUNDS][9], want[ROUNDS][9];
  int total = 0, top = -1; // two declarators, both guarded
  int across_sum = 0;
  Pair pair = {0, 0}; // the loop writes pair.hi
  int escaped = 0, *where = &escaped; // its address is taken: not guarded
  for (int k = 0; k < ROUNDS; k++) {
    total = 0; // waits for the last round's total
    op_par_loop(add_up, "total", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&total, 1, "int", OP_INC));
    op_par_loop(top_of, "top", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&top, 1, "int", OP_MAX));
    // Two loops add to one global with no host use between.
    op_par_loop(across, "across_a", edges, op_arg_dat(p_v, 0, pedge, 1, "int", OP_READ),
                op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ), op_arg_gbl(&across_sum, 1, "int", OP_INC));
    op_par_loop(across, "across_b", edges, op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ),
                op_arg_dat(p_v, 0, pedge, 1, "int", OP_READ), op_arg_gbl(&across_sum, 1, "int", OP_INC));
    {
      int inner = 100 * k;
      op_par_loop(add_up, "inner", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_gbl(&inner, 1, "int", OP_INC));
      got[k][4] = inner;
    }
    static int kept = 0; // static: not guarded
    op_par_loop(add_up, "kept", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&kept, 1, "int", OP_INC));
    file_total = k;
    op_par_loop(add_up, "file_total", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&file_total, 1, "int", OP_INC));
    op_par_loop(add_up, "escaped", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&escaped, 1, "int", OP_INC));
    op_par_loop(top_of, "pair_hi", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&pair.hi, 1, "int", OP_MAX));
    got[k][8] = pair.hi; // at once: its wait must cover the member, 4 bytes in
    int r = unread(p_v) + sum_of(p_v);
    // A later loop reads total: its begin carries this round's sum.
    op_par_loop(bump, "bump", nodes, op_arg_gbl(&total, 1, "int", OP_READ), op_arg_gbl(&k, 1, "int", OP_READ),
                op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_RW));
    got[k][0] = total, got[k][1] = top, got[k][2] = across_sum, got[k][3] = kept;
    got[k][5] = file_total, got[k][6] = *where, got[k][7] = r;
  }

  // The replay.
  int total_r = 0, top_r = -1, across_r = 0, kept_r = 0, escaped_r = 0;
  for (int k = 0; k < ROUNDS; k++) {
    int sum = 0;
    for (int n = 0; n < NN; n++) {
      sum += v[n];
      top_r = v[n] > top_r ? v[n] : top_r;
    }
    total_r = sum;
    for (int e = 0; e < NE; e++) {
      int a = v[edge[2 * e]], b = v[edge[2 * e + 1]];
      across_r += a - 2 * b;
      across_r += b - 2 * a;
    }
    kept_r += sum;
    escaped_r += sum;
    want[k][0] = total_r, want[k][1] = top_r, want[k][2] = across_r, want[k][3] = kept_r;
    want[k][4] = 100 * k + sum, want[k][5] = k + sum, want[k][6] = escaped_r, want[k][7] = 7 + 5 + sum;
    want[k][8] = top_r;
    for (int n = 0; n < NN; n++)
      v[n] = (v[n] * 3 + total_r + k) % 97;
  }
  for (int k = 0; k < ROUNDS; k++)
    for (int i = 0; i < 9; i++)
      CHECK_EQ_I(got[k][i], want[k][i]);
  CHECK_DAT_I(p_v, v, NN);
  op_exit();
  return check_finish("dep_gbl_later");
}

// Its local is never read: the end of its scope waits for the loop.
static int unread(op_dat p_v) {
  int s = 0;
  op_par_loop(add_up, "unread", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&s, 1, "int", OP_INC));
  return 7;
}

// Its local is read at the return.
static int sum_of(op_dat p_v) {
  int s = 5;
  op_par_loop(add_up, "sum_of", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&s, 1, "int", OP_INC));
  return s;
}
