/* tsim_fpu.c: RV32F arithmetic for the models (DPI-C tsim_fp), bit-exact
   IEEE single on the host FPU. Decodes the instruction itself (funct5, the
   rs2 field and rm), so no operation table is kept in step with the RTL.
   Rounding: the static rm; dynamic rm (7) is RNE since FRM reads 0. RMM has
   no C rounding mode: the result is computed in double, where it lands on a
   float midpoint only when the exact result does (sqrt never does), and a
   tie goes away from zero. NaN results are canonical. */
#include "tsim_fpu.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { CANONICAL_NAN = 0x7fc00000u };

static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u_of(float f) {
  uint32_t u;
  if (isnan(f)) return CANONICAL_NAN;
  memcpy(&u, &f, 4);
  return u;
}

static int host_mode(unsigned rm) {
  switch (rm) {
  case 1: return FE_TOWARDZERO;
  case 2: return FE_DOWNWARD;
  case 3: return FE_UPWARD;
  default: return FE_TONEAREST;
  }
}

static int is_snan(uint32_t u) { return (u & 0x7fc00000u) == 0x7f800000u && (u & 0x003fffffu); }

/* fclass.s: one bit set, from the bits. */
static uint32_t fclass(uint32_t u) {
  uint32_t sign = u >> 31, exp = (u >> 23) & 0xff, man = u & 0x7fffff;
  if (exp == 0xff) return man == 0 ? (sign ? 1u << 0 : 1u << 7) : is_snan(u) ? 1u << 8 : 1u << 9;
  if (exp == 0) return man == 0 ? (sign ? 1u << 3 : 1u << 4) : (sign ? 1u << 2 : 1u << 5);
  return sign ? 1u << 1 : 1u << 6;
}

/* fmin/fmax (2019 spec): a NaN operand yields the other; -0 < +0. */
static uint32_t fminmax(uint32_t a, uint32_t b, int max) {
  float x = f_of(a), y = f_of(b);
  if (isnan(x) && isnan(y)) return CANONICAL_NAN;
  if (isnan(x)) return b;
  if (isnan(y)) return a;
  if (x == y) return max ? (a & b) : (a | b);  /* equal: sign bits decide for +-0 */
  return (x < y) != max ? a : b;
}

/* fcvt.w[u].s: round by the mode, then saturate as RISC-V specifies. */
static uint32_t to_int(uint32_t a, unsigned rm, int is_unsigned) {
  float x = f_of(a);
  double r;
  if (isnan(x)) return is_unsigned ? 0xffffffffu : 0x7fffffffu;
  switch (rm) {
  case 1: r = trunc(x); break;
  case 2: r = floor(x); break;
  case 3: r = ceil(x); break;
  case 4: r = round(x); break;
  default: r = nearbyint(x); break;  /* the host is in RNE here */
  }
  if (is_unsigned) {
    if (r <= -1.0) return 0;
    if (r < 0.0) return 0;
    if (r >= 4294967296.0) return 0xffffffffu;
    return (uint32_t)r;
  }
  if (r < -2147483648.0) return 0x80000000u;
  if (r >= 2147483648.0) return 0x7fffffffu;
  return (uint32_t)(int32_t)r;
}

/* RMM: round d + err (err: the exact remainder of a double sum, 0 when d is
   exact) to float, ties away from zero. */
static float round_rmm(double d, double err) {
  float r = (float)d;  /* host RNE */
  if (!isfinite(d) || ((double)r == d && err == 0)) return r;
  fesetround(FE_TOWARDZERO);
  volatile float lo = (float)d;
  fesetround(FE_TONEAREST);
  float hi = nextafterf(lo, d > 0 ? INFINITY : -INFINITY);
  if ((double)lo == d) return lo;  /* a float plus a remainder far below its ulp */
  if (d - (double)lo != (double)hi - d) return r;  /* not a midpoint: d rounds like the exact value */
  return err == 0 || (err > 0) == (d > 0) ? hi : lo;
}

uint32_t tsim_fp_op(uint32_t instr, uint32_t a, uint32_t b, uint32_t c) {
  unsigned opcode = instr & 0x7f, f3 = (instr >> 12) & 7, funct5 = instr >> 27, rs2 = (instr >> 20) & 31;
  unsigned rm = f3 == 7 ? 0 : f3;
  volatile float x = f_of(a), y = f_of(b), z = f_of(c);
  volatile float r = 0;
  int mode = host_mode(rm);
  if (mode != FE_TONEAREST) fesetround(mode);
  uint32_t out;
  if (opcode != 0x53) {  /* fused: fmadd, fmsub, fnmsub, fnmadd */
    float p = (opcode == 0x4b || opcode == 0x4f) ? -x : x;
    float q = (opcode == 0x47 || opcode == 0x4f) ? -z : z;
    if (rm == 4) {
      double prod = (double)p * (double)y;  /* exact */
      double s = prod + (double)q, back = s - prod;
      r = round_rmm(s, (prod - (s - back)) + ((double)q - back));  /* TwoSum remainder */
    } else {
      r = fmaf(p, y, q);
    }
    out = u_of(r);
  } else if (rm == 4 && (funct5 <= 0x03 || funct5 == 0x1a)) {
    /* RMM where ties can occur: add, sub, mul, fcvt.s.w[u] (exact in double) and
       div (subnormal results; a double quotient lands on a float midpoint only
       when the exact one does). */
    double d = funct5 == 0x00 ? (double)x + (double)y : funct5 == 0x01 ? (double)x - (double)y
             : funct5 == 0x02 ? (double)x * (double)y : funct5 == 0x03 ? (double)x / (double)y
             : (rs2 & 1) ? (double)a : (double)(int32_t)a;
    r = round_rmm(d, 0);
    out = u_of(r);
  } else {
    switch (funct5) {
    case 0x00: r = x + y; out = u_of(r); break;
    case 0x01: r = x - y; out = u_of(r); break;
    case 0x02: r = x * y; out = u_of(r); break;
    case 0x03: r = x / y; out = u_of(r); break;
    case 0x0b: r = sqrtf(x); out = u_of(r); break;
    case 0x05: out = fminmax(a, b, f3 == 1); break;
    case 0x14: out = f3 == 2 ? x == y : f3 == 1 ? x < y : x <= y; break;
    case 0x18: out = to_int(a, rm, rs2 & 1); break;
    case 0x1a: r = (rs2 & 1) ? (float)a : (float)(int32_t)a; out = u_of(r); break;
    case 0x1c: out = fclass(a); break;
    default: out = 0; break;
    }
  }
  if (mode != FE_TONEAREST) fesetround(FE_TONEAREST);
  return out;
}
