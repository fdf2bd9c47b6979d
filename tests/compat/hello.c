// tests/compat/hello.c: Tinsel's hello app as its authors write such apps:
// entry `j main` (tinsel_entry.S), every thread prints one line and main
// returns. Under Tinsel's boot loader each thread prints exactly once; the
// others are killed when main returns and thread 0 goes back to the boot
// loader (compat_host checks both).
#include "tinsel.h"

int main(void) {
  uint32_t me = tinselId();
  printf("hello from thread 0x%x\n", (unsigned)me);
  return 0;
}
