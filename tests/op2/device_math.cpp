// device_math: kernels calling the C++ math the device has (docs/op2-api.md
// "Kernels on the device"): std::min, std::max, std::abs, std::pow, fabs,
// fmin, fmax, pow, exp, log, sin, cos, floor, ceil and sqrt, on float and
// on double, and printf. The device runs them as C++ with firmware/'s
// headers, picolibc's libm and firmware/lib's sqrtf, sqrt, fmin and fmax;
// the host loop below computes the same expressions with the system's.
// Exactly equal where both sides are correctly rounded or exact (sqrt,
// fabs, fmin, fmax, floor, ceil, min, max, abs); exp, log, pow, sin and
// cos within 1 ulp (glibc and picolibc need not round them alike).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "op_seq.h"
#include "op2_check.h"

#define N 16
#define NF 17
#define ND 14

inline void math_f(const float *x, float *r) {
  float v = *x;
  r[0] = sqrt(v); // sqrtf: <math.h> gives C++ programs the float overloads
  r[1] = fabs(v - 2.0f);
  r[2] = fmin(v, 1.5f);
  r[3] = fmax(v, 1.5f);
  r[4] = std::min(v, 2.5f);
  r[5] = std::max(v, 2.5f);
  r[6] = std::abs(1.0f - v);
  r[7] = floor(v * 1.7f);
  r[8] = ceil(v * 1.7f);
  r[9] = std::pow(v, 1.5f);
  r[10] = pow(v + 1.0f, 0.25f);
  r[11] = exp(v * 0.3f);
  r[12] = log(v + 0.5f);
  r[13] = sin(v);
  r[14] = cos(v);
  r[15] = (float)std::abs(3 - (int)v);
  r[16] = sqrt(v) * 0.5f + fabs(v) * 0.25f;
}

inline void math_d(const double *y, double *r) {
  double v = *y;
  r[0] = sqrt(v);
  r[1] = fabs(v - 2.0);
  r[2] = fmin(v, 1.5);
  r[3] = std::max(v, 2.5);
  r[4] = floor(v * 1.7);
  r[5] = ceil(v * 1.7);
  r[6] = std::pow(v, 1.5);
  r[7] = exp(v * 0.3);
  r[8] = log(v + 0.5);
  r[9] = sin(v);
  r[10] = cos(v);
  r[11] = std::min(v, 2.5);
  r[12] = fmax(v, 1.5);
  r[13] = std::abs(1.0 - v);
  if (v == 2.0)
    printf("math_d: %d\n", (int)floor(v * 10.0));
}

// Units in the last place between a and b (0 if equal).
template <class T> static long long ulps(T a, T b) {
  if (a == b)
    return 0;
  long long n = 0;
  for (T t = a; t != b && n < 4; n++)
    t = std::nextafter(t, b);
  return n;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 2);
  float x[N], rf[N * NF], wf[N * NF];
  double y[N], rd[N * ND], wd[N * ND];
  for (int i = 0; i < N; i++)
    x[i] = 0.37f * (float)i + 0.1f, y[i] = 0.25 * i;
  op_set s = op_decl_set(N, "s");
  op_dat p_x = op_decl_dat(s, 1, "float", x, "p_x");
  op_dat p_y = op_decl_dat(s, 1, "double", y, "p_y");
  op_dat p_rf = op_decl_dat(s, NF, "float", rf, "p_rf");
  op_dat p_rd = op_decl_dat(s, ND, "double", rd, "p_rd");
  op_par_loop(math_f, "math_f", s, op_arg_dat(p_x, -1, OP_ID, 1, "float", OP_READ),
              op_arg_dat(p_rf, -1, OP_ID, NF, "float", OP_WRITE));
  op_par_loop(math_d, "math_d", s, op_arg_dat(p_y, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_rd, -1, OP_ID, ND, "double", OP_WRITE));
  op_fetch_data(p_rf, rf);
  op_fetch_data(p_rd, rd);
  // Expected: the same kernels on the host. '~': within an ulp, '=': exactly.
  const char *loose_f = "=========~~~~~~==", *loose_d = "======~~~~~===";
  int worst_f = 0, worst_d = 0;
  for (int i = 0; i < N; i++) {
    math_f(&x[i], &wf[i * NF]);
    math_d(&y[i], &wd[i * ND]);
    for (int k = 0; k < NF; k++) {
      int u = (int)ulps(rf[i * NF + k], wf[i * NF + k]);
      worst_f = std::max(worst_f, u);
      if (u)
        printf("device_math: math_f r[%d] at x = %a: %d ulp\n", k, x[i], u);
      if (u > (loose_f[k] == '~'))
        CHECK_EQ_D(rf[i * NF + k], wf[i * NF + k]);
    }
    for (int k = 0; k < ND; k++) {
      int u = (int)ulps(rd[i * ND + k], wd[i * ND + k]);
      worst_d = std::max(worst_d, u);
      if (u)
        printf("device_math: math_d r[%d] at y = %a: %d ulp\n", k, y[i], u);
      if (u > (loose_d[k] == '~'))
        CHECK_EQ_D(rd[i * ND + k], wd[i * ND + k]);
    }
  }
  printf("device_math: largest difference from the host: %d ulp (float), %d ulp (double)\n", worst_f, worst_d);
  op_exit();
  return check_finish("device_math");
}
