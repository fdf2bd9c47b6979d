/* tests/sim/thread_work.h: the per-thread computations of the multithreaded
 * tests. The firmware runs them on the model; gen_vectors runs the same C on
 * the host CPU to produce each thread's expected result, so a mismatch is the
 * model's (or the cross compiler's) doing. */
#ifndef TESTS_SIM_THREAD_WORK_H
#define TESTS_SIM_THREAD_WORK_H
#include <stdint.h>

/* Integer work: an LCG, 64-bit products (mul, mulhu), variable shifts and a
 * stack array, so threads sharing a stack or registers would disagree. */
static inline uint32_t thread_work_int(uint32_t t, uint32_t iters)
{
  volatile uint32_t buf[16];
  uint32_t x = t * 0x9e3779b9u + 1u, s = 0;
  for (uint32_t i = 0; i < 16; i++) buf[i] = i ^ t;
  for (uint32_t i = 0; i < iters; i++) {
    x = x * 1664525u + 1013904223u;
    uint64_t p = (uint64_t)x * (x ^ t);
    buf[i & 15] ^= (uint32_t)(p >> 32) + (uint32_t)p + (x >> (i & 31));
  }
  for (uint32_t i = 0; i < 16; i++) s = ((s << 5) | (s >> 27)) ^ buf[i];
  return s;
}

/* FP work for the shared FPU: divides, multiplies, adds and conversions. */
static inline uint32_t thread_work_fp(uint32_t t, uint32_t iters)
{
  union { float f; uint32_t u; } acc = { 0.0f };
  float x = 1.0f + (float)(int32_t)(t & 0xffff) * 0.125f;
  for (uint32_t i = 0; i < iters; i++) {
    acc.f = acc.f + x / (float)(int32_t)(i + 1);
    x = x * 0.75f + 0.5f;
  }
  return acc.u;
}
#endif
