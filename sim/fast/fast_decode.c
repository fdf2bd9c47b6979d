/* fast_decode.c: one instruction word to a FastOp, with the cycle model's
   rules (rtl_models/tsim_core.sv): which encodings are illegal, which are
   outside profile tinsel, which shared unit each needs and the FPU
   latency it adds (boards/tinsel.cfg via tinsel_config.h). */
#include "fast.h"

enum {
  OP_LOAD = 0x03, OP_LOAD_FP = 0x07, OP_MISC_MEM = 0x0f, OP_IMM = 0x13, OP_AUIPC = 0x17, OP_STORE = 0x23,
  OP_STORE_FP = 0x27, OP_REG = 0x33, OP_LUI = 0x37, OP_MADD = 0x43, OP_MSUB = 0x47, OP_NMSUB = 0x4b,
  OP_NMADD = 0x4f, OP_FP = 0x53, OP_BRANCH = 0x63, OP_JALR = 0x67, OP_JAL = 0x6f, OP_SYSTEM = 0x73
};
enum {
  FADD = 0x00, FSUB = 0x01, FMUL = 0x02, FDIV = 0x03, FSQRT = 0x0b, FSGNJ = 0x04, FMINMAX = 0x05,
  FCMP = 0x14, FCVTWS = 0x18, FCVTSW = 0x1a, FMVXW = 0x1c, FMVWX = 0x1e
};

static int32_t imm_i(uint32_t i) { return (int32_t)i >> 20; }
static int32_t imm_s(uint32_t i) { return (int32_t)(i & 0xfe000000u) >> 20 | (int32_t)((i >> 7) & 0x1f); }
static int32_t imm_b(uint32_t i) {
  return (int32_t)(i & 0x80000000u) >> 19 | (int32_t)((i & 0x80) << 4) | (int32_t)((i >> 20) & 0x7e0) |
         (int32_t)((i >> 7) & 0x1e);
}
static int32_t imm_j(uint32_t i) {
  return (int32_t)(i & 0x80000000u) >> 11 | (int32_t)(i & 0xff000) | (int32_t)((i >> 9) & 0x800) |
         (int32_t)((i >> 20) & 0x7fe);
}

static FastOp make(unsigned op, uint32_t i, int32_t imm) {
  FastOp o = {(uint8_t)op, (uint8_t)((i >> 7) & 31), (uint8_t)((i >> 15) & 31), (uint8_t)((i >> 20) & 31), imm};
  return o;
}

static FastOp op_imm(uint32_t i) {
  unsigned f3 = (i >> 12) & 7;
  static const uint8_t ops[8] = {F_ADDI, F_SLLI, F_SLTI, F_SLTIU, F_XORI, F_SRLI, F_ORI, F_ANDI};
  if (f3 == 1 && (i >> 25) != 0) return make(F_ILLEGAL, i, 0);
  if (f3 == 5 && ((i >> 31) || ((i >> 25) & 0x1f))) return make(F_ILLEGAL, i, 0);
  unsigned op = f3 == 5 && (i >> 30 & 1) ? F_SRAI : ops[f3];
  return make(op, i, op == F_SLLI || op == F_SRLI || op == F_SRAI ? (int32_t)((i >> 20) & 31) : imm_i(i));
}

static FastOp op_reg(uint32_t i, int full) {
  unsigned f3 = (i >> 12) & 7, f7 = i >> 25;
  static const uint8_t ops[8] = {F_ADD, F_SLL, F_SLT, F_SLTU, F_XOR, F_SRL, F_OR, F_AND};
  if (f7 == 1) {
    if ((f3 & 4) && !full) return make(F_PROFILE, i, 0);
    return make(F_MULDIV, i, (f3 & 4) ? TinselIntDivLatency : TinselIntMultLatency);
  }
  if (f7 == 0) return make(ops[f3], i, 0);
  if (f7 == 0x20 && f3 == 0) return make(F_SUB, i, 0);
  if (f7 == 0x20 && f3 == 5) return make(F_SRA, i, 0);
  return make(F_ILLEGAL, i, 0);
}

static int fp_latency(unsigned funct5) {
  switch (funct5) {
  case FADD: case FSUB: return TinselFPAddSubLatency;
  case FMUL: return TinselFPMultLatency;
  case FDIV: return TinselFPDivLatency;
  case FSQRT: return TinselFPSqrtLatency;
  case FCVTWS: case FCVTSW: return TinselFPConvertLatency;
  default: return TinselFPCompareLatency;
  }
}

static FastOp op_fp(uint32_t i, int full) {
  unsigned f3 = (i >> 12) & 7, funct5 = i >> 27;
  switch (funct5) {
  case FSGNJ: return make(f3 == 0 ? F_FSGNJ : f3 == 1 ? F_FSGNJN : f3 == 2 ? F_FSGNJX : F_ILLEGAL, i, 0);
  case FMVXW:
    if (f3 == 0) return make(F_FMVXW, i, 0);
    if (f3 == 1) return make(full ? F_FCLASS : F_PROFILE, i, 0);
    return make(F_ILLEGAL, i, 0);
  case FMVWX: return make(F_FMVWX, i, 0);
  case FSQRT: case FMINMAX:
    if (!full) return make(F_PROFILE, i, 0);
    /* fall through */
  case FADD: case FSUB: case FMUL: case FDIV: case FCMP: case FCVTWS: case FCVTSW: {
    unsigned op = funct5 == FCVTSW ? F_FCVT_SW : funct5 == FCMP || funct5 == FCVTWS ? F_FPU_X : F_FPU;
    return make(op, i, fp_latency(funct5));
  }
  default: return make(F_ILLEGAL, i, 0);
  }
}

static FastOp op_system(uint32_t i, int full) {
  unsigned f3 = (i >> 12) & 7, csr = i >> 20;
  if (f3 == 0) {
    if ((i >> 21) != 0 || ((i >> 7) & 0x1fff) != 0) return make(F_ILLEGAL, i, 0);
    return make(full ? F_NOP : F_PROFILE, i, 0);
  }
  if (f3 == 4) return make(F_ILLEGAL, i, 0);
  if (f3 != 1 && !full) return make(F_PROFILE, i, 0);
  if (csr >= TinselCsrFree && csr <= TinselCsrFromUart) return make(F_CSR_MBOX, i, (int32_t)csr);
  return make(csr == TinselCsrFlush ? F_CSR_FLUSH : F_CSR, i, (int32_t)csr);
}

static FastOp op_branch(uint32_t i) {
  static const uint8_t ops[8] = {F_BEQ, F_BNE, F_ILLEGAL, F_ILLEGAL, F_BLT, F_BGE, F_BLTU, F_BGEU};
  return make(ops[(i >> 12) & 7], i, imm_b(i));
}

FastOp fast_decode(uint32_t i, int full) {
  unsigned f3 = (i >> 12) & 7;
  switch (i & 0x7f) {
  case OP_LUI: return make(F_LUI, i, (int32_t)(i & 0xfffff000u));
  case OP_AUIPC: return make(F_AUIPC, i, (int32_t)(i & 0xfffff000u));
  case OP_JAL: return make(F_JAL, i, imm_j(i));
  case OP_JALR: return make(f3 ? F_ILLEGAL : F_JALR, i, imm_i(i));
  case OP_BRANCH: return op_branch(i);
  case OP_LOAD: return make(F_LOAD, i, imm_i(i));
  case OP_LOAD_FP: return make(F_LOADF, i, imm_i(i));
  case OP_STORE: return make(F_STORE, i, imm_s(i));
  case OP_STORE_FP: return make(F_STOREF, i, imm_s(i));
  case OP_IMM: return op_imm(i);
  case OP_REG: return op_reg(i, full);
  case OP_MISC_MEM: return make(F_NOP, i, 0);
  case OP_MADD: case OP_MSUB: case OP_NMSUB: case OP_NMADD:
    return make(full ? F_FUSED : F_PROFILE, i, TinselFPMultLatency + TinselFPAddSubLatency);
  case OP_FP: return op_fp(i, full);
  case OP_SYSTEM: return op_system(i, full);
  default:
    if ((i & 0x7f) == TinselSendOpcode && f3 == 0 && ((i >> 7) & 31) == 0) return make(F_SEND, i, 0);
    return make(F_ILLEGAL, i, 0);
  }
}

const uint8_t fast_unit_of[F_NUM_OPS] = {
  [F_LOAD] = UNIT_MEM, [F_LOADF] = UNIT_MEM, [F_STORE] = UNIT_MEM, [F_STOREF] = UNIT_MEM, [F_CSR_FLUSH] = UNIT_MEM,
  [F_MULDIV] = UNIT_FPU, [F_FPU] = UNIT_FPU, [F_FPU_X] = UNIT_FPU, [F_FCVT_SW] = UNIT_FPU, [F_FUSED] = UNIT_FPU,
  [F_CSR_MBOX] = UNIT_MBOX, [F_SEND] = UNIT_MBOX,
};
