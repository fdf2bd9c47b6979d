/* tests/sim/t_csr.c: the CSRs a thread uses, through csrrw only (the one CSR
 * instruction real Tinsel has). Checks, numbered as reported:
 *  1-2  HartId is 0 for thread 0 of core 0 (twice: reading has no effect)
 *  3-5  fflags, frm, fcsr read 0 after a write of all ones (FRM is always
 *       round to nearest even; no flags are kept)
 *  6    the cycle counter advances
 *  7    an instruction written through InstrAddr/Instr runs
 */
#include "test.h"
#include "tinsel_config.h"

#define CSRRW(csr, value) ({ uint32_t r_; \
  __asm__ volatile("csrrw %0, %1, %2" : "=r"(r_) : "i"(csr), "r"(value)); r_; })

/* Two instructions at the end of instruction memory, written through CSRs:
 * addi a0, zero, 0x123 = imm 0x123 << 20 | rd 10 << 7 | opcode 0x13 = 0x12300513
 * jalr zero, 0(ra)     = rs1 1 << 15 | opcode 0x67              = 0x00008067 */
#define PATCH_ADDR (TinselInstrBytesPerCore - 8)

int main(void)
{
  if (CSRRW(TinselCsrHartId, 0) != 0) return 1;
  if (CSRRW(TinselCsrHartId, 0) != 0) return 2;
  CSRRW(TinselCsrFFlag, 0x1f);
  if (CSRRW(TinselCsrFFlag, 0) != 0) return 3;
  CSRRW(TinselCsrFRM, 0x7);
  if (CSRRW(TinselCsrFRM, 0) != 0) return 4;
  CSRRW(TinselCsrFCSR, 0xff);
  if (CSRRW(TinselCsrFCSR, 0) != 0) return 5;

  uint32_t c0 = sim_cycle(), c1 = sim_cycle();
  if (c1 == c0) return 6;

  extern char _etext[];
  if ((uintptr_t)_etext > PATCH_ADDR) return 7; /* the program must leave room */
  CSRRW(TinselCsrInstrAddr, PATCH_ADDR / 4);     /* a word index */
  CSRRW(TinselCsrInstr, 0x12300513u);
  CSRRW(TinselCsrInstrAddr, PATCH_ADDR / 4 + 1);
  CSRRW(TinselCsrInstr, 0x00008067u);
  uint32_t (*patched)(void) = (uint32_t (*)(void))PATCH_ADDR;
  if (patched() != 0x123) return 7;
  return 0;
}
