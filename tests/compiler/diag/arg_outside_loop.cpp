#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  op_arg_gbl(&total, 1, "double", OP_READ);
}
