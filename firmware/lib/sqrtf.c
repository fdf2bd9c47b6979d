// sqrtf.c: correctly rounded single-precision square root in integer
// arithmetic. Tinsel's FPU has no fsqrt (tinsel.md §1.1); this gives the
// bit-exact IEEE result (round to nearest even), so firmware matches the
// host's sqrtf. Pure C: unit-tested on the host against sqrtf.
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
  // x = man * 2^(e-23). Make the exponent even; then the root of
  // N = man * 2^25 (or 2^26) has 25 bits: 24 result bits plus a rounding bit.
  if (e & 1) { man <<= 1; e--; }
  // Digit by digit, one root bit b = 2^j per step (j = 24..0), in 32-bit
  // words (RV32 has no 64-bit arithmetic; this is ~4x fewer instructions
  // than working on N itself). rem is the remainder N - root^2 scaled by
  // 2^-j, so it doubles as j falls; two_root is 2 * root. Bit b belongs to
  // the root iff (root + b)^2 <= N, i.e. two_root + b <= rem. rem stays
  // below 2^28.
  uint32_t rem = man << 1, root = 0, two_root = 0;
  for (uint32_t b = 1u << 24; b; b >>= 1) {
    uint32_t t = two_root + b;
    if (t <= rem) { rem -= t; two_root = t + b; root += b; }
    rem <<= 1;
  }
  // root has 25 significant bits: the last one is the half-ulp bit.
  uint32_t r = root;
  uint32_t half = r & 1u;
  r >>= 1;
  if (half && (rem != 0 || (r & 1u))) r++; // exact ties cannot occur; rem!=0 means above half
  int re = e / 2 + 127;
  return u2f(((uint32_t)re << 23) + (r - 0x800000u));
}
