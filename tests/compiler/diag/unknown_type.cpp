#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  op_dat p_c = op_decl_dat(nodes, 1, "complex", x, "p_c");
}
