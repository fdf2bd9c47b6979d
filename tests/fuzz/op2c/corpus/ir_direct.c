/* A C program: kernels defined in the main file, a dat of ints, a uint gbl. */
#include "op_seq.h"

static void count_odd(const int *v, unsigned *n) { *n += (unsigned)(*v & 1); }

int main(int argc, char **argv) {
  int data[5] = {1, 2, 3, 4, 5};
  unsigned odd = 0;
  op_init(argc, argv, 1);
  op_set s = op_decl_set(5, "s");
  op_dat d = op_decl_dat(s, 1, "int", data, "d");
  op_par_loop(count_odd, "count_odd", s,
              op_arg_dat(d, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&odd, 1, "uint", OP_INC));
  op_exit();
  return odd == 3 ? 0 : 1;
}
