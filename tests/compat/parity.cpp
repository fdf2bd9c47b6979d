// tests/compat/parity.cpp: the C++ side of the parity test (parity.sh), as
// POLite compiles device code (-DTINSEL) and host code. The same uses as
// parity.c; here the CSR strings are compared digit by digit, and C++'s
// rules check operator| on TinselWakeupCond.
#ifdef __riscv
#include <tinsel.h>
#else
#include <tinsel-interface.h>
#endif
#include <boot.h>
#include <config.h>

static constexpr bool parity_streq(const char *a, const char *b) {
  return *a == *b && (*a == 0 || parity_streq(a + 1, b + 1));
}

#define PARITY_ASSERT(e) static_assert(e, #e)
#define PARITY_CHECK(e) do { if (!(e)) return 1; } while (0)
#define PARITY_CSR(name, want)                                     \
  static_assert(parity_streq(name, want), #name " is " want);      \
  uint32_t csr_;                                                   \
  __asm__ volatile("csrrw %0, " name ", zero" : "=r"(csr_));      \
  (void)csr_

#include "parity_uses.inc"

#define PARITY_N (sizeof parity_uses / sizeof parity_uses[0])

#ifdef __riscv
int parity_all() {
  int bad = 0;
  for (unsigned i = 0; i < PARITY_N; i++) bad += parity_uses[i]();
  return bad;
}
#else
#include <stdio.h>
int main() {
  for (unsigned i = 0; i < PARITY_N; i++)
    if (parity_uses[i]()) printf("%u\n", i + 1);
  return 0;
}
#endif
