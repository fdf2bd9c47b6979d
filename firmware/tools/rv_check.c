// rv_check.c: decide whether one instruction word runs on real Tinsel
// (tinsel.md §1.1: a subset of RV32IMF, only csrrw, plus the custom Send).
#include "rv_check.h"
#include "tinsel_config.h"

#define OPC(w)    ((w) & 0x7fu)
#define FUNCT3(w) (((w) >> 12) & 7u)
#define FUNCT7(w) ((w) >> 25)
#define RS2(w)    (((w) >> 20) & 0x1fu)

// Send: funct7=0, funct3=0, rd=0, opcode TinselSendOpcode (tinsel.md §2.2).
static int is_send(uint32_t w) {
  return OPC(w) == TinselSendOpcode && FUNCT3(w) == 0 && FUNCT7(w) == 0 && ((w >> 7) & 0x1fu) == 0;
}

static const char *const csr_ops[8] = {
  [2] = "csrrs", [3] = "csrrc", [5] = "csrrwi", [6] = "csrrsi", [7] = "csrrci",
};
static const char *const muldiv[8] = {
  [4] = "div", [5] = "divu", [6] = "rem", [7] = "remu",
};
static const char *const fma_ops[4] = { "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s" };

rv_verdict rv_check(uint32_t w) {
  rv_verdict v = { RV_OK, "", "" };
  if ((w & 3u) != 3u) {
    if (is_send(w)) return v;
    return (rv_verdict){ RV_BAD, "compressed", "no C extension on Tinsel" };
  }
  switch (OPC(w)) {
  case 0x37: case 0x17: case 0x6f: case 0x67: case 0x63: case 0x03: case 0x23: case 0x13:
    return v;                                   // RV32I integer, loads, stores, branches
  case 0x0f:
    return v;                                   // fence: harmless
  case 0x33:
    if (FUNCT7(w) == 1 && muldiv[FUNCT3(w)])
      return (rv_verdict){ RV_BAD, muldiv[FUNCT3(w)], "no hardware divide on Tinsel (build with -mno-div)" };
    return v;
  case 0x73:
    if (FUNCT3(w) == 1) return v;               // csrrw
    if (FUNCT3(w) == 0) {
      if (w == 0x00000073u) return (rv_verdict){ RV_BAD, "ecall", "not implemented on Tinsel" };
      if (w == 0x00100073u) return (rv_verdict){ RV_BAD, "ebreak", "not implemented on Tinsel" };
      return (rv_verdict){ RV_BAD, "system", "privileged instructions are not implemented on Tinsel" };
    }
    if (csr_ops[FUNCT3(w)])
      return (rv_verdict){ RV_BAD, csr_ops[FUNCT3(w)], "Tinsel implements only csrrw" };
    break;
  case 0x07: case 0x27:
    if (FUNCT3(w) == 2) return v;               // flw, fsw
    if (FUNCT3(w) == 3)
      return (rv_verdict){ RV_BAD, OPC(w) == 0x07 ? "fld" : "fsd", "no D extension on Tinsel" };
    break;
  case 0x43: case 0x47: case 0x4b: case 0x4f:
    if ((FUNCT7(w) & 3u) != 0) return (rv_verdict){ RV_BAD, "double-precision op", "no D extension on Tinsel" };
    return (rv_verdict){ RV_BAD, fma_ops[(OPC(w) >> 2) & 3u],
                         "no fused multiply-add on Tinsel (build with -ffp-contract=off)" };
  case 0x53: {
    uint32_t f7 = FUNCT7(w);
    if ((f7 & 3u) != 0) return (rv_verdict){ RV_BAD, "double-precision op", "no D extension on Tinsel" };
    switch (f7 >> 2) {
    case 0x00: case 0x01: case 0x02: case 0x03: return v; // fadd fsub fmul fdiv
    case 0x04: return v;                                   // fsgnj*
    case 0x14: return v;                                   // feq flt fle
    case 0x1e: return v;                                   // fmv.w.x
    case 0x18: case 0x1a:                                  // fcvt.w[u].s, fcvt.s.w[u]
      if (RS2(w) == 1)
        return (rv_verdict){ RV_WARN, f7 >> 2 == 0x18 ? "fcvt.wu.s" : "fcvt.s.wu",
                             "Tinsel treats the unsigned conversion as signed" };
      return v;
    case 0x0b: return (rv_verdict){ RV_BAD, "fsqrt.s", "no fsqrt on Tinsel (use the software sqrtf)" };
    case 0x05: return (rv_verdict){ RV_BAD, FUNCT3(w) ? "fmax.s" : "fmin.s", "not implemented on Tinsel" };
    case 0x1c:
      if (FUNCT3(w) == 1) return (rv_verdict){ RV_BAD, "fclass.s", "not implemented on Tinsel" };
      return v;                                            // fmv.x.w
    }
    break;
  }
  case 0x2f:
    return (rv_verdict){ RV_BAD, "atomic", "no A extension on Tinsel" };
  }
  return (rv_verdict){ RV_BAD, "unknown", "not an instruction Tinsel decodes" };
}
