/*
 * airfoil_hdf5.cpp: airfoil (dp) declared from an HDF5 file the way OP2's
 * HDF5 airfoil is: every set, map, dat and constant read by name with
 * op_decl_*_hdf5 and op_get_const_hdf5. The loops, kernels and printing
 * are the app's (apps/airfoil/dp), so from a meshgen-made .h5 it must print
 * what airfoil_dp prints from the .dat.
 *
 *   airfoil_hdf5 --mesh FILE.h5 [--iters N] [--print-every K] [--digits D] [--output FILE]
 *
 * --output FILE also writes FILE.dump.h5 (op_dump_to_hdf5 and the
 * constants by op_write_const_hdf5: a file this program reads again to go
 * on from where it stopped) and FILE.q.h5 (op_fetch_data_hdf5_file of p_q
 * and, under /result, op_fetch_data_hdf5_file_path).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_seq.h"
#include "op_hdf5.h"

#include "airfoil_io.h"

double gam, gm1, cfl, eps, mach, alpha, qinf[4];

#include "adt_calc.h"
#include "bres_calc.h"
#include "res_calc.h"
#include "save_soln.h"
#include "update.h"

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  AirfoilOptions opt = airfoil_options(argc, argv);
  const char *file = opt.mesh;

  op_set nodes = op_decl_set_hdf5(file, "nodes");
  op_set edges = op_decl_set_hdf5(file, "edges");
  op_set bedges = op_decl_set_hdf5(file, "bedges");
  op_set cells = op_decl_set_hdf5(file, "cells");

  op_map pedge = op_decl_map_hdf5(edges, nodes, 2, file, "pedge");
  op_map pecell = op_decl_map_hdf5(edges, cells, 2, file, "pecell");
  op_map pbedge = op_decl_map_hdf5(bedges, nodes, 2, file, "pbedge");
  op_map pbecell = op_decl_map_hdf5(bedges, cells, 1, file, "pbecell");
  op_map pcell = op_decl_map_hdf5(cells, nodes, 4, file, "pcell");

  op_dat p_bound = op_decl_dat_hdf5(bedges, 1, "int", file, "p_bound");
  op_dat p_x = op_decl_dat_hdf5(nodes, 2, "double", file, "p_x");
  op_dat p_q = op_decl_dat_hdf5(cells, 4, "double", file, "p_q");
  op_dat p_qold = op_decl_dat_hdf5(cells, 4, "double", file, "p_qold");
  op_dat p_adt = op_decl_dat_hdf5(cells, 1, "double", file, "p_adt");
  op_dat p_res = op_decl_dat_hdf5(cells, 4, "double", file, "p_res");

  op_get_const_hdf5("gam", 1, "double", (char *)&gam, file);
  op_get_const_hdf5("gm1", 1, "double", (char *)&gm1, file);
  op_get_const_hdf5("cfl", 1, "double", (char *)&cfl, file);
  op_get_const_hdf5("eps", 1, "double", (char *)&eps, file);
  op_get_const_hdf5("mach", 1, "double", (char *)&mach, file);
  op_get_const_hdf5("alpha", 1, "double", (char *)&alpha, file);
  op_get_const_hdf5("qinf", 4, "double", (char *)qinf, file);

  op_decl_const(1, "double", &gam);
  op_decl_const(1, "double", &gm1);
  op_decl_const(1, "double", &cfl);
  op_decl_const(1, "double", &eps);
  op_decl_const(1, "double", &mach);
  op_decl_const(1, "double", &alpha);
  op_decl_const(4, "double", qinf);

  double rms = 0.0;
  for (int iter = 1; iter <= opt.iters; iter++) {
    op_par_loop(save_soln, "save_soln", cells,
                op_arg_dat(p_q, -1, OP_ID, 4, "double", OP_READ),
                op_arg_dat(p_qold, -1, OP_ID, 4, "double", OP_WRITE));
    for (int k = 0; k < 2; k++) {
      op_par_loop(adt_calc, "adt_calc", cells,
                  op_arg_dat(p_x, 0, pcell, 2, "double", OP_READ),
                  op_arg_dat(p_x, 1, pcell, 2, "double", OP_READ),
                  op_arg_dat(p_x, 2, pcell, 2, "double", OP_READ),
                  op_arg_dat(p_x, 3, pcell, 2, "double", OP_READ),
                  op_arg_dat(p_q, -1, OP_ID, 4, "double", OP_READ),
                  op_arg_dat(p_adt, -1, OP_ID, 1, "double", OP_WRITE));
      op_par_loop(res_calc, "res_calc", edges,
                  op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ),
                  op_arg_dat(p_x, 1, pedge, 2, "double", OP_READ),
                  op_arg_dat(p_q, 0, pecell, 4, "double", OP_READ),
                  op_arg_dat(p_q, 1, pecell, 4, "double", OP_READ),
                  op_arg_dat(p_adt, 0, pecell, 1, "double", OP_READ),
                  op_arg_dat(p_adt, 1, pecell, 1, "double", OP_READ),
                  op_arg_dat(p_res, 0, pecell, 4, "double", OP_INC),
                  op_arg_dat(p_res, 1, pecell, 4, "double", OP_INC));
      op_par_loop(bres_calc, "bres_calc", bedges,
                  op_arg_dat(p_x, 0, pbedge, 2, "double", OP_READ),
                  op_arg_dat(p_x, 1, pbedge, 2, "double", OP_READ),
                  op_arg_dat(p_q, 0, pbecell, 4, "double", OP_READ),
                  op_arg_dat(p_adt, 0, pbecell, 1, "double", OP_READ),
                  op_arg_dat(p_res, 0, pbecell, 4, "double", OP_INC),
                  op_arg_dat(p_bound, -1, OP_ID, 1, "int", OP_READ));
      rms = 0.0;
      op_par_loop(update, "update", cells,
                  op_arg_dat(p_qold, -1, OP_ID, 4, "double", OP_READ),
                  op_arg_dat(p_q, -1, OP_ID, 4, "double", OP_WRITE),
                  op_arg_dat(p_res, -1, OP_ID, 4, "double", OP_RW),
                  op_arg_dat(p_adt, -1, OP_ID, 1, "double", OP_READ),
                  op_arg_gbl(&rms, 1, "double", OP_INC));
    }
    rms = sqrt(rms / (double)op_get_size(cells));
    if (iter % opt.print_every == 0)
      airfoil_print_rms(iter, rms, opt.digits);
  }

  if (opt.output) {
    op_print_dat_to_txtfile(p_q, opt.output);
    char dump[4096], qfile[4096];
    snprintf(dump, sizeof dump, "%s.dump.h5", opt.output);
    snprintf(qfile, sizeof qfile, "%s.q.h5", opt.output);
    op_dump_to_hdf5(dump);
    op_write_const_hdf5("gam", 1, "double", (char *)&gam, dump);
    op_write_const_hdf5("gm1", 1, "double", (char *)&gm1, dump);
    op_write_const_hdf5("cfl", 1, "double", (char *)&cfl, dump);
    op_write_const_hdf5("eps", 1, "double", (char *)&eps, dump);
    op_write_const_hdf5("mach", 1, "double", (char *)&mach, dump);
    op_write_const_hdf5("alpha", 1, "double", (char *)&alpha, dump);
    op_write_const_hdf5("qinf", 4, "double", (char *)qinf, dump);
    remove(qfile);
    op_fetch_data_hdf5_file(p_q, qfile);
    op_fetch_data_hdf5_file_path(p_q, qfile, "/result");
  }
  op_exit();
  return 0;
}
