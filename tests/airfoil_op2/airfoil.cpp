/*
 * airfoil.cpp: single-precision airfoil as current OP2-Common programs are
 * written, to be built unchanged by op2c for every target: the mesh read
 * from ./new_grid.dat with fscanf, kernels calling sqrt and fabs on floats
 * (C++ overloads: single precision), op_profile_* sections, the largest
 * squared change and its cell through op_arg_info, and OP2's epilogue
 * (text and binary dumps, op_malloc and op_fetch_data_idx, timings).
 * The kernels other than update are apps/airfoil/sp's.
 *
 * NITER (default 1000) and PRINT_EVERY (default 100) may be set with -D.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <op_seq.h>
#include <op_profile.h>

#ifndef NITER
#define NITER 1000
#endif
#ifndef PRINT_EVERY
#define PRINT_EVERY 100
#endif

float gam, gm1, cfl, eps, mach, alpha, qinf[4];

#include "adt_calc.h"
#include "bres_calc.h"
#include "res_calc.h"
#include "save_soln.h"
#include "update.h"

static void read_error(void) {
  op_printf("error reading from new_grid.dat\n");
  exit(-1);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);

  int nnode, ncell, nedge, nbedge;
  op_printf("reading in grid \n");
  FILE *fp = fopen("./new_grid.dat", "r");
  if (!fp) {
    op_printf("can't open file new_grid.dat\n");
    exit(-1);
  }
  if (fscanf(fp, "%d %d %d %d \n", &nnode, &ncell, &nedge, &nbedge) != 4)
    read_error();

  int *cell = (int *)op_malloc(4 * ncell * sizeof(int));
  int *edge = (int *)op_malloc(2 * nedge * sizeof(int));
  int *ecell = (int *)op_malloc(2 * nedge * sizeof(int));
  int *bedge = (int *)op_malloc(2 * nbedge * sizeof(int));
  int *becell = (int *)op_malloc(nbedge * sizeof(int));
  int *bound = (int *)op_malloc(nbedge * sizeof(int));
  float *x = (float *)op_malloc(2 * nnode * sizeof(float));
  float *q = (float *)op_malloc(4 * ncell * sizeof(float));
  float *qold = (float *)op_malloc(4 * ncell * sizeof(float));
  float *res = (float *)op_malloc(4 * ncell * sizeof(float));
  float *adt = (float *)op_malloc(ncell * sizeof(float));

  for (int n = 0; n < nnode; n++)
    if (fscanf(fp, "%f %f \n", &x[2 * n], &x[2 * n + 1]) != 2)
      read_error();
  for (int n = 0; n < ncell; n++)
    if (fscanf(fp, "%d %d %d %d \n", &cell[4 * n], &cell[4 * n + 1], &cell[4 * n + 2], &cell[4 * n + 3]) != 4)
      read_error();
  for (int n = 0; n < nedge; n++)
    if (fscanf(fp, "%d %d %d %d \n", &edge[2 * n], &edge[2 * n + 1], &ecell[2 * n], &ecell[2 * n + 1]) != 4)
      read_error();
  for (int n = 0; n < nbedge; n++)
    if (fscanf(fp, "%d %d %d %d \n", &bedge[2 * n], &bedge[2 * n + 1], &becell[n], &bound[n]) != 4)
      read_error();
  fclose(fp);

  op_printf("initialising flow field \n");
  gam = 1.4f;
  gm1 = gam - 1.0f;
  cfl = 0.9f;
  eps = 0.05f;
  mach = 0.4f;
  alpha = 3.0f * atan(1.0f) / 45.0f;
  float p = 1.0f, r = 1.0f;
  float u = sqrt(gam * p / r) * mach;
  float e = p / (r * gm1) + 0.5f * u * u;
  qinf[0] = r;
  qinf[1] = r * u;
  qinf[2] = 0.0f;
  qinf[3] = r * e;
  for (int n = 0; n < ncell; n++)
    for (int m = 0; m < 4; m++) {
      q[4 * n + m] = qinf[m];
      res[4 * n + m] = 0.0f;
    }

  op_set nodes = op_decl_set(nnode, "nodes");
  op_set edges = op_decl_set(nedge, "edges");
  op_set bedges = op_decl_set(nbedge, "bedges");
  op_set cells = op_decl_set(ncell, "cells");
  op_map pedge = op_decl_map(edges, nodes, 2, edge, "pedge");
  op_map pecell = op_decl_map(edges, cells, 2, ecell, "pecell");
  op_map pbedge = op_decl_map(bedges, nodes, 2, bedge, "pbedge");
  op_map pbecell = op_decl_map(bedges, cells, 1, becell, "pbecell");
  op_map pcell = op_decl_map(cells, nodes, 4, cell, "pcell");
  op_dat p_bound = op_decl_dat(bedges, 1, "int", bound, "p_bound");
  op_dat p_x = op_decl_dat(nodes, 2, "float", x, "p_x");
  op_dat p_q = op_decl_dat(cells, 4, "float", q, "p_q");
  op_dat p_qold = op_decl_dat(cells, 4, "float", qold, "p_qold");
  op_dat p_adt = op_decl_dat(cells, 1, "float", adt, "p_adt");
  op_dat p_res = op_decl_dat(cells, 4, "float", res, "p_res");
  op_free(cell);
  op_free(edge);
  op_free(ecell);
  op_free(bedge);
  op_free(becell);
  op_free(bound);
  op_free(x);
  op_free(q);
  op_free(qold);
  op_free(res);
  op_free(adt);

  op_decl_const(1, "float", &gam);
  op_decl_const(1, "float", &gm1);
  op_decl_const(1, "float", &cfl);
  op_decl_const(1, "float", &eps);
  op_decl_const(1, "float", &mach);
  op_decl_const(1, "float", &alpha);
  op_decl_const(4, "float", qinf);
  op_diagnostic_output();

  double cpu_t1, cpu_t2, wall_t1, wall_t2;
  op_timers(&cpu_t1, &wall_t1);
  op_profile_start("Airfoil");

  float rms = 0.0f, maxerr = 0.0f;
  int errloc = 0;
  for (int iter = 1; iter <= NITER; iter++) {
    op_profile_enter("iteration");
    op_par_loop(save_soln, "save_soln", cells, op_arg_dat(p_q, -1, OP_ID, 4, "float", OP_READ),
                op_arg_dat(p_qold, -1, OP_ID, 4, "float", OP_WRITE));

    for (int k = 0; k < 2; k++) {
      op_par_loop(adt_calc, "adt_calc", cells, op_arg_dat(p_x, 0, pcell, 2, "float", OP_READ),
                  op_arg_dat(p_x, 1, pcell, 2, "float", OP_READ), op_arg_dat(p_x, 2, pcell, 2, "float", OP_READ),
                  op_arg_dat(p_x, 3, pcell, 2, "float", OP_READ), op_arg_dat(p_q, -1, OP_ID, 4, "float", OP_READ),
                  op_arg_dat(p_adt, -1, OP_ID, 1, "float", OP_WRITE));

      op_par_loop(res_calc, "res_calc", edges, op_arg_dat(p_x, 0, pedge, 2, "float", OP_READ),
                  op_arg_dat(p_x, 1, pedge, 2, "float", OP_READ), op_arg_dat(p_q, 0, pecell, 4, "float", OP_READ),
                  op_arg_dat(p_q, 1, pecell, 4, "float", OP_READ),
                  op_arg_dat(p_adt, 0, pecell, 1, "float", OP_READ),
                  op_arg_dat(p_adt, 1, pecell, 1, "float", OP_READ),
                  op_arg_dat(p_res, 0, pecell, 4, "float", OP_INC),
                  op_arg_dat(p_res, 1, pecell, 4, "float", OP_INC));

      op_par_loop(bres_calc, "bres_calc", bedges, op_arg_dat(p_x, 0, pbedge, 2, "float", OP_READ),
                  op_arg_dat(p_x, 1, pbedge, 2, "float", OP_READ),
                  op_arg_dat(p_q, 0, pbecell, 4, "float", OP_READ),
                  op_arg_dat(p_adt, 0, pbecell, 1, "float", OP_READ),
                  op_arg_dat(p_res, 0, pbecell, 4, "float", OP_INC),
                  op_arg_dat(p_bound, -1, OP_ID, 1, "int", OP_READ));

      rms = 0.0f;
      maxerr = 0.0f;
      errloc = 0;
      op_par_loop(update, "update", cells, op_arg_dat(p_qold, -1, OP_ID, 4, "float", OP_READ),
                  op_arg_dat(p_q, -1, OP_ID, 4, "float", OP_WRITE),
                  op_arg_dat(p_res, -1, OP_ID, 4, "float", OP_RW),
                  op_arg_dat(p_adt, -1, OP_ID, 1, "float", OP_READ), op_arg_gbl(&rms, 1, "float", OP_INC),
                  op_arg_gbl(&maxerr, 1, "float", OP_MAX), op_arg_idx(-1, OP_ID),
                  op_arg_info(&errloc, 1, "int", 5));
    }

    rms = sqrt(rms / (float)op_get_size(cells));
    if (iter % PRINT_EVERY == 0)
      op_printf(" %d  %10.5e, max err: %3.15E at %d\n", iter, rms, maxerr, errloc);
    if (iter % 1000 == 0 && ncell == 720000) {
      float diff = fabs((100.0 * (rms / 0.000105987)) - 100.0);
      op_printf("\n\nTest problem with %d cells is within %3.15E %% of the expected solution\n", 720000, diff);
      op_printf("This test is considered %s\n", diff < 0.1 ? "PASSED" : "FAILED");
    }
    op_profile_exit();
  }
  op_profile_end();

  op_print_dat_to_txtfile(p_q, "out_grid.dat");
  op_print_dat_to_binfile(p_q, "out_grid.bin");
  float *q_part = (float *)op_malloc(sizeof(float) * op_get_size(cells) * 4);
  op_fetch_data_idx(p_q, q_part, 0, op_get_size(cells) - 1);
  double sum = 0.0;
  for (int n = 0; n < 4 * op_get_size(cells); n++)
    sum += q_part[n];
  op_printf("sum of q: %.9e\n", sum);
  op_free(q_part);

  op_timers(&cpu_t2, &wall_t2);
  op_timing_output();
  op_profile_output();
  op_printf("Max total runtime = %f\n", wall_t2 - wall_t1);
  op_exit();
}
