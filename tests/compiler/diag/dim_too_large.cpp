#include "op_seq.h"
#include "mesh.h"
// A dim whose dim * sizeof overflows an int.
void f(double *x) { op_dat d = op_decl_dat(nodes, 2147483647, "double", x, "d"); }
