// op2_abs.h: std::abs for every arithmetic type, as <cstdlib> and <cmath>
// both give it on the host (libstdc++'s bits/std_abs.h); ::abs(int) and
// ::labs are C's.
#ifndef OP2_DEV_ABS_H
#define OP2_DEV_ABS_H
#include "../stdlib.h"
namespace std {
using ::abs;
using ::labs;
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
inline float abs(float x) { return __builtin_fabsf(x); }
inline double abs(double x) { return __builtin_fabs(x); }
} // namespace std
#endif
