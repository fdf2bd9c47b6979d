# ports.S: the tile's two ways to memory (Tinsel's Core.bsv sends an access
# below 2^LogOffChipRAMBaseAddr to the mailbox's scratchpad, anything else to
# the data cache; each grants one core per cycle). Every started thread
# makes 4 loads ITERS times from one line, then marks its slot in DRAM
# (meet.inc, as busy.S), and thread 0 of core 0 waits for NTHREADS marks. With
# SPLIT the threads of cores 0 and 1 load from their send slot in the
# scratchpad and those of cores 2 and 3 from their DRAM slot (a cache hit
# after the first); without it every thread loads from its DRAM slot. On a
# tile, SPLIT's loads go through two ports: about 0.63 of the cycles.
#include "flush.inc"
  .text
  .globl _start
_start:
  csrrw s0, 0xf14, zero
  la a3, done
  slli a1, s0, TinselLogBytesPerLine
  add a3, a3, a1               # this thread's DRAM slot
#ifdef SPLIT
  srli t0, s0, TinselLogThreadsPerCore
  andi t0, t0, 2
  bnez t0, 5f                  # cores 2 and 3 (of each tile) stay in DRAM
  andi a1, s0, 63              # the thread on its tile's mailbox (4 cores of 16)
  slli a1, a1, TinselLogBytesPerMsg
  li a3, 1 << TinselLogBytesPerMailbox
  add a3, a3, a1               # its send slot: 0x8000 + thread << 6
5:
#endif
  li t0, ITERS
1:
  lw t3, 0(a3)
  lw t4, 4(a3)
  lw t5, 8(a3)
  lw t6, 12(a3)
  addi t0, t0, -1
  bnez t0, 1b
#include "meet.inc"
