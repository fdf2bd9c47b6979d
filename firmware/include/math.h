// math.h: what firmware gets. sqrtf and sqrt are software and correctly
// rounded (Tinsel has no fsqrt; double is all software); fabs and fabsf
// only clear the sign.
#ifndef FW_MATH_H
#define FW_MATH_H
float sqrtf(float x);
double sqrt(double x);
static inline float fabsf(float x) { return __builtin_fabsf(x); }
static inline double fabs(double x) { return __builtin_fabs(x); }
#endif
