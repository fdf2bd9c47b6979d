// A kernel may call only what the device has (firmware/include/op2_device_fns.def):
// std::tgamma and lgamma are not there, nor erf, called through a helper.
// std::min, fabs, std::pow and the program's own helper are.
#include "op_seq.h"
#include <algorithm>
#include <cmath>
#include "mesh.h"

static double smooth(double v) { return erf(v) + std::pow(v, 2.0); }

inline void limit(double *r) {
  *r = std::min(*r, 2.0) + fabs(*r) + smooth(*r);
  *r += std::tgamma(*r) + lgamma(*r);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  int map[4] = {0, 1, 1, 2};
  double x[6] = {0};
  declare(map, x);
  op_par_loop(limit, "limit", nodes, op_arg_dat(p_res, -1, OP_ID, 1, "double", OP_RW));
  op_exit();
}
