// padded_begin: begin carries the round (4 bytes), six double globals and
// an op_opt_arg flag: 53 bytes of values, but 64 as C lays them out
// (the doubles align to 8, the struct to 8). op2c must refuse it.
#include "op_seq.h"

inline void use(const double *a, const double *b, const double *c, const double *d, const double *e,
                const double *f, double *out, const double *x) {
  *out = *a + *b + *c + *d + *e + *f + (x ? *x : 0);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 0);
  double g[6] = {1, 2, 3, 4, 5, 6}, v[2] = {0, 0}, x[2] = {1, 1};
  op_set s = op_decl_set(2, "s");
  op_dat out = op_decl_dat(s, 1, "double", v, "out");
  op_dat px = op_decl_dat(s, 1, "double", x, "px");
  op_par_loop(use, "use", s, op_arg_gbl(&g[0], 1, "double", OP_READ), op_arg_gbl(&g[1], 1, "double", OP_READ),
              op_arg_gbl(&g[2], 1, "double", OP_READ), op_arg_gbl(&g[3], 1, "double", OP_READ),
              op_arg_gbl(&g[4], 1, "double", OP_READ), op_arg_gbl(&g[5], 1, "double", OP_READ),
              op_arg_dat(out, -1, OP_ID, 1, "double", OP_WRITE),
              op_opt_arg_dat(argc > 5, px, -1, OP_ID, 1, "double", OP_READ));
  op_exit();
  return 0;
}
