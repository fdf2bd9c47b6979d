// test_softdouble.c: the firmware's software double (firmware/lib/
// softdouble.c) bit for bit against the host's IEEE doubles (x86-64 SSE2:
// correctly rounded, round to nearest even): +, -, *, /, sqrt, compares
// and conversions, over special values and millions of random operands
// chosen to hit cancellation, subnormals, overflow and ties.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "fwlib.h"
#include "unit.h"

static uint64_t bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double dbl(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float flt(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int same(uint64_t got, double want) {
  return isnan(want) ? isnan(dbl(got)) : got == bits(want);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next(void) {
  rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}

static const uint64_t special[] = {
  0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
  0x0000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull, 0x3ff0000000000000ull,
  0xbff0000000000000ull, 0x7fefffffffffffffull, 0x3fefffffffffffffull, 0x3ff0000000000001ull,
  0x4000000000000000ull, 0x8000000000000001ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
  0x41dfffffffc00000ull, 0xc1e0000000000000ull,
};
#define NSPECIAL (sizeof special / sizeof special[0])

// Operands: random bit patterns, values near 1 (cancellation, ties),
// subnormal and huge ones, and pairs with close exponents.
static uint64_t operand(uint64_t other) {
  switch (next() % 6) {
  case 0: return next();
  case 1: return (next() & 0x800fffffffffffffull) | 0x3ff0000000000000ull;
  case 2: return next() & 0x800fffffffffffffull;                          // subnormal
  case 3: return (next() & 0x800fffffffffffffull) | ((uint64_t)(0x7f0 + next() % 15) << 52);
  case 4: return other ^ (next() & 0x80000000000000ffull);                // near the other
  default: return special[next() % NSPECIAL];
  }
}

typedef uint64_t (*binop)(uint64_t, uint64_t);
static double add(double a, double b) { return a + b; }
static double sub(double a, double b) { return a - b; }
static double mul(double a, double b) { return a * b; }
static double dvd(double a, double b) { return a / b; }

static void test_binop(const char *name, binop f, double (*ref)(double, double)) {
  int bad = 0;
  uint64_t fa = 0, fb = 0;
  for (size_t i = 0; i < NSPECIAL; i++)
    for (size_t j = 0; j < NSPECIAL; j++)
      if (!same(f(special[i], special[j]), ref(dbl(special[i]), dbl(special[j]))))
        if (!bad++) { fa = special[i]; fb = special[j]; }
  for (int i = 0; i < 1000000; i++) {
    uint64_t a = operand(0), b = operand(a);
    if (!same(f(a, b), ref(dbl(a), dbl(b)))) if (!bad++) { fa = a; fb = b; }
  }
  CHECK(bad == 0, "%s: %d wrong (first %016llx, %016llx: got %016llx want %016llx)", name, bad,
        (unsigned long long)fa, (unsigned long long)fb, (unsigned long long)f(fa, fb),
        (unsigned long long)bits(ref(dbl(fa), dbl(fb))));
}

static void test_sqrt(void) {
  int bad = 0;
  uint64_t first = 0;
  for (size_t i = 0; i < NSPECIAL; i++)
    if (!same(fw_dsqrt(special[i]), sqrt(dbl(special[i])))) if (!bad++) first = special[i];
  for (int i = 0; i < 1000000; i++) {
    uint64_t a = operand(0) & ~(i & 1 ? 0 : 0x8000000000000000ull); // mostly positive
    if (!same(fw_dsqrt(a), sqrt(dbl(a)))) if (!bad++) first = a;
  }
  CHECK(bad == 0, "sqrt: %d wrong (first %016llx: got %016llx)", bad, (unsigned long long)first,
        (unsigned long long)fw_dsqrt(first));
}

static int ref_cmp(double a, double b, int unordered) {
  if (isnan(a) || isnan(b)) return unordered;
  return a < b ? -1 : a > b ? 1 : 0;
}

static void test_compare_convert(void) {
  int bad_cmp = 0, bad_i = 0, bad_u = 0, bad_f = 0, bad_from = 0;
  for (int i = 0; i < 1000000; i++) {
    uint64_t a = operand(0), b = operand(a);
    if (fw_dcmp(a, b, 7) != ref_cmp(dbl(a), dbl(b), 7)) bad_cmp++;
    double da = dbl(a);
    if (!isnan(da) && da > -9.2e18 && da < 9.2e18 && fw_dto_i64(a) != (int64_t)da) bad_i++;
    if (!isnan(da) && da >= 0 && da < 1.8e19 && fw_dto_u64(a) != (uint64_t)da) bad_u++;
    float f = (float)da;                   // host rounds to nearest even
    if (isnan(f) ? !isnan(flt(fw_dto_f32(a))) : fw_dto_f32(a) != fbits(f)) bad_f++;
    uint32_t fb = (uint32_t)next();
    if (!same(fw_dfrom_f32(fb), (double)flt(fb))) bad_f++;
    int64_t v = (int64_t)next() >> (next() % 64);
    if (!same(fw_dfrom_i64(v), (double)v) || !same(fw_dfrom_u64((uint64_t)v), (double)(uint64_t)v))
      bad_from++;
  }
  CHECK(bad_cmp == 0, "compare: %d wrong", bad_cmp);
  CHECK(bad_i == 0, "to int64 (truncation): %d wrong", bad_i);
  CHECK(bad_u == 0, "to uint64: %d wrong", bad_u);
  CHECK(bad_f == 0, "float <-> double: %d wrong", bad_f);
  CHECK(bad_from == 0, "int64/uint64 -> double: %d wrong", bad_from);
  CHECK(fw_dto_i64(bits(1e300)) == INT64_MAX && fw_dto_i64(bits(-1e300)) == INT64_MIN, "saturates");
  CHECK(fw_dcmp(bits(0.0), bits(-0.0), 9) == 0, "+0 == -0");
  CHECK(fw_dadd(bits(-0.0), bits(-0.0)) == bits(-0.0) && fw_dadd(bits(1.0), bits(-1.0)) == 0,
        "signed zeros of sums");
}

int main(void) {
  test_binop("add", fw_dadd, add);
  test_binop("sub", fw_dsub, sub);
  test_binop("mul", fw_dmul, mul);
  test_binop("div", fw_ddiv, dvd);
  test_sqrt();
  test_compare_convert();
  return UNIT_FINISH();
}
