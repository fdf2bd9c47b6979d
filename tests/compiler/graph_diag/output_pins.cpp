// 17 loops, each with a read_send and an end pin on nodes: more than the 32
// output pins of a ready-to-send word (the masks shifted by 32 and more before
// this was reported).
#include "op_seq.h"
#include "mesh.h"
void run(int *m, double *x) {
  declare(m, x);
  op_par_loop(flux, "f1", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f2", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f3", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f4", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f5", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f6", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f7", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f8", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f9", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f10", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f11", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f12", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f13", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f14", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f15", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f16", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
  op_par_loop(flux, "f17", edges, op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
              op_arg_dat(p_res, 0, pedge, 1, "double", OP_INC), op_arg_dat(p_res, 1, pedge, 1, "double", OP_INC));
}
