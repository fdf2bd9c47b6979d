/*
 * meshgen.h: OP2's NACA0012 airfoil mesh (naca0012.m, new-style output),
 * re-derived from its description: a C-grid in a square-root-mapped plane.
 */
#ifndef MESHGEN_H
#define MESHGEN_H

#include <stdio.h>

/* spline.c: MATLAB's not-a-knot cubic spline through (x[k], y[k]), k < n,
 * x strictly increasing, n >= 4, evaluated at xx. */
typedef struct {
  int n;
  double *x, *y;   /* knots (copied) */
  double *coefs;   /* 4 per interval: cubic, quadratic, linear, constant */
} Spline;

void spline_fit(Spline *sp, const double *x, const double *y, int n);
double spline_eval(const Spline *sp, double xx);
void spline_free(Spline *sp);

/* naca.c: node coordinates of the (3I+1) x (J+1) grid, node(i,j) at
 * [(j*(3I+1) + i)] with 0-based i, j. */
void naca_coords(int I, int J, double *X, double *Y);
void linspace(double a, double b, int n, double *out);

/* topology.c: writes the whole mesh file. */
void write_mesh(FILE *f, int I, int J, const double *X, const double *Y);

/* h5.c: the same mesh in OP2's HDF5 layout, with airfoil's initial dats and
 * constants; 0 on success, else 1 after a message. */
int write_mesh_h5(const char *path, int I, int J, const double *X, const double *Y);

#endif
