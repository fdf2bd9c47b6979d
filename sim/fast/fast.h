/* fast.h: the fast engine (tsim --engine fast, build/bin/tsim-fast-NAME):
   an instruction-level interpreter of the same images as the cycle model
   (sim/README.md "Fast engine"). Each core pair's instruction memory is
   decoded once into FastOp entries; cores keep the cycle model's barrel
   schedule (run and resume queues, a timing wheel) so that the order in
   which threads act, and so the output, is the cycle model's; memory,
   FP, halts, loading and statistics go through the shared C files
   (tsim_dpi.c, tsim_fpu.c, tsim_dcache.c, ...). Compiled per configuration
   against its tinsel_config.h. */
#ifndef FAST_H
#define FAST_H

#include "tinsel_config.h"

#include <stdint.h>

/* Decoded operations: a dense enum for the dispatch switch. */
enum {
  F_ILLEGAL, F_PROFILE, F_LUI, F_AUIPC, F_JAL, F_JALR,
  F_BEQ, F_BNE, F_BLT, F_BGE, F_BLTU, F_BGEU,
  F_LOAD, F_LOADF, F_STORE, F_STOREF,
  F_ADDI, F_SLTI, F_SLTIU, F_XORI, F_ORI, F_ANDI, F_SLLI, F_SRLI, F_SRAI,
  F_ADD, F_SUB, F_SLL, F_SLT, F_SLTU, F_XOR, F_SRL, F_SRA, F_OR, F_AND,
  F_MULDIV, F_NOP, F_CSR, F_CSR_FLUSH, F_CSR_MBOX,
  F_FSGNJ, F_FSGNJN, F_FSGNJX, F_FMVXW, F_FCLASS, F_FMVWX,
  F_FPU, F_FPU_X, F_FCVT_SW, F_FUSED, F_SEND,
  F_NUM_OPS
};

/* The shared unit an operation needs (the tile's arbiters). */
enum { UNIT_NONE = 0, UNIT_FPU = 1, UNIT_MEM = 2, UNIT_MBOX = 3, UNIT_SPAD = 4 };  /* SPAD: select_thread's */

/* 8 bytes: a program's hot loop stays in the host's L1 cache. The
   instruction word, which halts, tsim_fp and tsim_mem want, is the same
   index of the pair's image (FastCore.image). */
typedef struct {
  uint8_t op, rd, rs1, rs2;
  int32_t imm;   /* immediate; CSR number; unit latency of FPU operations */
} FastOp;
_Static_assert(sizeof(FastOp) == 8, "FastOp is 8 bytes");

/* Bit counts in plain C11 (no compiler builtins): the index of the lowest
   set bit of X (X non-zero; a de Bruijn multiply), and the set bits. */
static inline unsigned fast_ctz64(uint64_t x) {
  static const uint8_t pos[64] = {
    0, 1, 2, 53, 3, 7, 54, 27, 4, 38, 41, 8, 34, 55, 48, 28, 62, 5, 39, 46, 44, 42, 22, 9, 24, 35, 59, 56, 49, 18, 29, 11,
    63, 52, 6, 26, 37, 40, 33, 47, 61, 45, 43, 21, 23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
  return pos[((x & (~x + 1)) * 0x022fdd63cc95386dull) >> 58];
}
static inline unsigned fast_popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Decode INSTR under the profile (full: --profile full). */
FastOp fast_decode(uint32_t instr, int full);
/* The shared unit each operation needs (fast_decode.c), as tsim_core.sv's
   `unit`: what the fetched instruction asks the tile for (also when it
   will then halt, e.g. outside the profile). */
extern const uint8_t fast_unit_of[F_NUM_OPS];
static inline unsigned fast_unit(const FastOp *op) { return fast_unit_of[op->op]; }

#endif
