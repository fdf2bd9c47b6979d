/* tests/sim/crt0_qemu.S: start code to run the single-thread test bodies
 * under qemu-riscv32 user mode (a cross-check of the tests, not of the
 * model). main's result becomes the exit status through Linux's exit
 * syscall; there is one thread, id 0, and no Tinsel CSRs.
 */
  .text
  .globl _start
_start:
  call main
  li a7, 93               /* exit */
  ecall

  .globl sim_thread_id
sim_thread_id:
  li a0, 0
  ret

/* sim_emit: the word in hex and a newline on stdout. */
  .globl sim_emit
sim_emit:
  addi sp, sp, -16
  li t0, 8
  addi t1, sp, 8
1:andi t2, a0, 15
  li t3, 10
  blt t2, t3, 2f
  addi t2, t2, 'a' - '0' - 10
2:addi t2, t2, '0'
  sb t2, 0(t1)
  srli a0, a0, 4
  addi t1, t1, -1
  addi t0, t0, -1
  bnez t0, 1b
  li t2, '\n'
  sb t2, 9(sp)
  li a0, 1
  addi a1, sp, 1
  li a2, 9
  li a7, 64               /* write */
  ecall
  addi sp, sp, 16
  ret

  .globl sim_cycle
sim_cycle:
  li a0, 0
  ret

  .globl sim_flush
sim_flush:
  ret
