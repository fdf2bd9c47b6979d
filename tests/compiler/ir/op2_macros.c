/* OP2's macros as a C program sees them. Its own MAX, defined before OP2's
 * headers, stays (OP2 defines MIN and MAX only where there are none); MIN
 * and ROUND_UP come from <op_profile.h>, included by its OP2 name in angle
 * brackets. op2c's dims must be what the C compiler makes of them. */
#define MAX(a, b) ((a) + (b))
#include <op_profile.h>
#include "op_seq.h"

static void fill(double *v) {
  for (int k = 0; k < MAX(1, 2); k++)
    v[k] = MIN(k, 1);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  op_set s = op_decl_set(2, "s");
  op_dat a = op_decl_dat(s, MAX(1, 2), "double", NULL, "a");
  op_dat b = op_decl_dat(s, ROUND_UP(1), "int", NULL, "b");
  op_dat c = op_decl_dat(s, MIN(ROUND_UP_64(1), 5), "int", NULL, "c");
  op_par_loop(fill, "fill", s, op_arg_dat(a, -1, OP_ID, MAX(1, 2), "double", OP_WRITE));
  double v[6];
  op_fetch_data(a, v);
  int ok = a->dim == 3 && b->dim == 16 && c->dim == 5 && v[2] == 1 && v[3] == 0 && v[5] == 1;
  op_exit();
  return ok ? 0 : 1;
}
