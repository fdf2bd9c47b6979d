// softdouble.c: IEEE double arithmetic in integer code, correctly rounded
// (round to nearest even, Tinsel's only mode), with subnormals, infinities
// and NaNs (results are the default NaN; no exception flags). Firmware
// needs it because libgcc's rv32imf soft double reads the rounding mode
// with csrrs and divides with div, neither of which Tinsel has. Pure C on
// bit patterns: the host tests compare it with the host's doubles.
//
// Internally a finite non-zero value is (sign, e, m): m has its leading one
// at bit 62, and the value is (m / 2^62) * 2^(e - 1023); bits below the 53
// kept ones are guard bits, with anything shifted out "jammed" into bit 0.
#include "fwlib.h"

#define FRAC_BITS 52
#define EXP_MAX   0x7ff
#define BIAS      1023
#define D_NAN     0x7ff8000000000000ull
#define D_INF     0x7ff0000000000000ull
#define LEAD      ((uint64_t)1 << 62)

static uint64_t sign_of(uint64_t x) { return x & ((uint64_t)1 << 63); }
static int exp_of(uint64_t x) { return (int)((x >> FRAC_BITS) & EXP_MAX); }
static uint64_t frac_of(uint64_t x) { return x & (((uint64_t)1 << FRAC_BITS) - 1); }
static int is_nan(uint64_t x) { return exp_of(x) == EXP_MAX && frac_of(x); }
static int is_inf(uint64_t x) { return exp_of(x) == EXP_MAX && !frac_of(x); }
static int is_zero(uint64_t x) { return (x << 1) == 0; }

// Shift right, keeping a trace of any lost one bits in bit 0.
static uint64_t jam(uint64_t m, int s) {
  if (s <= 0) return m;
  if (s >= 63) return m != 0;
  return (m >> s) | ((m & (((uint64_t)1 << s) - 1)) != 0);
}

// Shift m left until its leading one is at bit 62; adjust e.
static void normalise(int *e, uint64_t *m) {
  while (!(*m & LEAD)) { *m <<= 1; (*e)--; }
}

// Finite non-zero x -> (e, m).
static void unpack(uint64_t x, int *e, uint64_t *m) {
  *e = exp_of(x);
  if (*e == 0) {                          // subnormal: scale of exponent 1
    *e = 1;
    *m = frac_of(x) << 10;
    normalise(e, m);
  } else {
    *m = (frac_of(x) | ((uint64_t)1 << FRAC_BITS)) << 10;
  }
}

// Round (sign, e, m) to a double. m == 0 gives a signed zero.
static uint64_t round_pack(uint64_t sign, int e, uint64_t m) {
  if (m == 0) return sign;
  if (e >= EXP_MAX) return sign | D_INF;
  int sub = e <= 0;
  if (sub) m = jam(m, 1 - e);             // to the scale of exponent 1
  uint64_t low = m & 0x3ff;
  m >>= 10;
  if (low > 0x200 || (low == 0x200 && (m & 1))) m++;
  // A carry out of the mantissa bumps the exponent field by itself, up to
  // infinity (field 0x7ff, fraction 0); a subnormal may round up to normal.
  if (sub) return sign | m;
  return sign | (((uint64_t)(e - 1) << FRAC_BITS) + m);
}

uint64_t fw_dadd(uint64_t a, uint64_t b) {
  if (is_nan(a) || is_nan(b)) return D_NAN;
  if (is_inf(a)) return is_inf(b) && sign_of(a) != sign_of(b) ? D_NAN : a;
  if (is_inf(b)) return b;
  if (is_zero(a)) return is_zero(b) ? (a & b) : b;   // -0 + -0 = -0, else +0
  if (is_zero(b)) return a;
  int ea, eb;
  uint64_t ma, mb, sa = sign_of(a), sb = sign_of(b);
  unpack(a, &ea, &ma);
  unpack(b, &eb, &mb);
  if (ea < eb || (ea == eb && ma < mb)) {  // make a the larger magnitude
    int te = ea; ea = eb; eb = te;
    uint64_t t = ma; ma = mb; mb = t;
    t = sa; sa = sb; sb = t;
  }
  mb = jam(mb, ea - eb);
  if (sa == sb) {
    uint64_t m = ma + mb;
    if (m >> 63) { m = jam(m, 1); ea++; }
    return round_pack(sa, ea, m);
  }
  uint64_t m = ma - mb;
  if (m == 0) return 0;                    // exact cancellation: +0
  normalise(&ea, &m);
  return round_pack(sa, ea, m);
}

uint64_t fw_dsub(uint64_t a, uint64_t b) {
  return fw_dadd(a, is_nan(b) ? b : b ^ ((uint64_t)1 << 63));
}

// 64 x 64 -> 128 bits (hi, lo) from 32-bit halves.
static void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
  uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
  *lo = (mid << 32) | (uint32_t)p00;
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

uint64_t fw_dmul(uint64_t a, uint64_t b) {
  uint64_t sign = sign_of(a ^ b);
  if (is_nan(a) || is_nan(b)) return D_NAN;
  if (is_inf(a) || is_inf(b)) return is_zero(a) || is_zero(b) ? D_NAN : sign | D_INF;
  if (is_zero(a) || is_zero(b)) return sign;
  int ea, eb;
  uint64_t ma, mb, hi, lo;
  unpack(a, &ea, &ma);
  unpack(b, &eb, &mb);
  mul128(ma >> 10, mb >> 10, &hi, &lo);   // 53 x 53 bits: product in [2^104, 2^106)
  int e = ea + eb - BIAS;
  int s = 42;                             // bring the leading one to bit 62
  if (hi >> (105 - 64)) { s = 43; e++; }
  uint64_t m = (hi << (64 - s)) | (lo >> s) | ((lo & (((uint64_t)1 << s) - 1)) != 0);
  return round_pack(sign, e, m);
}

uint64_t fw_ddiv(uint64_t a, uint64_t b) {
  uint64_t sign = sign_of(a ^ b);
  if (is_nan(a) || is_nan(b)) return D_NAN;
  if (is_inf(a)) return is_inf(b) ? D_NAN : sign | D_INF;
  if (is_inf(b)) return sign;
  if (is_zero(b)) return is_zero(a) ? D_NAN : sign | D_INF;
  if (is_zero(a)) return sign;
  int ea, eb;
  uint64_t ma, mb;
  unpack(a, &ea, &ma);
  unpack(b, &eb, &mb);
  uint64_t r = ma >> 10, d = mb >> 10;    // 53-bit mantissas
  int e = ea - eb + BIAS;
  if (r < d) { r <<= 1; e--; }            // quotient in [1, 2)
  uint64_t q = 0;
  for (int i = 0; i < 63; i++) {          // restoring division, 63 quotient bits
    q <<= 1;
    if (r >= d) { r -= d; q |= 1; }
    r <<= 1;
  }
  return round_pack(sign, e, q | (r != 0));
}

uint64_t fw_dsqrt(uint64_t a) {
  if (is_nan(a)) return D_NAN;
  if (is_zero(a)) return a;               // sqrt(-0) = -0
  if (sign_of(a)) return D_NAN;
  if (is_inf(a)) return a;
  int e;
  uint64_t m;
  unpack(a, &e, &m);
  // a = (m / 2^62) * 2^(e - BIAS). With an even exponent k = e - BIAS, the
  // root of (m * 2^y) has the right number of bits for y = 46: m53 * 2^(52+52)
  // gives a 53-bit root; two more bits (and the remainder) round it.
  int k = e - BIAS;
  uint64_t m53 = m >> 10;                 // in [2^52, 2^53)
  if (k & 1) { k--; m53 <<= 1; }          // now k is even
  // Radicand R = m53 * 2^56 (up to 110 bits) as hi:lo; root has 55 bits.
  uint64_t hi = m53 >> 8, lo = m53 << 56;
  uint64_t root = 0, rem = 0;
  for (int i = 0; i < 55; i++) {          // two radicand bits per step, from the top (bit 109)
    int pos = 108 - 2 * i;                // the lower bit of the pair
    uint64_t pair = pos >= 64 ? (hi >> (pos - 64)) & 3 : (lo >> pos) & 3;
    rem = (rem << 2) | pair;
    uint64_t trial = (root << 2) | 1;
    root <<= 1;
    if (rem >= trial) { rem -= trial; root |= 1; }
  }
  // root = floor(sqrt(m53 * 2^56)) in [2^54, 2^55): sqrt(a) = root / 2^54 * 2^(k/2).
  uint64_t mm = (root << 8) | (rem != 0); // leading one to bit 62
  return round_pack(0, k / 2 + BIAS, mm);
}

// -1, 0, 1 for a < b, a == b, a > b; `unordered` when either is a NaN.
int fw_dcmp(uint64_t a, uint64_t b, int unordered) {
  if (is_nan(a) || is_nan(b)) return unordered;
  if (is_zero(a) && is_zero(b)) return 0;
  if (a == b) return 0;
  int neg_a = sign_of(a) != 0, neg_b = sign_of(b) != 0;
  if (neg_a != neg_b) return neg_a ? -1 : 1;
  int less = (a < b) != neg_a;            // same sign: magnitude order, flipped if negative
  return less ? -1 : 1;
}

uint64_t fw_dfrom_i64(int64_t v) {
  if (v == 0) return 0;
  uint64_t sign = v < 0 ? (uint64_t)1 << 63 : 0;
  uint64_t m = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
  int e = BIAS + 62;
  if (m >> 63) { m = jam(m, 1); e++; }
  normalise(&e, &m);
  return round_pack(sign, e, m);
}

uint64_t fw_dfrom_u64(uint64_t v) {
  if (v == 0) return 0;
  int e = BIAS + 62;
  if (v >> 63) { v = jam(v, 1); e++; }
  normalise(&e, &v);
  return round_pack(0, e, v);
}

// Truncate toward zero, saturating like RISC-V's fcvt (NaN -> the maximum).
int64_t fw_dto_i64(uint64_t a) {
  if (is_nan(a)) return INT64_MAX;
  int e = exp_of(a) - BIAS;
  if (e < 0) return 0;
  if (e >= 63) return sign_of(a) ? INT64_MIN : INT64_MAX;
  uint64_t m = frac_of(a) | ((uint64_t)1 << FRAC_BITS);
  m = e >= FRAC_BITS ? m << (e - FRAC_BITS) : m >> (FRAC_BITS - e);
  return sign_of(a) ? -(int64_t)m : (int64_t)m;
}

uint64_t fw_dto_u64(uint64_t a) {
  if (is_nan(a)) return UINT64_MAX;
  if (sign_of(a)) return 0;               // negatives (including -0.x) -> 0
  int e = exp_of(a) - BIAS;
  if (e < 0) return 0;
  if (e >= 64) return UINT64_MAX;
  uint64_t m = frac_of(a) | ((uint64_t)1 << FRAC_BITS);
  return e >= FRAC_BITS ? m << (e - FRAC_BITS) : m >> (FRAC_BITS - e);
}

uint64_t fw_dfrom_f32(uint32_t f) {
  uint64_t sign = (uint64_t)(f >> 31) << 63;
  int e = (int)((f >> 23) & 0xff);
  uint64_t m = f & 0x7fffffu;
  if (e == 0xff) return m ? D_NAN : sign | D_INF;
  if (e == 0) {
    if (!m) return sign;
    e = 1;
    m <<= 39;                             // float fraction bit 22 -> bit 61
    normalise(&e, &m);
  } else {
    m = (m | 0x800000u) << 39;            // leading one (bit 23) -> bit 62
  }
  return round_pack(sign, e - 127 + BIAS, m); // exact: no rounding happens
}

uint32_t fw_dto_f32(uint64_t a) {
  uint32_t sign = (uint32_t)(a >> 32) & 0x80000000u;
  if (is_nan(a)) return 0x7fc00000u;
  if (is_inf(a)) return sign | 0x7f800000u;
  if (is_zero(a)) return sign;
  int e;
  uint64_t m;
  unpack(a, &e, &m);
  e = e - BIAS + 127;                     // float exponent field of the value
  if (e >= 0xff) return sign | 0x7f800000u;
  int sub = e <= 0;
  if (sub) m = jam(m, 1 - e);
  uint64_t low = m & (((uint64_t)1 << 39) - 1), half = (uint64_t)1 << 38;
  uint32_t r = (uint32_t)(m >> 39);       // 24 bits (leading one at bit 23)
  if (low > half || (low == half && (r & 1))) r++;
  if (sub) return sign | r;
  return sign | (((uint32_t)(e - 1) << 23) + r);
}
