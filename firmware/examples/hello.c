// hello.c: the smallest program on tinsel.h and the libc: each thread
// prints its id and the cycle counter to the debug link.
#include <stdio.h>
#include "tinsel.h"

int main(void) {
  uint32_t me = tinselId();
  uint32_t t0 = tinselCycleCount();
  unsigned q = (unsigned)t0 / 7u;            // exercises the software divide
  printf("hello from thread 0x%x at cycle %u (%u sevens)\n", (unsigned)me, (unsigned)t0, q);
  return 0;
}
