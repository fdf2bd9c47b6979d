/* tsim_decode.c: see tsim_decode.h. One row per instruction: the bits that
   identify it (mask) and their value (match), from the RISC-V encodings. */
#include "tsim_decode.h"

#include <stddef.h>

typedef struct { uint32_t mask, match; const char *name; } Row;

/* Masks: opcode only (U/J), opcode+funct3 (I/S/B), +funct7 (R), +rs2 (unary FP). */
#define U 0x0000007fu
#define I 0x0000707fu
#define R 0xfe00707fu
#define RF 0xfe00007fu        /* R-type with rm in funct3 */
#define RU 0xfff0007fu        /* unary FP with rm */
#define RUF 0xfff0707fu       /* unary, fixed funct3 */
#define R4 0x0600007fu        /* fused: fmt bits 26:25 */

static const Row rows[] = {
  {U, 0x37, "lui"}, {U, 0x17, "auipc"}, {U, 0x6f, "jal"}, {I, 0x67, "jalr"},
  {I, 0x63, "beq"}, {I, 0x1063, "bne"}, {I, 0x4063, "blt"}, {I, 0x5063, "bge"}, {I, 0x6063, "bltu"}, {I, 0x7063, "bgeu"},
  {I, 0x03, "lb"}, {I, 0x1003, "lh"}, {I, 0x2003, "lw"}, {I, 0x4003, "lbu"}, {I, 0x5003, "lhu"},
  {I, 0x23, "sb"}, {I, 0x1023, "sh"}, {I, 0x2023, "sw"}, {I, 0x2007, "flw"}, {I, 0x2027, "fsw"},
  {I, 0x13, "addi"}, {I, 0x2013, "slti"}, {I, 0x3013, "sltiu"}, {I, 0x4013, "xori"}, {I, 0x6013, "ori"}, {I, 0x7013, "andi"},
  {R, 0x1013, "slli"}, {R, 0x5013, "srli"}, {R, 0x40005013, "srai"},
  {R, 0x33, "add"}, {R, 0x40000033, "sub"}, {R, 0x1033, "sll"}, {R, 0x2033, "slt"}, {R, 0x3033, "sltu"},
  {R, 0x4033, "xor"}, {R, 0x5033, "srl"}, {R, 0x40005033, "sra"}, {R, 0x6033, "or"}, {R, 0x7033, "and"},
  {R, 0x02000033, "mul"}, {R, 0x02001033, "mulh"}, {R, 0x02002033, "mulhsu"}, {R, 0x02003033, "mulhu"},
  {R, 0x02004033, "div"}, {R, 0x02005033, "divu"}, {R, 0x02006033, "rem"}, {R, 0x02007033, "remu"},
  {I, 0x0f, "fence"}, {I, 0x100f, "fence.i"},
  {0xffffffffu, 0x73, "ecall"}, {0xffffffffu, 0x100073, "ebreak"},
  {I, 0x1073, "csrrw"}, {I, 0x2073, "csrrs"}, {I, 0x3073, "csrrc"},
  {I, 0x5073, "csrrwi"}, {I, 0x6073, "csrrsi"}, {I, 0x7073, "csrrci"},
  {RF, 0x00000053, "fadd.s"}, {RF, 0x08000053, "fsub.s"}, {RF, 0x10000053, "fmul.s"}, {RF, 0x18000053, "fdiv.s"},
  {RU, 0x58000053, "fsqrt.s"},
  {R, 0x20000053, "fsgnj.s"}, {R, 0x20001053, "fsgnjn.s"}, {R, 0x20002053, "fsgnjx.s"},
  {R, 0x28000053, "fmin.s"}, {R, 0x28001053, "fmax.s"},
  {RU, 0xc0000053, "fcvt.w.s"}, {RU, 0xc0100053, "fcvt.wu.s"}, {RU, 0xd0000053, "fcvt.s.w"}, {RU, 0xd0100053, "fcvt.s.wu"},
  {RUF, 0xe0000053, "fmv.x.w"}, {RUF, 0xe0001053, "fclass.s"}, {RUF, 0xf0000053, "fmv.w.x"},
  {R, 0xa0002053, "feq.s"}, {R, 0xa0001053, "flt.s"}, {R, 0xa0000053, "fle.s"},
  {R4, 0x43, "fmadd.s"}, {R4, 0x47, "fmsub.s"}, {R4, 0x4b, "fnmsub.s"}, {R4, 0x4f, "fnmadd.s"},
  {0xfe007fffu, 0x08, "send"},  /* Tinsel: 0000000 rs2 rs1 000 00000 0001000 */
};

const char *tsim_mnemonic(uint32_t instr) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if ((instr & rows[i].mask) == rows[i].match) return rows[i].name;
  return "illegal";
}
