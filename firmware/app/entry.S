// entry.S: the application's entry, linked first at TinselMaxBootImageBytes.
// The boot loader has set sp. When main returns, thread 0 re-enters the
// boot loader (at 0, which resets its stack); other threads stop.
#include "tinsel_config.h"

  .section .text.entry, "ax"
  .globl _app_start
_app_start:
  // gp points into .rodata (app.ld), so the linker reaches its first 4 KB
  // (op2c's step tables, the type table) with one instruction, not two.
  // Weak: a link script without it (tests/firmware/sim.ld) leaves gp 0,
  // and the linker then relaxes nothing to gp.
  .weak __global_pointer$
  .option push
  .option norelax
  la    gp, __global_pointer$
  .option pop
  call  main
  csrrw a0, TinselCsrHartId, zero
  andi  a0, a0, TinselThreadsPerCore - 1
  beqz  a0, 2f
  csrrw zero, TinselCsrKillThread, zero
1:
  j     1b
2:
  jr    zero
