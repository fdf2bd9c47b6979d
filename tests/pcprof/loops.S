# loops.S: every started thread runs two loops of known trip counts and
# kills itself (tests/pcprof/run.sh): a loop of plain operations, ITERS
# iterations (the fast engine runs these back to back: core_batch), then
# a loop through memory, ITERS2 iterations (one issue at a time: issue).
# Every other instruction runs once per thread. _start has no symbol type
# (pcprof names its pcs as outside any function); plain and memloop are
# functions. The labels loop1, loop1_end, loop2 and loop2_end bound the
# loops for the suite; set_iters is the word the suite's preload file
# rewrites (li of ITERS: one addi, ITERS < 2048).
  .text
  .globl _start
_start:
  call plain
  call memloop
  csrrw zero, 0x80e, zero  # KillThread
  j _start                 # never reached

  .globl plain, set_iters, loop1, loop1_end
  .type plain, @function
plain:
set_iters:
  li t0, ITERS
  li t1, 0
loop1:
  addi t1, t1, 3
  xor t2, t1, t0
  addi t0, t0, -1
loop1_end:
  bnez t0, loop1
  ret
  .size plain, .-plain

  .globl memloop, loop2, loop2_end
  .type memloop, @function
memloop:
  li t0, ITERS2
  li t3, 0
loop2:
  lw t4, -4(sp)
  add t3, t3, t4
  addi t0, t0, -1
loop2_end:
  bnez t0, loop2
  ret
  .size memloop, .-memloop
