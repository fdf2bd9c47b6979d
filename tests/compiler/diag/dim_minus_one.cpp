#include "op_seq.h"
#include "mesh.h"
// -1 is not a dim (it was taken for op2c's "not a constant").
void f(double *x) { op_dat d = op_decl_dat(nodes, -1, "double", x, "d"); }
