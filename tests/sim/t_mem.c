/* tests/sim/t_mem.c: loads (sign and zero extension, every byte lane,
 * immediate offsets, into x0) and stores (every lane, read back as a word)
 * against tables from gen_vectors. Row: {op, byte offset, stored value,
 * expected}. */
#include "test.h"
#include "ops.h"

enum { LOAD_OPS(OP_ENUM) STORE_OPS(OP_ENUM) };
#include "mem.vec.h"   /* vectors, mem_bytes, STORE_INIT */

static volatile uint32_t store_word;

static uint32_t exec(uint32_t op, uint32_t a, uint32_t b)
{
  uint32_t r = 0xdeadbeef;
  uintptr_t p;
  switch (op) {
#define LOAD_CASE(name, insn, bytes, sign, imm) \
  case OP_##name: \
    p = (uintptr_t)mem_bytes + a - (imm); \
    __asm__ volatile(insn : "=&r"(r) : "r"(p), "r"(b) : OP_CLOBBERS); \
    break;
    LOAD_OPS(LOAD_CASE)
#define STORE_CASE(name, insn, bytes, imm) \
  case OP_##name: \
    store_word = STORE_INIT; \
    p = (uintptr_t)&store_word + a - (imm); \
    __asm__ volatile(insn : "=&r"(r) : "r"(p), "r"(b) : OP_CLOBBERS); \
    r = store_word; \
    break;
    STORE_OPS(STORE_CASE)
  }
  return r;
}

int main(void)
{
  return check_vectors(vectors, NELEMS(vectors), exec);
}
