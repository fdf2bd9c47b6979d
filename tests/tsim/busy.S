# busy.S: every started thread runs a compute-bound integer loop of ITERS
# iterations, then marks its slot in DRAM; thread 0 of core 0 waits until the
# first NTHREADS slots are marked and stores 1 to tohost. DRAM globals are
# per DRAM slice, so NTHREADS is at most ThreadsPerDRAM (the threads of core
# 0's slice). The slots are in DRAM, a cache line each (a writeback writes
# whole lines: threads sharing one would undo each other's marks); each
# thread flushes after marking, and thread 0 before each count
# (tests/tsim/flush.inc). Used by tests/tsim and bench/sim.sh.
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
  la a0, done
  slli a1, s0, TinselLogBytesPerLine
  add a0, a0, a1
  li a2, 1
  sw a2, 0(a0)
  flush_all t3, t4
  bnez s0, 3f
2:
  flush_all t3, t4
  la a0, done
  li a4, 0
  li a5, NTHREADS
4: lw a6, 0(a0)
  add a4, a4, a6
  addi a0, a0, TinselBytesPerLine
  addi a5, a5, -1
  bnez a5, 4b
  li a5, NTHREADS
  bne a4, a5, 2b
  la a0, tohost
  li a1, 1
  sw a1, 0(a0)
3: j 3b
  .data
  .globl tohost
tohost: .word 0
  .bss
  .balign TinselBytesPerLine
done: .space TinselBytesPerLine * NTHREADS
