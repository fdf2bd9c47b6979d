// math.h: what firmware gets. sqrtf and sqrt are software and correctly
// rounded (Tinsel has no fsqrt; double is all software); fabs and fabsf
// only clear the sign; fmin/fmax and their f forms are firmware/lib's
// (fminmax.c: Tinsel has no fmin.s). The others are picolibc's libm, the
// rv32if/ilp32f build (no M, so no divide; firmware/rules.mk). C++ gets
// firmware/include/c++/math.h instead, with the float overloads.
#ifndef FW_MATH_H
#define FW_MATH_H
#ifdef __cplusplus
extern "C" {
#endif
float sqrtf(float x);
double sqrt(double x);
static inline float fabsf(float x) { return __builtin_fabsf(x); }
static inline double fabs(double x) { return __builtin_fabs(x); }
#define FW_MATH_FN1(name) double name(double x); float name##f(float x);
#define FW_MATH_FN2(name) double name(double x, double y); float name##f(float x, float y);
FW_MATH_FN1(exp) FW_MATH_FN1(log) FW_MATH_FN1(sin) FW_MATH_FN1(cos) FW_MATH_FN1(floor) FW_MATH_FN1(ceil)
FW_MATH_FN2(pow) FW_MATH_FN2(fmin) FW_MATH_FN2(fmax)
#undef FW_MATH_FN1
#undef FW_MATH_FN2
#ifdef __cplusplus
}
#endif
#endif
