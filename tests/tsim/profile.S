# profile.S: one instruction real Tinsel lacks (OP, default div), at label
# `culprit`; under profile full it must also compute right (tohost 1, else 2).
  .text
  .globl _start
_start:
  li a1, 100
  li a2, 7
  la a3, word
#ifndef OP
#define OP div a0, a1, a2
#endif
  .globl culprit
culprit:
  OP
#ifdef CHECK
  li a4, CHECK
  bne a0, a4, fail
#endif
  li a1, 1
  j done
fail:
  li a1, 5
done:
  la a0, tohost
  sw a1, 0(a0)
1: j 1b
  .data
  .globl tohost
tohost: .word 0
word: .word 0x12345678, 0x9abcdef0
