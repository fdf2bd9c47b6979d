// math.h: what firmware gets. sqrtf is software (Tinsel has no fsqrt)
// and correctly rounded; fabsf compiles to fsgnjx.
#ifndef FW_MATH_H
#define FW_MATH_H
float sqrtf(float x);
static inline float fabsf(float x) { return __builtin_fabsf(x); }
#endif
