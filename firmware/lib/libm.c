// libm.c: the maths firmware/lib has instead of picolibc's (the libm OP2
// kernels link: firmware/rules.mk FW_PICOLIBC), where picolibc's rv32if
// build uses what real Tinsel lacks (tinsel.md §1.1; op2c's checkelf run
// finds any): fsqrt, fmin/fmax, fclass.
//   sqrtf   software and correctly rounded (fw_sqrtf); sqrt is
//           libgcc_double.c's.
//   fmin, fmax and their f forms: plain comparisons, ordered as x86's
//           minss/maxss, which glibc's come to: NaN gives the other
//           argument, equal arguments (+0 and -0) the second.
//   powf    picolibc's takes y == 0.5 to fsqrt.s; here the double pow
//           (picolibc's, soft double) rounded to float.
//   __math_invalid, __math_invalidf: picolibc's error paths (NaN for a
//           domain error, with errno in picolibc) use fclass; no errno here.
#include <math.h>
#include "fwlib.h"

float sqrtf(float x) { return fw_sqrtf(x); }

float fminf(float x, float y) { return x != x ? y : y != y ? x : x < y ? x : y; }
float fmaxf(float x, float y) { return x != x ? y : y != y ? x : x > y ? x : y; }
double fmin(double x, double y) { return x != x ? y : y != y ? x : x < y ? x : y; }
double fmax(double x, double y) { return x != x ? y : y != y ? x : x > y ? x : y; }

float powf(float x, float y) { return (float)pow(x, y); }

float __math_invalidf(float x);
double __math_invalid(double x);
float __math_invalidf(float x) { return (x - x) / (x - x); }
double __math_invalid(double x) { return (x - x) / (x - x); }
