// kernel_names: kernels named like the fields of the softswitch's handler
// tables (init, send, recv, rts, idle), which op2c's generated device code
// names too. A C++ program's kernels are reached on the device through a
// macro of the kernel's name; an object-like one turned `.init =` in the
// tables into `.op2k_init =` and the program did not build. Integers:
// compared exactly with a plain C++ replay.
#include "op_seq.h"

enum { NN = 9, NE = 12 };

#include "op2_check.h"
#include "dep_mesh.h"

inline void init(int *v) { *v = 3; }                         // direct WRITE
inline void send(const int *v, int *out) { *out = 2 * *v; } // direct READ, WRITE
inline void recv(const int *a, const int *b, int *s) { *s = *a - *b; } // indirect READ
inline void rts(const int *s, int *a, int *b) {             // indirect INC
  *a += *s;
  *b += 1;
}
inline void idle(int *v, int *total) { *total += *v; } // a global INC

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  decl_mesh(2, 1, 5, 3);
  op_dat p_v = op_decl_dat(nodes, 1, "int", NULL, "p_v");
  op_dat p_w = op_decl_dat(nodes, 1, "int", NULL, "p_w");
  op_dat p_s = op_decl_dat(edges, 1, "int", NULL, "p_s");
  int total = 0;

  op_par_loop(init, "init", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(send, "send", nodes, op_arg_dat(p_v, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_w, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(recv, "recv", edges, op_arg_dat(p_w, 0, pedge, 1, "int", OP_READ),
              op_arg_dat(p_v, 1, pedge, 1, "int", OP_READ), op_arg_dat(p_s, -1, OP_ID, 1, "int", OP_WRITE));
  op_par_loop(rts, "rts", edges, op_arg_dat(p_s, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_w, 0, pedge, 1, "int", OP_INC), op_arg_dat(p_v, 1, pedge, 1, "int", OP_INC));
  op_par_loop(idle, "idle", nodes, op_arg_dat(p_w, -1, OP_ID, 1, "int", OP_RW),
              op_arg_gbl(&total, 1, "int", OP_INC));

  int v[NN], w[NN], s[NE], want_total = 0;
  for (int n = 0; n < NN; n++)
    v[n] = 3, w[n] = 6;
  for (int e = 0; e < NE; e++)
    s[e] = w[edge[2 * e]] - v[edge[2 * e + 1]];
  for (int e = 0; e < NE; e++) {
    w[edge[2 * e]] += s[e];
    v[edge[2 * e + 1]] += 1;
  }
  for (int n = 0; n < NN; n++)
    want_total += w[n];
  CHECK_DAT_I(p_v, v, NN);
  CHECK_DAT_I(p_w, w, NN);
  CHECK_DAT_I(p_s, s, NE);
  CHECK_EQ_I(total, want_total);
  op_exit();
  return check_finish("kernel_names");
}
