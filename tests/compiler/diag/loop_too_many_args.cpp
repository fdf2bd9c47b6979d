#include "op_seq.h"
#include "mesh.h"
// More args than op2c takes (1024).
#define G op_arg_gbl(&total, 1, "double", OP_READ)
#define G4 G, G, G, G
#define G16 G4, G4, G4, G4
#define G64 G16, G16, G16, G16
#define G256 G64, G64, G64, G64
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(scale, "scale", nodes, G256, G256, G256, G256, G);
}
