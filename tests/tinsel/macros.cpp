// macros: kernels that use the program's macros (object-like, function-like,
// variadic, and one that -D may set). The device code is compiled apart
// from the program, so op2c carries the macros over.
#include <stdio.h>

#include "op_seq.h"

#ifndef OFFSET
#define OFFSET 1
#endif
#define DIM 3
#define SQUARE(x) ((x) * (x))
#define SUM3(...) sum3(__VA_ARGS__)

static inline double sum3(double a, double b, double c) { return a + b + c; }

inline void apply(const double *in, double *out) {
  for (int d = 0; d < DIM; d++)
    out[d] = SQUARE(in[d]) + OFFSET;
  out[DIM] = SUM3(in[0], in[1], in[2]);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  enum { N = 4 };
  double in[N * DIM], out[N * (DIM + 1)];
  for (int i = 0; i < N * DIM; i++)
    in[i] = 0.5 * i;
  op_set s = op_decl_set(N, "s");
  op_dat p_in = op_decl_dat(s, DIM, "double", in, "p_in");
  op_dat p_out = op_decl_dat(s, DIM + 1, "double", NULL, "p_out");
  op_par_loop(apply, "apply", s, op_arg_dat(p_in, -1, OP_ID, DIM, "double", OP_READ),
              op_arg_dat(p_out, -1, OP_ID, DIM + 1, "double", OP_WRITE));
  op_fetch_data(p_out, out);
  for (int i = 0; i < N * (DIM + 1); i++)
    printf("%g%c", out[i], i % (DIM + 1) == DIM ? '\n' : ' ');
  op_exit();
  printf("macros PASSED\n");
  return 0;
}
