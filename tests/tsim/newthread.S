# newthread.S (linked at 0: NewThread starts a thread at pc 0): thread 0
# starts thread 1 through CSR NewThread, waits for its flag, passes; thread 1
# sets the flag and stops through CSR KillThread. The flag is in DRAM:
# both flush (tests/tsim/flush.inc).
#include "flush.inc"
  .text
  .globl _start
_start:
  csrrw t0, 0xf14, zero
  la a0, flag
  bnez t0, child
  li t1, 1
  csrrw zero, 0x80d, t1
1: flush_all t3, t4
  lw t2, 0(a0)
  beqz t2, 1b
  la a0, tohost
  li a1, 1
  sw a1, 0(a0)
2: j 2b
child:
  li t1, 1
  sw t1, 0(a0)
  flush_all t3, t4
  csrrw zero, 0x80e, zero
  li a1, 9          # never reached: KillThread stops the thread
  la a0, tohost
  sw a1, 0(a0)
3: j 3b
  .data
  .globl tohost
tohost: .word 0
flag: .word 0
