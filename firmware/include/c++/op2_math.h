// op2_math.h: the device's C++ math, shared by <cmath> and <math.h> (which
// also brings the std:: overloads into the global namespace, as
// libstdc++'s <math.h> does for a C++ program). As on the host: the float
// overloads call the float functions (sqrt(float) is firmware/lib's
// correctly rounded sqrtf), an integer argument is taken as double.
#ifndef OP2_DEV_MATH_H
#define OP2_DEV_MATH_H
#include "../math.h"
#include "op2_abs.h"

namespace std {
#define OP2_DEV_MATH1(name)                                                    \
  using ::name;                                                                \
  inline float name(float x) { return ::name##f(x); }                          \
  template <class T> inline double name(T x) { return ::name((double)x); }
#define OP2_DEV_MATH2(name)                                                    \
  using ::name;                                                                \
  inline float name(float x, float y) { return ::name##f(x, y); }              \
  template <class T, class U> inline double name(T x, U y) { return ::name((double)x, (double)y); }
OP2_DEV_MATH1(sqrt) OP2_DEV_MATH1(fabs) OP2_DEV_MATH1(exp) OP2_DEV_MATH1(log) OP2_DEV_MATH1(sin)
OP2_DEV_MATH1(cos) OP2_DEV_MATH1(floor) OP2_DEV_MATH1(ceil)
OP2_DEV_MATH2(pow) OP2_DEV_MATH2(fmin) OP2_DEV_MATH2(fmax)
#undef OP2_DEV_MATH1
#undef OP2_DEV_MATH2
using ::sqrtf; using ::fabsf; using ::expf; using ::logf; using ::sinf; using ::cosf;
using ::floorf; using ::ceilf; using ::powf; using ::fminf; using ::fmaxf;
} // namespace std
#endif
