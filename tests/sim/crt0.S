/* tests/sim/crt0.S: bare-metal start code for the tests under tsim.
 *
 * Every thread that runs enters _start: it sets its own stack (Tinsel's boot
 * loader formula, so the ELF does not depend on tsim presetting sp), calls
 * main and reports through tohost: 0 from main is a pass (reported by thread
 * 0 only; other threads just stop), n != 0 is failed check n, reported at
 * once by whichever thread saw it as (n << 1) | 1.
 * Only csrrw is used: real Tinsel has no other CSR instruction.
 */
#include "tinsel_config.h"

/* NewThread (CSR 0x80d) starts a thread at PC 0, where Tinsel's boot loader
 * would be; here that is a jump to the start code. */
  .section .text.boot, "ax"
  j _start

  .section .text.start, "ax"
  .globl _start
_start:
  csrrw a0, TinselCsrHartId, zero
  li t0, TinselThreadsPerDRAM - 1
  and t0, a0, t0                          /* partition index in this DRAM */
  slli t0, t0, TinselLogBytesPerDRAMPartition
  li sp, TinselBytesPerDRAM - 32          /* top of partition 0, minus a frame */
  sub sp, sp, t0
  li t0, TinselDRAMInterleavedBase & 0x80000000
  or sp, sp, t0                           /* the interleaved alias */
  call main
  la t0, tohost
  bnez a0, 1f
  csrrw t1, TinselCsrHartId, zero
  bnez t1, 2f                             /* passes are thread 0's to report */
  li a0, 1
  sw a0, 0(t0)
  j 2f
1:slli a0, a0, 1
  ori a0, a0, 1
  sw a0, 0(t0)
2:csrrw zero, TinselCsrKillThread, zero
  j 2b

/* uint32_t sim_thread_id(void): the global thread id (HartId). */
  .text
  .globl sim_thread_id
sim_thread_id:
  csrrw a0, TinselCsrHartId, zero
  ret

/* void sim_emit(uint32_t): print a word (tsim: "emit: core C thread T: ..."). */
  .globl sim_emit
sim_emit:
  csrrw zero, TinselCsrEmit, a0
  ret

/* uint32_t sim_cycle(void): the cycle counter, low 32 bits. */
  .globl sim_cycle
sim_cycle:
  csrrw a0, TinselCsrCycle, zero
  ret

/* void sim_flush(void): write back and drop every line of this thread's
 * data-cache partition, then wait for the write-backs with one load (the
 * caches are not coherent, so threads share memory only through this). */
  .globl sim_flush
sim_flush:
  li t0, (1 << (TinselDCacheLogSetsPerThread + TinselDCacheLogNumWays)) - 1
1:csrrw zero, TinselCsrFlush, t0
  addi t0, t0, -1
  bgez t0, 1b
  la t0, tohost
  lw t0, 0(t0)
  ret

  .data
  .balign TinselBytesPerLine
  .globl tohost
tohost:
  .word 0
  .balign TinselBytesPerLine
