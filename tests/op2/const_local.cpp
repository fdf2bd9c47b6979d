// const_local: op_decl_const given a local variable, as OP2's aero does
// (`double gam = 1.4;` in main, then op_decl_const(1, "double", &gam)). No
// kernel can see a local, so only the file-scope const reaches the
// devices (op2c used to read `gam` in a host function where it is not in
// scope: aero did not compile for POETS).
#include "op_seq.h"

#include "op2_check.h"

double shift;

inline void add_shift(const double *x, double *y, double *sum) {
  *y = *x + shift;
  *sum += *y * *x;
}

enum { N = 10 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double gam = 1.4;
  shift = 0.25;
  op_decl_const(1, "double", &gam);
  op_decl_const(1, "double", &shift);
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.5 * i;
  double sum = 0.0, want = 0.0;
  op_set pts = op_decl_set(N, "pts");
  op_dat p_x = op_decl_dat(pts, 1, "double", x, "p_x");
  op_dat p_y = op_decl_dat(pts, 1, "double", NULL, "p_y");
  op_par_loop(add_shift, "add_shift", pts, op_arg_dat(p_x, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_y, -1, OP_ID, 1, "double", OP_WRITE), op_arg_gbl(&sum, 1, "double", OP_INC));
  double y[N];
  op_fetch_data(p_y, y);
  for (int i = 0; i < N; i++) {
    CHECK_EQ_D(y[i], x[i] + 0.25);
    want += y[i] * x[i];
  }
  CHECK_EQ_D(sum, want); // eighths: exact in any order
  CHECK_EQ_D(gam, 1.4);
  op_exit();
  return check_finish("const_local");
}
