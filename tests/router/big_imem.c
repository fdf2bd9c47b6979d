/* tests/router/big_imem.c: a program whose code reaches past real Tinsel's
 * instruction memory (InstrBytesPerCore) but fits the enlarged one
 * (EnlargedLogInstrsPerCore): main calls a function placed after 12 KiB of
 * padding. tsim must reject it without --imem enlarged and run it with. */
#include <stdint.h>

uint32_t far_away(void);
__asm__(".section .text.zfar, \"ax\"\n"
        "  .skip 12288\n"
        "  .globl far_away\n"
        "far_away:\n"
        "  li a0, 0\n"
        "  ret\n");

int main(void) { return (int)far_away(); }
