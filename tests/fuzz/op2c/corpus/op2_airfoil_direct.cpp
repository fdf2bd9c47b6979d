#define REAL double
/*
 * airfoil_direct.cpp: the oracle for airfoil through op2c. A plain C++
 * program, no OP2: it loops over the mesh itself, calling the same kernel
 * headers in the order OP2's seq back end defines (elements 0..size-1,
 * pointers data + index*dim), and prints the rms like airfoil does.
 *
 * Build with -DREAL=double -Iapps/airfoil/dp (or float and sp) -Iapps/airfoil.
 * Takes airfoil's options (airfoil_io.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>


#ifndef REAL
#error "build with -DREAL=double or -DREAL=float"
#endif

REAL gam, gm1, cfl, eps, mach, alpha, qinf[4];


static REAL *zeros(size_t n) {
  REAL *p = (REAL *)calloc(n ? n : 1, sizeof(REAL));
  if (!p) {
    fprintf(stderr, "airfoil_direct: out of memory\n");
    exit(1);
  }
  return p;
}

// The constants exactly as airfoil.cpp computes them, in REAL.
static void set_constants(void) {
  gam = 1.4f;
  gm1 = gam - 1.0f;
  cfl = 0.9f;
  eps = 0.05f;
  REAL p = 1.0f, r = 1.0f, m = 0.4f;
  REAL u = sqrt(gam * p / r) * m;
  REAL e = p / (r * gm1) + 0.5f * u * u;
  qinf[0] = r;
  qinf[1] = r * u;
  qinf[2] = 0.0f;
  qinf[3] = r * e;
}

int main(int argc, char **argv) {
  AirfoilOptions opt = airfoil_options(argc, argv);
  AirfoilMesh m;
  airfoil_read_mesh(opt.mesh, &m);
  set_constants();
  size_t nc = (size_t)m.ncell;
  REAL *x = zeros(2 * (size_t)m.nnode), *q = zeros(4 * nc), *qold = zeros(4 * nc);
  REAL *adt = zeros(nc), *res = zeros(4 * nc);
  for (int n = 0; n < 2 * m.nnode; n++)
    x[n] = (REAL)m.x[n];
  for (size_t n = 0; n < nc; n++)
    for (int k = 0; k < 4; k++)
      q[4 * n + k] = qinf[k];

  REAL rms = 0;
  for (int iter = 1; iter <= opt.iters; iter++) {
    for (int c = 0; c < m.ncell; c++)
      save_soln(&q[4 * c], &qold[4 * c]);
    for (int k = 0; k < 2; k++) {
      for (int c = 0; c < m.ncell; c++) {
        const int *cn = &m.cell[4 * c];
        adt_calc(&x[2 * cn[0]], &x[2 * cn[1]], &x[2 * cn[2]], &x[2 * cn[3]], &q[4 * c], &adt[c]);
      }
      for (int e = 0; e < m.nedge; e++) {
        const int *en = &m.edge[2 * e], *ec = &m.ecell[2 * e];
        res_calc(&x[2 * en[0]], &x[2 * en[1]], &q[4 * ec[0]], &q[4 * ec[1]], &adt[ec[0]],
                 &adt[ec[1]], &res[4 * ec[0]], &res[4 * ec[1]]);
      }
      for (int b = 0; b < m.nbedge; b++) {
        const int *bn = &m.bedge[2 * b], c = m.becell[b];
        bres_calc(&x[2 * bn[0]], &x[2 * bn[1]], &q[4 * c], &adt[c], &res[4 * c], &m.bound[b]);
      }
      rms = 0.0;
      for (int c = 0; c < m.ncell; c++)
        update(&qold[4 * c], &q[4 * c], &res[4 * c], &adt[c], &rms);
    }
    rms = sqrt(rms / (REAL)m.ncell);
    if (iter % opt.print_every == 0)
      airfoil_print_rms(iter, rms, opt.digits);
  }
  airfoil_free_mesh(&m);
  free(x);
  free(q);
  free(qold);
  free(adt);
  free(res);
  return 0;
}
