#include "op_seq.h"
#include "op_hdf5.h"
// HDF5 declarations are sets, maps and dats like the others: a loop over
// them is checked, and their own mistakes are named by their call.
void k(const double *x, double *q) { q[0] = x[0]; }
void run(const char *file) {
  op_set nodes = op_decl_set_hdf5(file, "nodes");
  op_set cells = op_decl_set_hdf5_infer_size(file, "cells", "pcell");
  op_map pcell = op_decl_map_hdf5(cells, nodes, 4, file, "pcell");
  op_dat p_x = op_decl_dat_hdf5(nodes, 2, "double", file, "p_x");
  op_dat p_q = op_decl_dat_hdf5(cells, 4, "double", file, "p_q");
  op_par_loop(k, "k", cells,
              op_arg_dat(p_x, 4, pcell, 2, "double", OP_READ),
              op_arg_dat(p_q, -1, OP_ID, 4, "double", OP_WRITE));
  op_dat p_r = op_decl_dat_hdf5(cells, 4, "real", file, "p_r");
  op_map pedge = op_decl_map_hdf5(cells, nodes, 2, file);
  op_dat p_e = op_decl_dat_hdf5(edges, 1, "int", file, "p_e");
}
