// direct_inc: a C (not C++) OP2 program: direct INC and RW loops with
// kernels in C, and a float gbl READ.
#include "op_seq.h"

#include "op2_check.h"

static inline void axpy(const float *a, const float *x, float *y) { *y += *a * *x; }
static inline void halve(float *y) { *y *= 0.5f; }

enum { N = 10 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  float x[N], y[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)i, y[i] = 1.0f;
  op_set s = op_decl_set(N, "s");
  op_dat p_x = op_decl_dat(s, 1, "float", x, "p_x");
  op_dat p_y = op_decl_dat(s, 1, "float", y, "p_y");
  float a = 2.0f;
  for (int k = 0; k < 2; k++)
    op_par_loop(axpy, "axpy", s, op_arg_gbl(&a, 1, "float", OP_READ),
                op_arg_dat(p_x, -1, OP_ID, 1, "float", OP_READ),
                op_arg_dat(p_y, -1, OP_ID, 1, "float", OP_INC));
  op_par_loop(halve, "halve", s, op_arg_dat(p_y, -1, OP_ID, 1, "float", OP_RW));
  float out[N];
  op_fetch_data(p_y, out);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(out[i], (1.0 + 4.0 * i) * 0.5);
  op_exit();
  return check_finish("direct_inc");
}
