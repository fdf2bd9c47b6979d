/* tsim_fpu.h: RV32F arithmetic (see tsim_fpu.c). */
#ifndef TSIM_FPU_H
#define TSIM_FPU_H
#include <stdint.h>
/* The result of OP-FP or fused instruction INSTR on operand bits a, b, c
   (rs1, rs2, rs3; for fcvt.s.w[u] a is the integer). */
uint32_t tsim_fp_op(uint32_t instr, uint32_t a, uint32_t b, uint32_t c);
#endif
