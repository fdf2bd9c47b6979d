/* tests/sim/check.c: the one checker loop of the table-driven tests. It runs
 * every row, so one run shows up to MAX_EMITTED mismatches. */
#include "test.h"

#ifndef MAX_EMITTED
#define MAX_EMITTED 8
#endif

int check_vectors(const struct vec *v, uint32_t n, exec_fn *exec)
{
  uint32_t first = 0, failed = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t got = exec(v[i].op, v[i].a, v[i].b);
    if (got == v[i].want) continue;
    if (failed++ < MAX_EMITTED) {
      sim_emit(i + 1);
      sim_emit(got);
      sim_emit(v[i].want);
    }
    if (!first) first = i + 1;
  }
  return (int)first;
}
