#include "op_seq.h"
#include "mesh.h"
// Constant dims are checked like #if: LLONG_MIN / -1 overflows.
void f(double *x) { op_dat d = op_decl_dat(nodes, (-9223372036854775807 - 1) / -1, "double", x, "d"); }
