/* tests/sim/test.h: what a test body sees. main returns 0 for a pass or the
 * number of the first failed check; the start code (crt0.S under tsim,
 * crt0_qemu.S under qemu-riscv32) reports it. */
#ifndef TESTS_SIM_TEST_H
#define TESTS_SIM_TEST_H
#include <stdint.h>

/* One table row: op (from ops.h), operands, expected result. */
struct vec { uint32_t op, a, b, want; };
typedef uint32_t exec_fn(uint32_t op, uint32_t a, uint32_t b);

uint32_t sim_thread_id(void);
void sim_emit(uint32_t word);
uint32_t sim_cycle(void);
void sim_flush(void);

/* Runs every row through exec, emits the check number, the result and the
 * expected value of the first mismatches, returns the first check number. */
int check_vectors(const struct vec *v, uint32_t n, exec_fn *exec);

/* Barrier of the --all-threads tests (join.c): returns in thread 0 once every
 * thread has called it; start_cycle is the caller's sim_cycle() at start. */
void sim_join(uint32_t start_cycle);

/* One enum per op list: OP_<NAME>. */
#define OP_ENUM(name, ...) OP_##name,

/* Clobbers of an op template (t0 holds label addresses, ft0-ft2 FP operands). */
#define OP_CLOBBERS "t0", "ft0", "ft1", "ft2", "memory"

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))
#endif
