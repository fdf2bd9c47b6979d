# memories.S: (1) write two instructions into instruction memory through
# CSRs InstrAddr/Instr at word IWORD and call them; (2) store through the
# interleaved DRAM alias at IADDR and load the same word back from the plain
# upper region at UADDR (the suite computes both from the configuration);
# the two are different lines of the cache, so the store is flushed first.
# tohost: 1 pass, 3 (code 1) imem failed, 5 (code 2) interleave failed.
#include "flush.inc"
  .text
  .globl _start
_start:
  li t0, IWORD
  csrrw zero, 0x800, t0
  li t1, 0x02a00793          # addi a5, zero, 42
  csrrw zero, 0x801, t1
  li t1, 0x00008067          # jalr zero, 0(ra)
  csrrw zero, 0x801, t1
  slli t0, t0, 2
  jalr ra, 0(t0)
  li a1, 3
  li t2, 42
  bne a5, t2, done
  li t0, IADDR
  li t1, 0x5eed1234
  sw t1, 0(t0)
  flush_all t3, t4
  li t0, UADDR
  lw t2, 0(t0)
  li a1, 5
  bne t1, t2, done
  li a1, 1
done:
  la a0, tohost
  sw a1, 0(a0)
1: j 1b
  .data
  .globl tohost
tohost: .word 0
