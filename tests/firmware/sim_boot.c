// sim_boot.c: stands in for the boot loader's command loop on tsim, which
// has no host link yet: thread 0 of the core starts the other threads (at
// PC 0, through the real boot entry) and jumps to the application, as the
// Start command does.
#include "tinsel.h"

void boot_main(void) __attribute__((noreturn));

void boot_main(void) {
#ifndef SIM_ALL_THREADS   // with tsim --all-threads every thread is already running
  for (uint32_t t = 1; t < TinselThreadsPerCore; t++) tinselCreateThread(t);
#endif
  ((void (*)(void))TinselMaxBootImageBytes)();
  for (;;) {}
}
