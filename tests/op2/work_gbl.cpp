// work_gbl: an op_arg_gbl with OP_WORK is scratch for the kernel: it fills
// the array and reads it back within each element's call, and the loop's
// result must not depend on what the scratch held before (seq: the host's
// array; POETS: each device's own).
#include "op_seq.h"

#include "op2_check.h"

inline void poly(const double *x, double *work, double *y) {
  for (int k = 0; k < 3; k++)
    work[k] = (k + 1) * *x;
  *y = work[0] + work[1] * *x + work[2] * *x * *x;
}

enum { N = 13 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.5 * i - 2.0;
  op_set pts = op_decl_set(N, "pts");
  op_dat p_x = op_decl_dat(pts, 1, "double", x, "p_x");
  op_dat p_y = op_decl_dat(pts, 1, "double", NULL, "p_y");
  double scratch[3] = {1e300, -7.0, 42.0};

  for (int round = 0; round < 2; round++)
    op_par_loop(poly, "poly", pts, op_arg_dat(p_x, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(scratch, 3, "double", OP_WORK), op_arg_dat(p_y, -1, OP_ID, 1, "double", OP_WRITE));

  double y[N];
  op_fetch_data(p_y, y);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(y[i], x[i] + 2.0 * x[i] * x[i] + 3.0 * x[i] * x[i] * x[i]); // halves: exact
  op_exit();
  return check_finish("work_gbl");
}
