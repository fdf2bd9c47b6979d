# clocks.S: a cycle-exactness probe (tests/tsim golden). Run with
# --all-threads: thread h (HartId) runs a staggered mix of loads, multiplies
# and a mailbox CSR (4 + h % 29 iterations), emits CSRs Cycle and
# CPUIdleCount, then kills itself, so cores fall idle at different times;
# thread 0 of core 0 then runs alone for a while (long waits on memory: its
# core and the others idle) and emits the counters again before it passes.
# Any change in the model's timing moves the emitted values.
  .text
  .globl _start
_start:
  csrrw s0, 0xf14, zero
  la a0, tohost
  li t0, 29
  mv t1, s0
8: blt t1, t0, 7f          # t1 = h % 29 by subtraction
  sub t1, t1, t0
  j 8b
7:
  addi t1, t1, 4
1:
  lw t2, 0(a0)
  mul t3, t1, t1
  csrrw t4, 0x803, zero    # CanSend: the mailbox answers
  addi t1, t1, -1
  bnez t1, 1b
  csrrw t5, 0xc00, zero    # Cycle
  csrrw t6, 0xc0b, zero    # CPUIdleCount
  csrrw zero, 0x80f, t5
  csrrw zero, 0x80f, t6
  beqz s0, 2f
  csrrw zero, 0x80e, zero  # KillThread
3: j 3b
2:
  li t1, 400
4:
  lw t2, 0(a0)
  addi t1, t1, -1
  bnez t1, 4b
  csrrw t5, 0xc00, zero
  csrrw t6, 0xc0b, zero
  csrrw zero, 0x80f, t5
  csrrw zero, 0x80f, t6
  li t1, 1
  sw t1, 0(a0)
5: j 5b
  .data
  .globl tohost
tohost: .word 0
