#include "op_seq.h"
#include "mesh.h"
// A dim past 32 bits (it became 2).
void f(double *x) { op_dat d = op_decl_dat(nodes, 4294967298, "double", x, "d"); }
