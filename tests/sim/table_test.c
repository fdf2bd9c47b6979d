/* tests/sim/table_test.c: a table-driven test of one op list of ops.h.
 * Built once per class with -DTEST_OPS=<list> -DTEST_VECTORS="<header>"; the
 * header, written by gen_vectors on the host, defines `vectors`. With
 * -DALL_THREADS every thread runs the whole table (run with --all-threads),
 * so threads interleave in the pipeline and contend for the shared units. */
#include "test.h"
#include "ops.h"

enum { TEST_OPS(OP_ENUM) };
#include TEST_VECTORS

static uint32_t exec(uint32_t op, uint32_t a, uint32_t b)
{
  uint32_t r = 0xdeadbeef;
  switch (op) {
#define OP_CASE(name, insn, ...) \
  case OP_##name: __asm__ volatile(insn : "=&r"(r) : "r"(a), "r"(b) : OP_CLOBBERS); break;
    TEST_OPS(OP_CASE)
  }
  return r;
}

int main(void)
{
  uint32_t start = sim_cycle();
  int failed = check_vectors(vectors, NELEMS(vectors), exec);
#ifdef ALL_THREADS
  if (!failed) sim_join(start);
#endif
  (void)start;
  return failed;
}
