# loop.S: after INIT, one thread runs 1000 iterations of BODY (default nothing) plus the
# loop's addi and bnez, then passes: for timing checks against PipelineStages
# and the unit latencies.
#ifndef BODY
#define BODY
#endif
#ifndef INIT
#define INIT
#endif
  .text
  .globl _start
_start:
  li t0, 1000
  li t1, 3
  INIT
1:
  BODY
  addi t0, t0, -1
  bnez t0, 1b
  la a0, tohost
  li a1, 1
  sw a1, 0(a0)
2: j 2b
  .data
  .globl tohost
tohost: .word 0
