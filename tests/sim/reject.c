/* tests/sim/reject.c: one instruction real Tinsel lacks, at the global label
 * rejected_insn, chosen with -DREJECT=NAME (reject.list). Profile tinsel
 * must halt there; profile full must execute it, and the result is checked
 * (check 1: first result word, check 2: second).
 *
 * CASE_<NAME>: asm, expected %0, expected %1. The asm sees the 8-byte buffer
 * bytes (11 22 33 44 55 66 77 88) in %2 and may clobber t0-t2 and ft0-ft2.
 * Expected values are derived by hand in the comments.
 * With -DONLY_CORE=C -DONLY_THREAD=T only thread T of core C runs the case.
 */
#include "test.h"
#include "tinsel_config.h"

#define AT "\n.globl rejected_insn\nrejected_insn: "
#define FP_ARGS "li t0, 0x3fc00000\n fmv.w.x ft0, t0\n li t0, 0x40000000\n fmv.w.x ft1, t0\n" \
                "li t0, 0x3e800000\n fmv.w.x ft2, t0\n"   /* 1.5, 2.0, 0.25 */
#define CASE_DIV "li t0, -7\n li t1, 2" AT "div %0, t0, t1", 0xfffffffd, 0  /* -3.5 truncates to -3 */
#define CASE_DIVU "li t0, -7\n li t1, 2" AT "divu %0, t0, t1", 0x7ffffffc, 0 /* 0xfffffff9 / 2 */
#define CASE_REM "li t0, -7\n li t1, 2" AT "rem %0, t0, t1", 0xffffffff, 0  /* sign of the dividend: -1 */
#define CASE_REMU "li t0, -7\n li t1, 2" AT "remu %0, t0, t1", 1, 0         /* 0xfffffff9 is odd */
#define CASE_FSQRT "li t0, 0x40100000\n fmv.w.x ft0, t0" AT "fsqrt.s ft1, ft0\n fmv.x.w %0, ft1", \
                   0x3fc00000, 0                                       /* sqrt(2.25) = 1.5 */
#define CASE_FMIN "li t0, 0x3f800000\n fmv.w.x ft0, t0\n li t0, 0xc0000000\n fmv.w.x ft1, t0" \
                  AT "fmin.s ft2, ft0, ft1\n fmv.x.w %0, ft2", 0xc0000000, 0   /* min(1, -2) = -2 */
#define CASE_FMAX "li t0, 0x3f800000\n fmv.w.x ft0, t0\n li t0, 0xc0000000\n fmv.w.x ft1, t0" \
                  AT "fmax.s ft2, ft0, ft1\n fmv.x.w %0, ft2", 0x3f800000, 0   /* max(1, -2) = 1 */
#define CASE_FCLASS "li t0, 0xff800000\n fmv.w.x ft0, t0" AT "fclass.s %0, ft0\n" \
                    "li t0, 0x00000001\n fmv.w.x ft0, t0\n fclass.s %1, ft0", \
                    1, 0x20                          /* -inf: bit 0; +subnormal: bit 5 */
#define CASE_FMADD FP_ARGS AT "fmadd.s ft2, ft0, ft1, ft2\n fmv.x.w %0, ft2", 0x40500000, 0   /* 3.25 */
#define CASE_FMSUB FP_ARGS AT "fmsub.s ft2, ft0, ft1, ft2\n fmv.x.w %0, ft2", 0x40300000, 0   /* 2.75 */
#define CASE_FNMADD FP_ARGS AT "fnmadd.s ft2, ft0, ft1, ft2\n fmv.x.w %0, ft2", 0xc0500000, 0 /* -3.25 */
#define CASE_FNMSUB FP_ARGS AT "fnmsub.s ft2, ft0, ft1, ft2\n fmv.x.w %0, ft2", 0xc0300000, 0 /* -2.75 */
/* CSR forms: HartId reads 0 (thread 0 of core 0); fflags reads 0, writes ignored */
#define CASE_CSRRS "li %0, 5" AT "csrrs %0, 0xf14, zero", 0, 0
#define CASE_CSRRC "li %0, 5" AT "csrrc %0, fflags, zero", 0, 0
#define CASE_CSRRWI "li %0, 5" AT "csrrwi %0, fflags, 0", 0, 0
#define CASE_CSRRSI "li %0, 5" AT "csrrsi %0, fflags, 1\n csrrw %1, fflags, zero", 0, 0
#define CASE_CSRRCI "li %0, 5" AT "csrrci %0, fflags, 1", 0, 0
/* full profile: no-ops, registers unchanged */
#define CASE_ECALL "li %0, 42" AT "ecall", 42, 0
#define CASE_EBREAK "li %0, 43" AT "ebreak", 43, 0
/* misaligned loads: little-endian bytes at offsets 1 and 3 */
#define CASE_LW_MIS AT "lw %0, 1(%2)", 0x55443322, 0
#define CASE_LH_MIS AT "lh %0, 3(%2)", 0x00005544, 0
#define CASE_LHU_MIS AT "lhu %0, 1(%2)", 0x00003322, 0
#define CASE_FLW_MIS AT "flw ft0, 2(%2)\n fmv.x.w %0, ft0", 0x66554433, 0
/* misaligned stores, then both words read back: 11 22 33 44 55 66 77 88 */
#define CASE_SW_MIS "li t0, 0xaabbccdd" AT "sw t0, 1(%2)\n lw %0, 0(%2)\n lw %1, 4(%2)", \
                    0xbbccdd11, 0x887766aa                          /* 11 dd cc bb aa 66 77 88 */
#define CASE_SH_MIS "li t0, 0xbeef" AT "sh t0, 3(%2)\n lw %0, 0(%2)\n lw %1, 4(%2)", \
                    0xef332211, 0x887766be                          /* 11 22 33 ef be 66 77 88 */
#define CASE_FSW_MIS "li t0, 0x3f800000\n fmv.w.x ft0, t0" AT "fsw ft0, 3(%2)\n lw %0, 0(%2)\n lw %1, 4(%2)", \
                     0x00332211, 0x883f8000                         /* 11 22 33 00 00 80 3f 88 */

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define ASM_(a, w0, w1) a
#define WANT0_(a, w0, w1) w0
#define WANT1_(a, w0, w1) w1
#define ASM(...) ASM_(__VA_ARGS__)
#define WANT0(...) WANT0_(__VA_ARGS__)
#define WANT1(...) WANT1_(__VA_ARGS__)
#define THIS_CASE CAT(CASE_, REJECT)

static uint32_t buf[2] __attribute__((aligned(8))) = { 0x44332211, 0x88776655 };

int main(void)
{
#ifdef ONLY_CORE /* run with --all-threads: the halt must name this thread */
  if (sim_thread_id() != ONLY_CORE * TinselThreadsPerCore + ONLY_THREAD) for (;;) {}
#endif
  uint32_t r0 = 0, r1 = 0;
  __asm__ volatile(ASM(THIS_CASE) : "+&r"(r0), "+&r"(r1) : "r"(buf) : OP_CLOBBERS, "t1", "t2");
  if (r0 != (uint32_t)WANT0(THIS_CASE)) { sim_emit(r0); return 1; }
  if (r1 != (uint32_t)WANT1(THIS_CASE)) { sim_emit(r1); return 2; }
  return 0;
}
