// test_fwlib.c: the pure parts of the firmware libc on the host: printf's
// formatter against the host's snprintf, the software divide against C's
// '/' and '%' (and RISC-V's answers where C has none), and sqrtf bit for
// bit against the host's correctly rounded sqrtf.
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "fwlib.h"

#include "unit.h"

// ----------------------------------------------------------------- format

typedef struct { char buf[256]; size_t n; } sink;
static void put(void *ctx, char c) {
  sink *s = ctx;
  if (s->n + 1 < sizeof s->buf) s->buf[s->n++] = c;
  s->buf[s->n] = 0;
}

static void fmt_case(const char *want_fmt, const char *fmt, ...) {
  sink s = { .n = 0 };
  s.buf[0] = 0;
  char want[256];
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = fw_vformat(put, &s, fmt, ap);
  vsnprintf(want, sizeof want, want_fmt, ap2);
  va_end(ap2);
  va_end(ap);
  CHECK(strcmp(s.buf, want) == 0 && n == (int)strlen(want), "format \"%s\": got \"%s\" (%d), want \"%s\"",
        fmt, s.buf, n, want);
}

static void test_format(void) {
  // The host's printf is the oracle for every conversion we support.
  fmt_case("plain text", "plain text");
  fmt_case("%d|%d|%d", "%d|%d|%d", 0, -1, 2147483647);
  fmt_case("%d", "%d", (int)-2147483647 - 1);
  fmt_case("%i|%5d|%-5d|%05d|%-05d", "%i|%5d|%-5d|%05d|%-05d", 42, 42, 42, -42, 7);
  fmt_case("%u|%x|%X|%o", "%u|%x|%X|%o", 4294967295u, 0xdeadbeefu, 0xdeadbeefu, 8u);
  fmt_case("%08x|%8x|%-8x|", "%08x|%8x|%-8x|", 0x1fu, 0x1fu, 0x1fu);
  fmt_case("%lu|%ld|%lx", "%lu|%ld|%lx", 123456789ul, -5l, 0xabcul);
  fmt_case("%llu|%lld|%llx", "%llu|%lld|%llx", 18446744073709551615ull, -9223372036854775807ll - 1,
           0x123456789abcdefull);
  fmt_case("%zu", "%zu", (size_t)99);
  fmt_case("%c%c|%3c|%-3c|", "%c%c|%3c|%-3c|", 'o', 'k', 'x', 'y');
  fmt_case("%s|%8s|%-8s|", "%s|%8s|%-8s|", "abc", "right", "left");
  fmt_case("%*d|%-*d|", "%*d|%-*d|", 6, 12, 6, 12);
  fmt_case("100%%", "100%%");
  fmt_case("%hd", "%hd", 5);
  // Ours by design: %p is 0x + hex; NULL strings print (null); unknown
  // conversions print as written.
  fmt_case("0x1234", "%p", (void *)0x1234);
  fmt_case("(null)", "%s", (const char *)NULL);
  fmt_case("%%q", "%q");
}

// ----------------------------------------------------------------- divide

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void) {  // xorshift64*
  rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
  return rng * 2685821657736338717ull;
}

// Random values with a spread of magnitudes, so small divisors and
// quotients near the limits both occur.
static uint64_t spread(void) {
  uint64_t v = next();
  return v >> (next() % 64);
}

static void test_divide(void) {
  int bad32 = 0, bad64 = 0;
  for (int i = 0; i < 200000; i++) {
    uint32_t a = (uint32_t)spread(), b = (uint32_t)spread();
    if (!b) continue;
    uint32_t r, q = fw_udivmod32(a, b, &r);
    int32_t sa = (int32_t)a, sb = (int32_t)b, sr;
    int32_t sq = fw_divmod32(sa, sb, &sr);
    if (q != a / b || r != a % b) bad32++;
    if (!(sa == INT32_MIN && sb == -1) && (sq != sa / sb || sr != sa % sb)) bad32++;
    uint64_t A = spread(), B = spread(), R;
    if (!B) continue;
    uint64_t Q = fw_udivmod64(A, B, &R);
    int64_t SA = (int64_t)A, SB = (int64_t)B, SR;
    int64_t SQ = fw_divmod64(SA, SB, &SR);
    if (Q != A / B || R != A % B) bad64++;
    if (!(SA == INT64_MIN && SB == -1) && (SQ != SA / SB || SR != SA % SB)) bad64++;
  }
  CHECK(bad32 == 0, "32-bit divide: %d mismatches", bad32);
  CHECK(bad64 == 0, "64-bit divide: %d mismatches", bad64);
  // Where C is undefined, RISC-V's div/rem answers.
  uint32_t r;
  int32_t sr;
  CHECK(fw_udivmod32(7, 0, &r) == 0xffffffffu && r == 7, "x / 0 = all ones, x %% 0 = x");
  CHECK(fw_divmod32(-7, 0, &sr) == -1 && sr == -7, "signed x / 0 = -1, x %% 0 = x");
  CHECK(fw_divmod32(INT32_MIN, -1, &sr) == INT32_MIN && sr == 0, "INT_MIN / -1 = INT_MIN, rem 0");
  int64_t SR;
  CHECK(fw_divmod64(INT64_MIN, -1, &SR) == INT64_MIN && SR == 0, "64-bit INT_MIN / -1");
  CHECK(fw_divmod32(-7, 2, &sr) == -3 && sr == -1, "truncates toward zero");
}

// ------------------------------------------------------------------ sqrtf

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float from(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int same(float a, float b) {
  if (isnan(a) && isnan(b)) return 1;        // any NaN for a NaN
  return bits(a) == bits(b);
}

static void test_sqrtf(void) {
  static const uint32_t special[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
    0x00000001, 0x00000002, 0x00000003, 0x007fffff, 0x00800000, 0x3f800000, 0x40800000,
    0x40000000, 0x3f7fffff, 0x7f7fffff, 0xbf800000, 0x80000001,
  };
  int bad = 0;
  uint32_t first_bad = 0;
  for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
    if (!same(fw_sqrtf(from(special[i])), sqrtf(from(special[i])))) { bad++; first_bad = special[i]; }
  CHECK(bad == 0, "special values: %d wrong (e.g. 0x%08x)", bad, first_bad);
  // Every positive float in two whole binades, and 2 million random bit patterns.
  bad = 0;
  for (uint32_t u = 0x3f000000; u < 0x40000000; u++)
    if (!same(fw_sqrtf(from(u)), sqrtf(from(u)))) { if (!bad++) first_bad = u; }
  CHECK(bad == 0, "binades [0.5, 2): %d wrong (first 0x%08x: got 0x%08x want 0x%08x)", bad, first_bad,
        bits(fw_sqrtf(from(first_bad))), bits(sqrtf(from(first_bad))));
  bad = 0;
  for (int i = 0; i < 2000000; i++) {
    uint32_t u = (uint32_t)next();
    if (!same(fw_sqrtf(from(u)), sqrtf(from(u)))) { if (!bad++) first_bad = u; }
  }
  CHECK(bad == 0, "random floats: %d wrong (first 0x%08x)", bad, first_bad);
  bad = 0;
  for (uint32_t u = 1; u < 0x00800000; u += 97)   // subnormals
    if (!same(fw_sqrtf(from(u)), sqrtf(from(u)))) { if (!bad++) first_bad = u; }
  CHECK(bad == 0, "subnormals: %d wrong (first 0x%08x)", bad, first_bad);
}

int main(void) {
  test_format();
  test_divide();
  test_sqrtf();
  return UNIT_FINISH();
}
