# exit.S: store VALUE (default 1) to tohost; with -DNO_TOHOST, no tohost symbol;
# with -DSPIN, loop forever instead.
#ifndef VALUE
#define VALUE 1
#endif
#ifdef NO_TOHOST
#define TOHOST other
#else
#define TOHOST tohost
#endif
  .text
  .globl _start
_start:
#ifdef SPIN
1: j 1b
#endif
  li a1, VALUE
  la a0, TOHOST
  sw a1, 0(a0)
2: j 2b
  .data
  .globl TOHOST
TOHOST: .word 0
