// libgcc_double.c: the libgcc soft-double entry points gcc calls for
// `double` under -mabi=ilp32f, on softdouble.c. They replace libgcc's own,
// which read the rounding mode with csrrs and divide with div (Tinsel has
// neither). Doubles travel in integer registers under ilp32f, floats in
// FP registers, exactly as these C definitions compile.
#include <math.h>
#include <stdint.h>
#include "fwlib.h"

static uint64_t B(double d) { union { double d; uint64_t u; } c = { .d = d }; return c.u; }
static double D(uint64_t u) { union { uint64_t u; double d; } c = { .u = u }; return c.d; }
static uint32_t FB(float f) { union { float f; uint32_t u; } c = { .f = f }; return c.u; }
static float F(uint32_t u) { union { uint32_t u; float f; } c = { .u = u }; return c.f; }

double __adddf3(double a, double b);
double __subdf3(double a, double b);
double __muldf3(double a, double b);
double __divdf3(double a, double b);
double __negdf2(double a);
int __eqdf2(double a, double b);
int __nedf2(double a, double b);
int __ltdf2(double a, double b);
int __ledf2(double a, double b);
int __gtdf2(double a, double b);
int __gedf2(double a, double b);
int __unorddf2(double a, double b);
double __floatsidf(int32_t v);
double __floatunsidf(uint32_t v);
double __floatdidf(int64_t v);
double __floatundidf(uint64_t v);
int32_t __fixdfsi(double a);
uint32_t __fixunsdfsi(double a);
int64_t __fixdfdi(double a);
uint64_t __fixunsdfdi(double a);
double __extendsfdf2(float a);
float __truncdfsf2(double a);

double __adddf3(double a, double b) { return D(fw_dadd(B(a), B(b))); }
double __subdf3(double a, double b) { return D(fw_dsub(B(a), B(b))); }
double __muldf3(double a, double b) { return D(fw_dmul(B(a), B(b))); }
double __divdf3(double a, double b) { return D(fw_ddiv(B(a), B(b))); }
double __negdf2(double a) { return D(B(a) ^ ((uint64_t)1 << 63)); }
// Comparisons: the sign of the result answers the question; a NaN makes
// the answer "false" for each predicate.
int __eqdf2(double a, double b) { return fw_dcmp(B(a), B(b), 1); }
int __nedf2(double a, double b) { return fw_dcmp(B(a), B(b), 1); }
int __ltdf2(double a, double b) { return fw_dcmp(B(a), B(b), 1); }
int __ledf2(double a, double b) { return fw_dcmp(B(a), B(b), 1); }
int __gtdf2(double a, double b) { return fw_dcmp(B(a), B(b), -1); }
int __gedf2(double a, double b) { return fw_dcmp(B(a), B(b), -1); }
int __unorddf2(double a, double b) { return fw_dcmp(B(a), B(b), 2) == 2; }
double __floatsidf(int32_t v) { return D(fw_dfrom_i64(v)); }
double __floatunsidf(uint32_t v) { return D(fw_dfrom_u64(v)); }
double __floatdidf(int64_t v) { return D(fw_dfrom_i64(v)); }
double __floatundidf(uint64_t v) { return D(fw_dfrom_u64(v)); }
int32_t __fixdfsi(double a) {
  int64_t v = fw_dto_i64(B(a));
  return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}
uint32_t __fixunsdfsi(double a) {
  uint64_t v = fw_dto_u64(B(a));
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}
int64_t __fixdfdi(double a) { return fw_dto_i64(B(a)); }
uint64_t __fixunsdfdi(double a) { return fw_dto_u64(B(a)); }
double __extendsfdf2(float a) { return D(fw_dfrom_f32(FB(a))); }
float __truncdfsf2(double a) { return F(fw_dto_f32(B(a))); }

double sqrt(double x) { return D(fw_dsqrt(B(x))); }
