#include "op_seq.h"
#include "mesh.h"
// A const given a new value must keep the type of its first declaration.
void run(int *m, double *x) {
  declare(m, x);
  op_decl_const(1, "float", &gam);
}
