// typename_kernels: kernels whose names begin with a type name of POETS XML
// declarations (double, float, ...). The graph's state members start with
// the invocation's name, which graph_schema's Python lexer would split
// (`double_it_round`: `double`, `_it_round`), so op2c names these
// invocations op2_double_it, op2_float_sum_1, ...; the program still
// computes what seq does (tests/compiler checks its graph type conforms).
#include "op_seq.h"

#include "op2_check.h"

inline void double_it(double *x) { x[0] *= 2.0; }
inline void float_sum(const double *x, double *s) { *s += x[0]; }

enum { N = 7 };

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  double v[N];
  for (int i = 0; i < N; i++)
    v[i] = 0.25 * i + 1.0;
  op_set pts = op_decl_set(N, "pts");
  op_dat p_v = op_decl_dat(pts, 1, "double", v, "p_v");
  double s1 = 0, s2 = 0;
  op_par_loop(float_sum, "float_sum", pts, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(&s1, 1, "double", OP_INC));
  op_par_loop(double_it, "double_it", pts, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_RW));
  op_par_loop(float_sum, "float_sum", pts, op_arg_dat(p_v, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(&s2, 1, "double", OP_INC));
  double expect = 0;
  for (int i = 0; i < N; i++)
    expect += 0.25 * i + 1.0; // quarters: exact in any order
  CHECK_EQ_D(s1, expect);
  CHECK_EQ_D(s2, 2.0 * expect);
  double out[N];
  op_fetch_data(p_v, out);
  for (int i = 0; i < N; i++)
    CHECK_EQ_D(out[i], 2.0 * (0.25 * i + 1.0));
  op_exit();
  return check_finish("typename_kernels");
}
