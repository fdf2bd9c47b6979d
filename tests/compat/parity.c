// tests/compat/parity.c: the C side of the parity test (parity.sh). Includes
// the headers a Tinsel program includes (on the host, the part Tinsel
// shares with host code) and then the uses parity.sh generated from
// parity.list, one function per name; on the host, main runs them all and
// prints the 1-based line of each use whose run-time check failed.
#ifdef __riscv
#include <tinsel.h>
#else
#include <tinsel-interface.h>
#endif
#include <boot.h>
#include <config.h>

#define PARITY_ASSERT(e) _Static_assert(e, #e)
#define PARITY_CHECK(e) do { if (!(e)) return 1; } while (0)
// C cannot compare strings at compile time: only the length here, the
// digits in parity.cpp.
#define PARITY_CSR(name, want)                                        \
  _Static_assert(sizeof(name) == sizeof(want), #name " is " want);    \
  uint32_t csr_;                                                      \
  __asm__ volatile("csrrw %0, " name ", zero" : "=r"(csr_));         \
  (void)csr_

#include "parity_uses.inc"

#define PARITY_N (sizeof parity_uses / sizeof parity_uses[0])

#ifdef __riscv
int parity_all(void) {
  int bad = 0;
  for (unsigned i = 0; i < PARITY_N; i++) bad += parity_uses[i]();
  return bad;
}
#else
#include <stdio.h>
int main(void) {
  for (unsigned i = 0; i < PARITY_N; i++)
    if (parity_uses[i]()) printf("%u\n", i + 1);
  return 0;
}
#endif
