/* tests/sim/gen_vectors.c: writes the expected-result tables of the tsim
 * firmware tests, computed on the host from the ISA's definitions.
 *
 *   gen_vectors CLASS > CLASS.vec.h
 *   gen_vectors threads INT_ITERS FP_ITERS NTHREADS > FILE.vec.h
 *
 * Integer results follow RV32IM. FP results use the host's IEEE single
 * (SSE on x86-64: round to nearest even, subnormals kept), plus the RISC-V
 * rules the host does not share: every NaN result is the canonical NaN,
 * conversions saturate, fmin/fmax prefer the number to a NaN and order -0
 * below +0, and the static rounding modes are applied explicitly.
 */
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "thread_work.h"

_Static_assert(FLT_EVAL_METHOD == 0, "float arithmetic must be done in single precision");

#define CANONICAL_NAN 0x7fc00000u

/* Operand sets. Integers: zero, one, the signed and unsigned extremes and
 * their neighbours, shift amounts around 32, and mixed bit patterns. */
static const uint32_t int_values[] = {
  0, 1, 2, 31, 32, 33, 0x0000ffff, 0x12345678, 0x55555555, 0x7fffffff,
  0x80000000, 0x80000001, 0xaaaaaaaa, 0xfedcba98, 0xfffffffe, 0xffffffff,
};
static const uint32_t branch_values[] = { 0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff };

/* Floats: signed zeros, ordinary values, inexact fractions, the normal and
 * subnormal extremes, infinities, quiet, signalling and payload NaNs. */
static const uint32_t fp_values[] = {
  0x00000000, 0x80000000, /* +0, -0 */
  0x3f800000, 0xbf800000, 0x3f800001, 0x3fc00000, 0x40400000, /* 1, -1, 1+ulp, 1.5, 3 */
  0x3dcccccd, 0x3eaaaaab, 0x33800000, 0x4b800000, /* 0.1, 1/3, 2^-24, 2^24 */
  0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000, /* +-max, +-min normal */
  0x00000001, 0x80000001, 0x007fffff, 0x00400000, /* subnormals */
  0x7f800000, 0xff800000, /* +-inf */
  0x7fc00000, 0xffc12345, 0x7fa00001, /* qNaN, -qNaN with payload, sNaN */
};

/* Pairs that exercise rounding: ties to even and carries into the exponent. */
static const uint32_t fp_rounding_pairs[][2] = {
  { 0x3f800000, 0x33800000 }, /* 1 + 2^-24: tie, stays 1 */
  { 0x3f800001, 0x33800000 }, /* (1+ulp) + 2^-24: tie, rounds up to even */
  { 0x3f800000, 0x33800001 }, /* just above the tie: rounds up */
  { 0x3fffffff, 0x34000000 }, /* carry into the exponent */
  { 0x7f7fffff, 0x73800000 }, /* max + half ulp: overflows to inf */
  { 0x7f7fffff, 0x7f7fffff }, /* overflow */
  { 0x00800000, 0x3f000000 }, /* min normal * 0.5: exact subnormal */
  { 0x00000001, 0x3f000000 }, /* min subnormal * 0.5: tie, rounds to 0 */
  { 0x00000003, 0x3f000000 }, /* 3 * 2^-150: tie, rounds to even 2 */
  { 0x3f800000, 0x40400000 }, /* 1/3 */
  { 0x40000000, 0x40400000 }, /* 2/3 */
  { 0x3f8ccccd, 0x3dcccccd }, /* 1.1 - 0.1 etc. */
};

/* Float -> int inputs: halves (ties), values just below a half, the int32
 * and uint32 boundaries, out-of-range values, infinities, NaNs, subnormals. */
static const uint32_t f2i_values[] = {
  0x00000000, 0x80000000, 0x3f000000, 0xbf000000, 0x3fc00000, 0xbfc00000,
  0x40200000, 0xc0200000, 0x3effffff, 0x3f7fffff, 0xbf7fffff, 0x3f800000,
  0xbf800000, 0x406ccccd, 0xc06ccccd, 0x4effffff, 0x4f000000, 0xcf000000,
  0xcf000001, 0x4f7fffff, 0x4f800000, 0x501502f9, 0xd01502f9, 0x7f800000,
  0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001, 0x00000001, 0x80000001,
};

/* Int -> float inputs: exact values, ties at 2^24 and above, the extremes. */
static const uint32_t i2f_values[] = {
  0, 1, 0xffffffff, 0x00ffffff, 0x01000001, 0x01000003, 0x01000005,
  0x7fffffff, 0x7fffffc0, 0x7fffff80, 0x80000000, 0x80000001, 0x80000080,
  0xfeffffff, 0xffffff7f, 0x12345678,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t canon(float f) { return isnan(f) ? CANONICAL_NAN : f2u(f); }

static void row(const char *op, uint32_t a, uint32_t b, uint32_t want)
{
  printf("  { OP_%s, 0x%08" PRIx32 "u, 0x%08" PRIx32 "u, 0x%08" PRIx32 "u },\n", op, a, b, want);
}

/* ---- integer semantics ---- */
enum base { ADD, SUB, SLL, SRL, SRA, SLT, SLTU, XOR, OR, AND, LUI, ZERO,
            MUL, MULH, MULHSU, MULHU };

static uint32_t int_op(enum base op, uint32_t a, uint32_t b)
{
  int32_t sa = (int32_t)a, sb = (int32_t)b;
  switch (op) {
  case ADD: return a + b;
  case SUB: return a - b;
  case SLL: return a << (b & 31);
  case SRL: return a >> (b & 31);
  case SRA: return (uint32_t)(sa < 0 ? ~(~sa >> (b & 31)) : sa >> (b & 31));
  case SLT: return sa < sb;
  case SLTU: return a < b;
  case XOR: return a ^ b;
  case OR: return a | b;
  case AND: return a & b;
  case LUI: return b << 12;
  case ZERO: return 0;
  case MUL: return a * b;
  case MULH: return (uint32_t)((uint64_t)((int64_t)sa * sb) >> 32);
  case MULHSU: return (uint32_t)((uint64_t)((int64_t)sa * (int64_t)b) >> 32);
  case MULHU: return (uint32_t)(((uint64_t)a * b) >> 32);
  }
  abort();
}

static void gen_rr(const char *const *names, const enum base *bases, size_t n)
{
  for (size_t op = 0; op < n; op++)
    for (size_t i = 0; i < N(int_values); i++)
      for (size_t j = 0; j < N(int_values); j++)
        row(names[op], int_values[i], int_values[j], int_op(bases[op], int_values[i], int_values[j]));
}

static void gen_int_rr(void)
{
  /* x0 variants read back zero */
  static const char *const names[] = {
#define NAME(name, ...) #name,
    INT_RR_OPS(NAME)
  };
  static const enum base bases[] = { ADD, SUB, SLL, SRL, SRA, SLT, SLTU, XOR, OR, AND, ZERO, ZERO };
  _Static_assert(N(names) == N(bases), "INT_RR_OPS changed");
  gen_rr(names, bases, N(names));
}

static void gen_mul(void)
{
  static const char *const names[] = { MUL_OPS(NAME) };
  static const enum base bases[] = { MUL, MULH, MULHSU, MULHU, ZERO };
  _Static_assert(N(names) == N(bases), "MUL_OPS changed");
  gen_rr(names, bases, N(names));
}

static void gen_int_imm(void)
{
  static const struct { const char *name; enum base op; int32_t imm; } ops[] = {
#define IMM(name, insn, op, imm) { #name, op, imm },
    INT_IMM_OPS(IMM)
  };
  for (size_t k = 0; k < N(ops); k++) {
    if (ops[k].op == LUI || ops[k].op == ZERO) { /* no register operand */
      row(ops[k].name, 0, 0, int_op(ops[k].op, 0, (uint32_t)ops[k].imm));
      continue;
    }
    for (size_t i = 0; i < N(int_values); i++)
      row(ops[k].name, int_values[i], 0, int_op(ops[k].op, int_values[i], (uint32_t)ops[k].imm));
  }
}

enum cond { EQ, NE, LT, GE, LTU, GEU };

static void gen_branch(void)
{
  static const struct { const char *name; enum cond c; } ops[] = {
#define BR(name, insn, c) { #name, c },
    BRANCH_OPS(BR)
  };
  for (size_t k = 0; k < N(ops); k++)
    for (size_t i = 0; i < N(branch_values); i++)
      for (size_t j = 0; j < N(branch_values); j++) {
        uint32_t a = branch_values[i], b = branch_values[j];
        int32_t sa = (int32_t)a, sb = (int32_t)b;
        int taken = ops[k].c == EQ ? a == b : ops[k].c == NE ? a != b
                  : ops[k].c == LT ? sa < sb : ops[k].c == GE ? sa >= sb
                  : ops[k].c == LTU ? a < b : a >= b;
        row(ops[k].name, a, b, (uint32_t)taken);
      }
}

/* Loads read this buffer; stores write into a word holding STORE_INIT. */
static const uint8_t mem_bytes[16] = {
  0x80, 0x7f, 0xff, 0x01, 0x00, 0x80, 0xff, 0x7f,
  0x78, 0x56, 0x34, 0x12, 0xef, 0xcd, 0xab, 0x89,
};
#define STORE_INIT 0xa5a5a5a5u

static void gen_mem(void)
{
  static const struct { const char *name; int bytes, sign; } loads[] = {
#define LD(name, insn, bytes, sign, imm) { #name, bytes, sign },
    LOAD_OPS(LD)
  };
  static const struct { const char *name; int bytes; } stores[] = {
#define ST(name, insn, bytes, imm) { #name, bytes },
    STORE_OPS(ST)
  };
  static const uint32_t store_values[] = { 0x00000000, 0xffffffff, 0x12345678, 0x80000001 };

  printf("static const uint8_t mem_bytes[16] __attribute__((aligned(16))) = {");
  for (size_t i = 0; i < N(mem_bytes); i++) printf("%s0x%02x", i ? ", " : " ", mem_bytes[i]);
  printf(" };\n#define STORE_INIT 0x%08" PRIx32 "u\n", STORE_INIT);
  printf("static const struct vec vectors[] = {\n");
  for (size_t k = 0; k < N(loads); k++) {
    int width = loads[k].bytes ? loads[k].bytes : 4; /* the x0 load reads a word */
    for (int off = 0; off + width <= 16; off += width) {
      uint32_t v = 0;
      for (int i = 0; i < loads[k].bytes; i++) v |= (uint32_t)mem_bytes[off + i] << (8 * i);
      if (loads[k].sign && loads[k].bytes < 4 && (v >> (8 * loads[k].bytes - 1)) & 1)
        v |= ~0u << (8 * loads[k].bytes);
      row(loads[k].name, (uint32_t)off, 0, v);
    }
  }
  for (size_t k = 0; k < N(stores); k++)
    for (int off = 0; off + stores[k].bytes <= 4; off += stores[k].bytes)
      for (size_t s = 0; s < N(store_values); s++) {
        uint32_t w = STORE_INIT;
        for (int i = 0; i < stores[k].bytes; i++) {
          uint32_t byte = (store_values[s] >> (8 * i)) & 0xff;
          w = (w & ~(0xffu << (8 * (off + i)))) | byte << (8 * (off + i));
        }
        row(stores[k].name, (uint32_t)off, store_values[s], w);
      }
  printf("};\n");
}

/* ---- floating point ---- */
enum rm { RNE, RTZ, RDN, RUP, RMM };
enum fop { FADD, FSUB, FMUL, FDIV, FEQ, FLT, FLE, FSGNJ, FSGNJN, FSGNJX, FMV, FLW_FSW, FMIN, FMAX, FZERO };

static uint32_t fp_op(enum fop op, uint32_t a, uint32_t b)
{
  volatile float x = u2f(a), y = u2f(b); /* volatile: computed at run time */
  switch (op) {
  case FADD: return canon(x + y);
  case FSUB: return canon(x - y);
  case FMUL: return canon(x * y);
  case FDIV: return canon(x / y);
  case FEQ: return x == y;   /* false for any NaN */
  case FLT: return x < y;
  case FLE: return x <= y;
  case FSGNJ: return (a & 0x7fffffff) | (b & 0x80000000);
  case FSGNJN: return (a & 0x7fffffff) | (~b & 0x80000000);
  case FSGNJX: return a ^ (b & 0x80000000);
  case FMV: case FLW_FSW: return a;  /* bits move unchanged, NaNs too */
  case FZERO: return 0;              /* x0 as the destination */
  case FMIN: case FMAX: {
    if (isnan(x) && isnan(y)) return CANONICAL_NAN;
    if (isnan(x)) return b;
    if (isnan(y)) return a;
    if (x == y) /* equal; zeros may differ in sign, and -0 < +0 */
      return (op == FMIN) == ((a >> 31) != 0) ? a : b;
    return (op == FMIN) == (x < y) ? a : b;
  }
  }
  abort();
}

static void gen_fp(const char *const *names, const enum fop *ops, size_t n, int rounding_pairs)
{
  for (size_t k = 0; k < n; k++) {
    for (size_t i = 0; i < N(fp_values); i++)
      for (size_t j = 0; j < N(fp_values); j++)
        row(names[k], fp_values[i], fp_values[j], fp_op(ops[k], fp_values[i], fp_values[j]));
    for (size_t i = 0; rounding_pairs && i < N(fp_rounding_pairs); i++)
      row(names[k], fp_rounding_pairs[i][0], fp_rounding_pairs[i][1],
          fp_op(ops[k], fp_rounding_pairs[i][0], fp_rounding_pairs[i][1]));
  }
}

static void gen_fp_arith(void)
{
  static const char *const names[] = { FP_ARITH_OPS(NAME) };
  static const enum fop ops[] = { FADD, FSUB, FMUL, FDIV };
  _Static_assert(N(names) == N(ops), "FP_ARITH_OPS changed");
  gen_fp(names, ops, N(ops), 1);
}

/* Arithmetic in a static rounding mode: the host rounds in RTZ, RDN and RUP;
 * RMM differs from RNE only on an exact tie, which the double result shows
 * (a float sum or product is exact in double, and a float quotient is never
 * within a double rounding of a float midpoint unless it is one). */
static uint32_t fp_arith_rm(enum fop op, uint32_t a, uint32_t b, enum rm rm)
{
  static const int host[] = { [RNE] = FE_TONEAREST, [RTZ] = FE_TOWARDZERO,
                              [RDN] = FE_DOWNWARD, [RUP] = FE_UPWARD, [RMM] = FE_TONEAREST };
  volatile float x = u2f(a), y = u2f(b), r;
  fesetround(host[rm]);
  r = op == FADD ? x + y : op == FSUB ? x - y : op == FMUL ? x * y : x / y;
  fesetround(FE_TONEAREST);
  double d = op == FADD ? (double)x + y : op == FSUB ? (double)x - y
           : op == FMUL ? (double)x * y : (double)x / y;
  if (rm != RMM || !isfinite(r) || (double)r == d) return canon(r);
  float lo = (double)r < d ? r : nextafterf(r, -INFINITY), hi = nextafterf(lo, INFINITY);
  if (d != ((double)lo + (double)hi) / 2) return canon(r);
  return f2u(fabsf(hi) > fabsf(lo) ? hi : lo); /* a tie: away from zero */
}

static void gen_fp_arith_rm(void)
{
  static const struct { const char *name; enum fop op; enum rm rm; } ops[] = {
#define ARM(name, insn, op, rm) { #name, op, rm },
    FP_ARITH_RM_OPS(ARM)
  };
  static const uint32_t values[] = { /* 1, -1, 1+ulp, 0.1, -1/3, max, min subnormal, -min normal, 2^24, 2^-24 */
    0x3f800000, 0xbf800000, 0x3f800001, 0x3dcccccd, 0xbeaaaaab,
    0x7f7fffff, 0x00000001, 0x80800000, 0x4b800000, 0x33800000,
  };
  for (size_t k = 0; k < N(ops); k++) {
    for (size_t i = 0; i < N(values); i++)
      for (size_t j = 0; j < N(values); j++)
        row(ops[k].name, values[i], values[j], fp_arith_rm(ops[k].op, values[i], values[j], ops[k].rm));
    for (size_t i = 0; i < N(fp_rounding_pairs); i++)
      row(ops[k].name, fp_rounding_pairs[i][0], fp_rounding_pairs[i][1],
          fp_arith_rm(ops[k].op, fp_rounding_pairs[i][0], fp_rounding_pairs[i][1], ops[k].rm));
  }
}

static void gen_fp_bits(void)
{
  static const char *const names[] = { FP_BITS_OPS(NAME) };
  static const enum fop ops[] = { FEQ, FLT, FLE, FSGNJ, FSGNJN, FSGNJX, FMV, FLW_FSW, FZERO, FZERO, FZERO };
  _Static_assert(N(names) == N(ops), "FP_BITS_OPS changed");
  gen_fp(names, ops, N(ops), 0);
}

static void gen_fp_minmax(void)
{
  static const char *const names[] = { FP_MINMAX_OPS(NAME) };
  static const enum fop ops[] = { FMIN, FMAX };
  _Static_assert(N(names) == N(ops), "FP_MINMAX_OPS changed");
  gen_fp(names, ops, N(ops), 0);
}

enum cvt { CVT_W_S, CVT_WU_S, CVT_S_W, CVT_S_WU };

/* Round a double holding an integer-valued or fractional number to an
 * integer in mode rm (the double is exact for every float input). */
static double round_int(double d, enum rm rm)
{
  switch (rm) {
  case RNE: return nearbyint(d); /* the default mode: ties to even */
  case RTZ: return trunc(d);
  case RDN: return floor(d);
  case RUP: return ceil(d);
  case RMM: return round(d);     /* ties away from zero */
  }
  abort();
}

static uint32_t cvt_f2i(enum cvt op, uint32_t a, enum rm rm)
{
  float f = u2f(a);
  if (op == CVT_W_S) {
    if (isnan(f)) return 0x7fffffff;
    double r = round_int(f, rm);
    return r > 2147483647.0 ? 0x7fffffff : r < -2147483648.0 ? 0x80000000 : (uint32_t)(int32_t)r;
  }
  if (isnan(f)) return 0xffffffff;
  double r = round_int(f, rm);
  return r > 4294967295.0 ? 0xffffffff : r < 0 ? 0 : (uint32_t)r;
}

/* Int -> float: the integer is exact in a double; pick the float below and
 * above it and choose per rounding mode. */
static uint32_t cvt_i2f(enum cvt op, uint32_t a, enum rm rm)
{
  double d = op == CVT_S_W ? (double)(int32_t)a : (double)a;
  float f = (float)d; /* round to nearest even */
  if ((double)f == d) return f2u(f);
  float lo = (double)f < d ? f : nextafterf(f, -INFINITY);
  float hi = nextafterf(lo, INFINITY);
  double dl = d - (double)lo, dh = (double)hi - d; /* exact: all near 2^31 */
  switch (rm) {
  case RNE: return f2u(f);
  case RTZ: return f2u(d > 0 ? lo : hi);
  case RDN: return f2u(lo);
  case RUP: return f2u(hi);
  case RMM: return f2u(dl < dh ? lo : dh < dl ? hi : d > 0 ? hi : lo);
  }
  abort();
}

static const struct cvt_op { const char *name; enum cvt op; enum rm rm; } f2i_ops[] = {
#define CVT(name, insn, op, rm) { #name, op, rm },
  FP_F2I_OPS(CVT)
}, i2f_ops[] = { FP_I2F_OPS(CVT) };

static void gen_fp_f2i(void)
{
  for (size_t k = 0; k < N(f2i_ops); k++)
    for (size_t i = 0; i < N(f2i_values); i++)
      row(f2i_ops[k].name, f2i_values[i], 0, cvt_f2i(f2i_ops[k].op, f2i_values[i], f2i_ops[k].rm));
}

static void gen_fp_i2f(void)
{
  for (size_t k = 0; k < N(i2f_ops); k++)
    for (size_t i = 0; i < N(i2f_values); i++)
      row(i2f_ops[k].name, i2f_values[i], 0, cvt_i2f(i2f_ops[k].op, i2f_values[i], i2f_ops[k].rm));
}

static unsigned long arg(const char *s)
{
  char *end;
  unsigned long v = strtoul(s, &end, 0);
  if (!*s || *end || v > 65536) {
    fprintf(stderr, "gen_vectors: bad number \"%s\" (0..65536)\n", s);
    exit(2);
  }
  return v;
}

/* Expected per-thread results of thread_work.h for threads 0..n-1. */
static void gen_threads(uint32_t int_iters, uint32_t fp_iters, uint32_t n)
{
  printf("#define WORK_INT_ITERS %" PRIu32 "\n#define WORK_FP_ITERS %" PRIu32 "\n", int_iters, fp_iters);
  printf("#define WORK_THREADS %" PRIu32 "\n", n);
  printf("static const uint32_t want_work[][2] = {\n");
  for (uint32_t t = 0; t < n; t++)
    printf("  { 0x%08" PRIx32 "u, 0x%08" PRIx32 "u },\n", thread_work_int(t, int_iters), thread_work_fp(t, fp_iters));
  printf("};\n");
}

int main(int argc, char **argv)
{
  static const struct { const char *name; void (*gen)(void); } classes[] = {
    { "int_rr", gen_int_rr }, { "mul", gen_mul }, { "int_imm", gen_int_imm },
    { "branch", gen_branch }, { "mem", gen_mem }, { "fp_arith", gen_fp_arith },
    { "fp_arith_rm", gen_fp_arith_rm }, { "fp_bits", gen_fp_bits },
    { "fp_minmax", gen_fp_minmax },
    { "fp_f2i", gen_fp_f2i }, { "fp_i2f", gen_fp_i2f },
  };
  if (argc == 5 && !strcmp(argv[1], "threads")) {
    printf("/* Generated by gen_vectors threads. DO NOT EDIT. */\n");
    gen_threads((uint32_t)arg(argv[2]), (uint32_t)arg(argv[3]), (uint32_t)arg(argv[4]));
    return 0;
  }
  for (size_t i = 0; argc == 2 && i < N(classes); i++) {
    if (strcmp(argv[1], classes[i].name)) continue;
    printf("/* Generated by gen_vectors %s. DO NOT EDIT. */\n", argv[1]);
    if (classes[i].gen == gen_mem) { gen_mem(); return 0; } /* writes its buffer too */
    printf("static const struct vec vectors[] = {\n");
    classes[i].gen();
    printf("};\n");
    return 0;
  }
  fprintf(stderr, "usage: gen_vectors CLASS    (CLASS: int_rr mul int_imm branch mem fp_arith fp_arith_rm\n"
                  "                            fp_bits fp_minmax fp_f2i fp_i2f)\n"
                  "       gen_vectors threads INT_ITERS FP_ITERS NTHREADS\n");
  return 2;
}
