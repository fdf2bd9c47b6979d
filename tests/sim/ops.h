/* tests/sim/ops.h: the instructions under test, one X-macro list per class.
 *
 * Shared by the host generator (gen_vectors.c, which computes each op's
 * expected result from the ISA's definition) and the firmware (which runs
 * the op's asm template through one checker loop). A template reads its
 * operands from %1 and %2 and leaves its result in %0; FP templates move the
 * raw bits through ft0/ft1 (inputs) and ft2 (result).
 */
#ifndef TESTS_SIM_OPS_H
#define TESTS_SIM_OPS_H

/* FP templates: inputs in ft0/ft1, result bits back in %0. */
#define FP_IN "fmv.w.x ft0, %1\n fmv.w.x ft1, %2\n"
#define FP_FF(insn) FP_IN insn " ft2, ft0, ft1\n fmv.x.w %0, ft2"   /* float result */
#define FP_FI(insn) FP_IN insn " %0, ft0, ft1"                     /* int result */
#define FP_F2I(insn, rm) FP_IN insn " %0, ft0, " rm               /* float -> int */
#define FP_I2F(insn, rm) insn " ft2, %1, " rm "\n fmv.x.w %0, ft2" /* int -> float */

/* Integer register-register ops, including writes to x0 (result reads 0). */
#define INT_RR_OPS(X) \
  X(ADD, "add %0, %1, %2") \
  X(SUB, "sub %0, %1, %2") \
  X(SLL, "sll %0, %1, %2") \
  X(SRL, "srl %0, %1, %2") \
  X(SRA, "sra %0, %1, %2") \
  X(SLT, "slt %0, %1, %2") \
  X(SLTU, "sltu %0, %1, %2") \
  X(XOR, "xor %0, %1, %2") \
  X(OR, "or %0, %1, %2") \
  X(AND, "and %0, %1, %2") \
  X(ADD_X0, "add zero, %1, %2\n mv %0, zero") \
  X(SLTU_X0, "sltu zero, %1, %2\n mv %0, zero")

/* Integer multiply: every sign combination of the high half. */
#define MUL_OPS(X) \
  X(MUL, "mul %0, %1, %2") \
  X(MULH, "mulh %0, %1, %2") \
  X(MULHSU, "mulhsu %0, %1, %2") \
  X(MULHU, "mulhu %0, %1, %2") \
  X(MUL_X0, "mulh zero, %1, %2\n mv %0, zero")

/* Immediate ops: X(NAME, template, base op, immediate). The generator applies
 * the base op to (a, immediate); LUI/AUIPC/JAL/JALR templates reduce their
 * result to something position-independent (see the comments). */
#define INT_IMM_OPS(X) \
  X(ADDI_0, "addi %0, %1, 0", ADD, 0) \
  X(ADDI_1, "addi %0, %1, 1", ADD, 1) \
  X(ADDI_M1, "addi %0, %1, -1", ADD, -1) \
  X(ADDI_MAX, "addi %0, %1, 2047", ADD, 2047) \
  X(ADDI_MIN, "addi %0, %1, -2048", ADD, -2048) \
  X(ADDI_X0, "addi zero, %1, 5\n mv %0, zero", ZERO, 0) \
  X(SLTI_0, "slti %0, %1, 0", SLT, 0) \
  X(SLTI_M1, "slti %0, %1, -1", SLT, -1) \
  X(SLTI_MAX, "slti %0, %1, 2047", SLT, 2047) \
  X(SLTI_MIN, "slti %0, %1, -2048", SLT, -2048) \
  X(SLTIU_1, "sltiu %0, %1, 1", SLTU, 1) \
  X(SLTIU_M1, "sltiu %0, %1, -1", SLTU, -1) \
  X(SLTIU_MIN, "sltiu %0, %1, -2048", SLTU, -2048) \
  X(XORI_M1, "xori %0, %1, -1", XOR, -1) \
  X(XORI_555, "xori %0, %1, 0x555", XOR, 0x555) \
  X(XORI_MIN, "xori %0, %1, -2048", XOR, -2048) \
  X(ORI_M1, "ori %0, %1, -1", OR, -1) \
  X(ORI_555, "ori %0, %1, 0x555", OR, 0x555) \
  X(ORI_MIN, "ori %0, %1, -2048", OR, -2048) \
  X(ANDI_0, "andi %0, %1, 0", AND, 0) \
  X(ANDI_M1, "andi %0, %1, -1", AND, -1) \
  X(ANDI_555, "andi %0, %1, 0x555", AND, 0x555) \
  X(ANDI_MIN, "andi %0, %1, -2048", AND, -2048) \
  X(SLLI_0, "slli %0, %1, 0", SLL, 0) \
  X(SLLI_1, "slli %0, %1, 1", SLL, 1) \
  X(SLLI_31, "slli %0, %1, 31", SLL, 31) \
  X(SRLI_0, "srli %0, %1, 0", SRL, 0) \
  X(SRLI_1, "srli %0, %1, 1", SRL, 1) \
  X(SRLI_31, "srli %0, %1, 31", SRL, 31) \
  X(SRAI_0, "srai %0, %1, 0", SRA, 0) \
  X(SRAI_1, "srai %0, %1, 1", SRA, 1) \
  X(SRAI_31, "srai %0, %1, 31", SRA, 31) \
  X(LUI_0, "lui %0, 0", LUI, 0) \
  X(LUI_1, "lui %0, 1", LUI, 1) \
  X(LUI_SIGN, "lui %0, 0x80000", LUI, 0x80000) \
  X(LUI_ALL, "lui %0, 0xfffff", LUI, 0xfffff) \
  X(LUI_X0, "lui zero, 0x12345\n mv %0, zero", ZERO, 0) \
  /* auipc minus the label's absolute address (lui/addi) is imm << 12 */ \
  X(AUIPC_0, "1: auipc %0, 0\n lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0", LUI, 0) \
  X(AUIPC_1, "1: auipc %0, 1\n lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0", LUI, 1) \
  X(AUIPC_SIGN, "1: auipc %0, 0x80000\n lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0", LUI, 0x80000) \
  X(AUIPC_ALL, "1: auipc %0, 0xfffff\n lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0", LUI, 0xfffff) \
  /* jumps: the link minus the return label's address is 0; falling \
   * through where a jump should be taken leaves 0xbad */ \
  X(JAL, "jal %0, 2f\n1: li %0, 0xbad\n j 3f\n2: lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0\n3:", ZERO, 0) \
  X(JALR, "lui t0, %%hi(2f)\n addi t0, t0, %%lo(2f)\n jalr %0, 0(t0)\n1: li %0, 0xbad\n j 3f\n2: lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0\n3:", ZERO, 0) \
  X(JALR_ODD, "lui t0, %%hi(2f)\n addi t0, t0, %%lo(2f)\n jalr %0, 1(t0)\n1: li %0, 0xbad\n j 3f\n2: lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0\n3:", ZERO, 0) \
  X(JALR_NEG, "lui t0, %%hi(2f)\n addi t0, t0, %%lo(2f)\n addi t0, t0, 9\n jalr %0, -8(t0)\n1: li %0, 0xbad\n j 3f\n2: lui t0, %%hi(1b)\n addi t0, t0, %%lo(1b)\n sub %0, %0, t0\n3:", ZERO, 0) \
  X(JALR_SAME, "lui t0, %%hi(2f)\n addi t0, t0, %%lo(2f)\n jalr t0, 0(t0)\n1: li %0, 0xbad\n j 3f\n2: lui %0, %%hi(1b)\n addi %0, %0, %%lo(1b)\n sub %0, t0, %0\n3:", ZERO, 0) \
  X(JAL_X0, "li %0, 0x3ad\n jal zero, 1f\n li %0, 7\n1: sub %0, %0, zero\n addi %0, %0, -0x3ad", ZERO, 0)

/* Branches, taken forward (result 1) and backward; not taken gives 0. */
#define BRANCH_FWD(insn) "li %0, 1\n " insn " %1, %2, 1f\n li %0, 0\n1:"
#define BRANCH_BACK(insn) "j 2f\n1: li %0, 1\n j 3f\n2: li %0, 0\n " insn " %1, %2, 1b\n3:"
#define BRANCH_OPS(X) \
  X(BEQ_F, BRANCH_FWD("beq"), EQ) X(BEQ_B, BRANCH_BACK("beq"), EQ) \
  X(BNE_F, BRANCH_FWD("bne"), NE) X(BNE_B, BRANCH_BACK("bne"), NE) \
  X(BLT_F, BRANCH_FWD("blt"), LT) X(BLT_B, BRANCH_BACK("blt"), LT) \
  X(BGE_F, BRANCH_FWD("bge"), GE) X(BGE_B, BRANCH_BACK("bge"), GE) \
  X(BLTU_F, BRANCH_FWD("bltu"), LTU) X(BLTU_B, BRANCH_BACK("bltu"), LTU) \
  X(BGEU_F, BRANCH_FWD("bgeu"), GEU) X(BGEU_B, BRANCH_BACK("bgeu"), GEU)

/* Loads from a known buffer: X(NAME, template, bytes, signed, offset in the
 * instruction). %1 holds buffer + byte offset - instruction offset. */
#define LOAD_OPS(X) \
  X(LB, "lb %0, 0(%1)", 1, 1, 0) \
  X(LBU, "lbu %0, 0(%1)", 1, 0, 0) \
  X(LH, "lh %0, 0(%1)", 2, 1, 0) \
  X(LHU, "lhu %0, 0(%1)", 2, 0, 0) \
  X(LW, "lw %0, 0(%1)", 4, 0, 0) \
  X(LB_NEG, "lb %0, -3(%1)", 1, 1, -3) \
  X(LH_POS, "lh %0, 6(%1)", 2, 1, 6) \
  X(LW_NEG, "lw %0, -2048(%1)", 4, 0, -2048) \
  X(LW_X0, "lw zero, 0(%1)\n mv %0, zero", 0, 0, 0)

/* Stores of %2 into a word of known bytes, which is then read back with lw:
 * X(NAME, template, bytes, offset in the instruction). */
#define STORE_OPS(X) \
  X(SB, "sb %2, 0(%1)", 1, 0) \
  X(SH, "sh %2, 0(%1)", 2, 0) \
  X(SW, "sw %2, 0(%1)", 4, 0) \
  X(SB_NEG, "sb %2, -1(%1)", 1, -1) \
  X(SH_POS, "sh %2, 2046(%1)", 2, 2046)

/* FP arithmetic: rm = dyn (frm reads 0: round to nearest, ties to even). */
#define FP_ARITH_OPS(X) \
  X(FADD, FP_FF("fadd.s")) \
  X(FSUB, FP_FF("fsub.s")) \
  X(FMUL, FP_FF("fmul.s")) \
  X(FDIV, FP_FF("fdiv.s"))

/* FP arithmetic with the other static rounding modes: X(NAME, template, op, rm). */
#define FP_RM(insn, rm) FP_IN insn " ft2, ft0, ft1, " rm "\n fmv.x.w %0, ft2"
#define FP_RM_MODES(X, NAME, insn) \
  X(NAME##_RTZ, FP_RM(insn, "rtz"), NAME, RTZ) X(NAME##_RDN, FP_RM(insn, "rdn"), NAME, RDN) \
  X(NAME##_RUP, FP_RM(insn, "rup"), NAME, RUP) X(NAME##_RMM, FP_RM(insn, "rmm"), NAME, RMM)
#define FP_ARITH_RM_OPS(X) \
  FP_RM_MODES(X, FADD, "fadd.s") FP_RM_MODES(X, FSUB, "fsub.s") \
  FP_RM_MODES(X, FMUL, "fmul.s") FP_RM_MODES(X, FDIV, "fdiv.s")

/* FP compares, sign injection, raw moves (no NaN canonicalisation), x0 results. */
#define FP_BITS_OPS(X) \
  X(FEQ, FP_FI("feq.s")) \
  X(FLT, FP_FI("flt.s")) \
  X(FLE, FP_FI("fle.s")) \
  X(FSGNJ, FP_FF("fsgnj.s")) \
  X(FSGNJN, FP_FF("fsgnjn.s")) \
  X(FSGNJX, FP_FF("fsgnjx.s")) \
  X(FMV, "fmv.w.x ft0, %1\n fmv.x.w %0, ft0") \
  X(FLW_FSW, "addi sp, sp, -16\n sw %1, 4(sp)\n flw ft0, 4(sp)\n fsw ft0, 12(sp)\n lw %0, 12(sp)\n addi sp, sp, 16") \
  X(FEQ_X0, FP_IN "feq.s zero, ft0, ft1\n mv %0, zero") \
  X(FMV_X0, "fmv.w.x ft0, %1\n fmv.x.w zero, ft0\n mv %0, zero") \
  X(FCVT_X0, FP_IN "fcvt.w.s zero, ft0, rtz\n mv %0, zero")

/* Only in the full profile: real Tinsel lacks fmin/fmax. */
#define FP_MINMAX_OPS(X) \
  X(FMIN, FP_FF("fmin.s")) \
  X(FMAX, FP_FF("fmax.s"))

/* Conversions with every static rounding mode and dyn (= rne). */
#define FP_CVT_MODES(X, NAME, T) \
  X(NAME##_RNE, T("rne"), NAME, RNE) X(NAME##_RTZ, T("rtz"), NAME, RTZ) \
  X(NAME##_RDN, T("rdn"), NAME, RDN) X(NAME##_RUP, T("rup"), NAME, RUP) \
  X(NAME##_RMM, T("rmm"), NAME, RMM) X(NAME##_DYN, T("dyn"), NAME, RNE)
#define T_CVT_W_S(rm) FP_F2I("fcvt.w.s", rm)
#define T_CVT_WU_S(rm) FP_F2I("fcvt.wu.s", rm)
#define T_CVT_S_W(rm) FP_I2F("fcvt.s.w", rm)
#define T_CVT_S_WU(rm) FP_I2F("fcvt.s.wu", rm)
#define FP_F2I_OPS(X) FP_CVT_MODES(X, CVT_W_S, T_CVT_W_S) FP_CVT_MODES(X, CVT_WU_S, T_CVT_WU_S)
#define FP_I2F_OPS(X) FP_CVT_MODES(X, CVT_S_W, T_CVT_S_W) FP_CVT_MODES(X, CVT_S_WU, T_CVT_S_WU)

#endif
