// soft_sqrt_test: op2_sqrt, the software double square root op2c puts into
// firmware images, must equal the host's sqrt bit for bit (IEEE 754 asks
// for correct rounding): special values, subnormals, and random doubles.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "op2_soft_sqrt.inc"

static int check(double x, long *bad) {
  double got = op2_sqrt(x), want = sqrt(x);
  if (memcmp(&got, &want, sizeof(got)) == 0 || (isnan(got) && isnan(want)))
    return 1;
  if ((*bad)++ < 10)
    printf("sqrt(%a): got %a, expected %a\n", x, got, want);
  return 0;
}

int main(void) {
  long bad = 0, n = 0;
  const double special[] = {0.0, -0.0, 1.0, 2.0, 4.0, 0.25, INFINITY, -INFINITY, NAN, -1.0, 5e-324,
                            2.2250738585072009e-308, 2.2250738585072014e-308, 1.7976931348623157e308};
  for (size_t i = 0; i < sizeof(special) / sizeof(*special); i++, n++)
    check(special[i], &bad);
  unsigned long long s = 88172645463325252ull;
  for (long i = 0; i < 2000000; i++, n++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    double x;
    memcpy(&x, &s, sizeof(x));
    if (i % 2)
      x = fabs(x);                    // positive doubles of every exponent
    if (i % 5 == 0)
      x = (double)(s % 1000000) / 64; // exact squares and near-squares
    check(x, &bad);
  }
  printf("op2_sqrt: %ld of %ld differ from the host's sqrt\n", bad, n);
  return bad != 0;
}
