# busy.S: every started thread runs a compute-bound integer loop of ITERS
# iterations, then marks its slot in DRAM; thread 0 of core 0 waits until the
# first NTHREADS slots are marked and stores 1 to tohost (meet.inc). Used by
# tests/tsim and bench/sim.sh.
#include "flush.inc"
  .text
  .globl _start
_start:
  csrrw s0, 0xf14, zero
  li t0, ITERS
  li t1, 0
  li t2, 1
1:
  add t1, t1, t2
  xor t3, t1, t0
  slli t4, t3, 3
  srli t5, t4, 2
  or t6, t5, t1
  and t3, t6, t0
  sub t1, t1, t3
  addi t2, t2, 1
  addi t0, t0, -1
  bnez t0, 1b
#include "meet.inc"
