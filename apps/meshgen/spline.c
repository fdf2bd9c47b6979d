/*
 * spline.c: MATLAB's `spline` with not-a-knot end conditions. Slopes s solve
 * a tridiagonal system (plain elimination, no pivoting, as MATLAB's banded
 * solve does on this diagonally dominant system); each interval is then a
 * cubic Hermite piece evaluated in nested form.
 */
#include <stdlib.h>
#include <string.h>

#include "meshgen.h"

static double *dalloc(int n) {
  double *p = calloc((size_t)n, sizeof(double));
  if (!p) {
    fprintf(stderr, "meshgen: out of memory\n");
    exit(1);
  }
  return p;
}

/* Tridiagonal solve: sub[i] s[i-1] + diag[i] s[i] + sup[i] s[i+1] = rhs[i]. */
static void tridiag_solve(int n, const double *sub, double *diag, const double *sup, double *rhs,
                          double *s) {
  for (int i = 1; i < n; i++) {
    double w = sub[i] / diag[i - 1];
    diag[i] = diag[i] - w * sup[i - 1];
    rhs[i] = rhs[i] - w * rhs[i - 1];
  }
  s[n - 1] = rhs[n - 1] / diag[n - 1];
  for (int i = n - 2; i >= 0; i--)
    s[i] = (rhs[i] - sup[i] * s[i + 1]) / diag[i];
}

/* Not-a-knot slopes (0-based transcription of MATLAB's equations). */
static void notaknot_slopes(int n, const double *x, const double *dx, const double *dd,
                            double *s) {
  double *sub = dalloc(n), *diag = dalloc(n), *sup = dalloc(n), *rhs = dalloc(n);
  double x31 = x[2] - x[0], xn = x[n - 1] - x[n - 3];
  diag[0] = dx[1];
  sup[0] = x31;
  rhs[0] = ((dx[0] + 2 * x31) * dx[1] * dd[0] + dx[0] * dx[0] * dd[1]) / x31;
  for (int i = 1; i < n - 1; i++) {
    sub[i] = dx[i];
    diag[i] = 2 * (dx[i] + dx[i - 1]);
    sup[i] = dx[i - 1];
    rhs[i] = 3 * (dx[i] * dd[i - 1] + dx[i - 1] * dd[i]);
  }
  sub[n - 1] = xn;
  diag[n - 1] = dx[n - 3];
  rhs[n - 1] = (dx[n - 2] * dx[n - 2] * dd[n - 3] + (2 * xn + dx[n - 2]) * dx[n - 3] * dd[n - 2]) / xn;
  tridiag_solve(n, sub, diag, sup, rhs, s);
  free(sub);
  free(diag);
  free(sup);
  free(rhs);
}

void spline_fit(Spline *sp, const double *x, const double *y, int n) {
  double *dx = dalloc(n), *dd = dalloc(n), *s = dalloc(n);
  for (int k = 0; k < n - 1; k++) {
    dx[k] = x[k + 1] - x[k];
    dd[k] = (y[k + 1] - y[k]) / dx[k];
  }
  notaknot_slopes(n, x, dx, dd, s);
  sp->n = n;
  sp->x = dalloc(n);
  sp->y = dalloc(n);
  memcpy(sp->x, x, sizeof(double) * (size_t)n);
  memcpy(sp->y, y, sizeof(double) * (size_t)n);
  sp->coefs = dalloc(4 * (n - 1));
  for (int k = 0; k < n - 1; k++) {
    double dzzdx = (dd[k] - s[k]) / dx[k];
    double dzdxdx = (s[k + 1] - dd[k]) / dx[k];
    double *c = &sp->coefs[4 * k];
    c[0] = (dzdxdx - dzzdx) / dx[k];
    c[1] = 2 * dzzdx - dzdxdx;
    c[2] = s[k];
    c[3] = y[k];
  }
  free(dx);
  free(dd);
  free(s);
}

/* The piece with x[k] <= xx < x[k+1]; the end pieces extend outwards. */
double spline_eval(const Spline *sp, double xx) {
  int k = 0;
  while (k < sp->n - 2 && xx >= sp->x[k + 1])
    k++;
  const double *c = &sp->coefs[4 * k];
  double t = xx - sp->x[k];
  double v = c[0];
  v = t * v + c[1];
  v = t * v + c[2];
  v = t * v + c[3];
  return v;
}

void spline_free(Spline *sp) {
  free(sp->x);
  free(sp->y);
  free(sp->coefs);
  memset(sp, 0, sizeof(*sp));
}
