// <math.h> in C++ on the device: <cmath>, and its overloads global too (so
// sqrt(float) is sqrtf there, as with libstdc++).
#ifndef OP2_DEV_CXX_MATH_H
#define OP2_DEV_CXX_MATH_H
#include "op2_math.h"
using std::sqrt; using std::fabs; using std::exp; using std::log; using std::sin; using std::cos;
using std::floor; using std::ceil; using std::pow; using std::fmin; using std::fmax; using std::abs;
#endif
