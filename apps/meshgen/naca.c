/*
 * naca.c: grid coordinates. The NACA0012 upper surface is mapped through
 * z = sqrt(x - x0 + iy), which opens the airfoil into a nearly flat line;
 * the grid is uniform in that plane (a vertical line per column, from the
 * airfoil or the wake cut up to 3) and z^2 maps it back.
 */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#undef I /* complex.h's imaginary unit; I is the grid size here */

#include "meshgen.h"

#define NSURF 100       /* points on the upper surface */
#define SHIFT 0.0077    /* x0: moves the branch point inside the leading edge */
#define PI 3.14159265358979323846

/* MATLAB's linspace: a + (k*(b-a))/(n-1), with the last point exactly b. */
void linspace(double a, double b, int n, double *out) {
  if (n == 1) {
    out[0] = b;
    return;
  }
  for (int k = 0; k < n; k++)
    out[k] = a + (k * (b - a)) / (n - 1);
  out[0] = a;
  out[n - 1] = b;
}

static double naca0012(double x) {
  return 0.594689181 * (0.298222773 * sqrt(x) - 0.127125232 * x - 0.357907906 * pow(x, 2) +
                        0.291984971 * pow(x, 3) - 0.105174696 * pow(x, 4));
}

/* The mirrored surface in the z-plane: 2*NSURF-1 points, real parts increasing. */
static void surface(double *re, double *im) {
  double t[NSURF];
  double complex z[NSURF];
  linspace(0, PI / 2, NSURF, t);
  for (int k = 0; k < NSURF; k++) {
    double x = sin(t[k]) * sin(t[k]);
    double y = k == NSURF - 1 ? 0.0 : naca0012(x);
    z[k] = csqrt(CMPLX(x - SHIFT, y));
  }
  for (int k = 0; k < NSURF; k++) { /* -conj(z) of the reversed curve, then z[1..] */
    re[k] = -creal(z[NSURF - 1 - k]);
    im[k] = cimag(z[NSURF - 1 - k]);
  }
  for (int k = 1; k < NSURF; k++) {
    re[NSURF - 1 + k] = creal(z[k]);
    im[NSURF - 1 + k] = cimag(z[k]);
  }
}

void naca_coords(int I, int J, double *X, double *Y) {
  int ni = 3 * I + 1;
  double re[2 * NSURF - 1], im[2 * NSURF - 1];
  double *xb = malloc(sizeof(double) * (size_t)ni);
  double *yg = malloc(sizeof(double) * (size_t)(J + 1));
  if (!xb || !yg) {
    fprintf(stderr, "meshgen: out of memory\n");
    exit(1);
  }
  Spline sp;
  surface(re, im);
  spline_fit(&sp, re, im, 2 * NSURF - 1);
  linspace(-3, 3, ni, xb);
  for (int i = 0; i < ni; i++) {
    /* Columns I+2..2I (1-based) lie on the airfoil; the others start on the cut. */
    double yb = (i >= I + 1 && i <= 2 * I - 1) ? spline_eval(&sp, xb[i]) : 0.0;
    linspace(yb, 3, J + 1, yg);
    for (int j = 0; j <= J; j++) {
      X[(size_t)j * ni + i] = xb[i] * xb[i] - yg[j] * yg[j];
      Y[(size_t)j * ni + i] = 2 * xb[i] * yg[j];
    }
  }
  spline_free(&sp);
  free(xb);
  free(yg);
}
