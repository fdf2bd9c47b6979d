// entry.S: every thread starts here, at PC 0. Each thread gets a stack at
// the top of its DRAM partition (interleaved alias); thread 0 of the core
// runs the boot loader, the others call the application's entry as a
// function, as Tinsel's boot loader does (tinsel.md §11): a Tinsel app's
// entry is only `j main`, so main returns here, and the thread is killed.
// (Thread 0's boot_main calls the app the same way and, when it returns,
// waits for the host's next boot command.)
#include "tinsel_config.h"

  .section .text.boot, "ax"
  .globl _start
_start:
  csrrw a0, TinselCsrHartId, zero
  andi  t0, a0, TinselThreadsPerDRAM - 1        // DRAM partition index
  li    t1, TinselThreadsPerDRAM
  sub   t1, t1, t0
  slli  t1, t1, TinselLogBytesPerDRAMPartition
  li    t2, TinselDRAMInterleavedBase - 32      // partition 0 ends at 2^32
  add   sp, t1, t2
  andi  t0, a0, TinselThreadsPerCore - 1
  bnez  t0, 1f
  j     boot_main
1:
  li    t0, TinselMaxBootImageBytes             // the application's entry
  jalr  t0                                      // ra: main returns here
  csrrw zero, TinselCsrKillThread, zero         // never scheduled again
2:
  j     2b
