#ifndef FLUX_H
#define FLUX_H
// Kernel in a header found through -I include.
inline double weight(double a) { return coeffs[0] * a + coeffs[3]; }

inline void flux(const double *x1, const double *x2, double *r1, double *r2) {
  double f = weight(x1[0] - x2[0]); /* op_par_loop(flux, "not a call", s) */
  *r1 += f;
  *r2 -= f;
}
#endif
