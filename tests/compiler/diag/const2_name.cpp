#include "op_seq.h"
#include "mesh.h"
// op_decl_const2's name must be the variable's: kernels use that name.
double eps;
void run(int *m, double *x) {
  declare(m, x);
  op_decl_const2("epsilon", 1, "double", &eps);
}
