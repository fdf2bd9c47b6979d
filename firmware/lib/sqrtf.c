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
  // x = man * 2^(e-23). Make the exponent even, then the root of
  // man * 2^(24 or 25) has 25 bits: 24 result bits plus a rounding bit.
  uint64_t m = man;
  if (e & 1) { m <<= 1; e--; }
  m <<= 25;                               // root(m) ~ 2^24 .. 2^25
  uint64_t root = 0, rem = 0;
  for (int i = 62; i >= 0; i -= 2) {      // digit by digit, two bits at a time
    rem = (rem << 2) | ((m >> i) & 3u);
    uint64_t trial = (root << 2) | 1u;
    root <<= 1;
    if (rem >= trial) { rem -= trial; root |= 1u; }
  }
  // root has 25 significant bits: the last one is the half-ulp bit.
  uint32_t r = (uint32_t)root;
  uint32_t half = r & 1u;
  r >>= 1;
  if (half && (rem != 0 || (r & 1u))) r++; // exact ties cannot occur; rem!=0 means above half
  int re = e / 2 + 127;
  return u2f(((uint32_t)re << 23) + (r - 0x800000u));
}
