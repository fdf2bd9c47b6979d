// sqrtf.c: correctly rounded single-precision square root. Tinsel's FPU
// has no fsqrt (tinsel.md §1.1) but multiplies, adds and divides: a
// reciprocal-root estimate from the exponent bits and two of Heron's steps
// in float give the root to within a few units, and the exact remainder in
// integers (one 32-bit multiply) steps it to the IEEE result (round to
// nearest even), so firmware matches the host's sqrtf bit for bit. About 65
// instructions a root in airfoil (71 with three Newton steps of the
// reciprocal root, 86 with those as a loop), where a digit-by-digit loop
// took ~230 (adt_calc takes five roots per cell). The float steps only
// estimate: whatever their rounding (Tinsel's divide and conversions are
// not always correctly rounded), the integer steps decide (at most four
// over every float in [0.5, 2) on the host), so the host tests exercise
// the same answers. Unit-tested on the host against sqrtf.
#include "fwlib.h"

static uint32_t f2u(float f) { union { float f; uint32_t u; } c = { .f = f }; return c.u; }
static float u2f(uint32_t u) { union { uint32_t u; float f; } c = { .u = u }; return c.f; }

float fw_sqrtf(float x) {
  uint32_t ix = f2u(x);
  uint32_t sign = ix >> 31, exp = (ix >> 23) & 0xffu, man = ix & 0x7fffffu;
  if (exp == 0xff) {                     // NaN stays NaN; +inf -> +inf; -inf -> NaN
    if (man || !sign) return x;
    return u2f(0x7fc00000u);
  }
  if (exp == 0 && man == 0) return x;    // +0 and -0
  if (sign) return u2f(0x7fc00000u);     // negative -> default NaN
  int e;
  if (exp == 0) {                        // subnormal: normalise
    e = -126;
    while (!(man & 0x800000u)) { man <<= 1; e--; }
  } else {
    e = (int)exp - 127;
    man |= 0x800000u;
  }
  // x = man * 2^(e-23); with e made even (man in [2^23, 2^25)),
  // sqrt(x) = sqrt(P) * 2^(e/2 - 23) where P = man * 2^23 is in [2^46, 2^48).
  if (e & 1) { man <<= 1; e--; }
  float fp = (float)(int32_t)man * 8388608.0f;  // signed: Tinsel has no fcvt.s.wu
  float y = fp * u2f(0x5f3759dfu - (f2u(fp) >> 1)); // sqrt(P) within 3.5 %
  // Two of Heron's steps (relative error e -> e^2 / 2: 6e-4, then 2e-7,
  // a few units of Q): 7 floating-point operations where three Newton
  // steps of the reciprocal took 13. Tinsel's divide is not always
  // correctly rounded; the integer steps below decide, whatever it gives.
  y = 0.5f * (y + fp / y);
  y = 0.5f * (y + fp / y);
  // Q: the estimate of sqrt(P) as an integer (Tinsel's conversion rounds
  // to nearest where the host's truncates: either is a start).
  uint32_t q = (uint32_t)(int32_t)y;
  // REM = P - Q^2 is within a few times 2^25 of 0, so its low 32 bits are it:
  // Q steps to floor(sqrt(P)), where 0 <= REM <= 2Q.
  int32_t rem = (int32_t)((man << 23) - q * q);
  while (rem < 0) { q--; rem += (int32_t)(2 * q + 1); }
  while (rem > (int32_t)(2 * q)) { rem -= (int32_t)(2 * q + 1); q++; }
  // sqrt(P) is never Q + 1/2 exactly ((Q + 1/2)^2 is not an integer), so it
  // rounds up iff REM > Q. A root of 2^24 carries into the exponent.
  uint32_t r = q + (rem > (int32_t)q);
  int re = e / 2 + 127;
  return u2f(((uint32_t)re << 23) + (r - 0x800000u));
}
