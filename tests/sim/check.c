/* tests/sim/check.c: the one checker loop of the table-driven tests. */
#include "test.h"

int check_vectors(const struct vec *v, uint32_t n, exec_fn *exec)
{
  for (uint32_t i = 0; i < n; i++) {
    uint32_t got = exec(v[i].op, v[i].a, v[i].b);
    if (got != v[i].want) {
      sim_emit(i + 1);
      sim_emit(got);
      sim_emit(v[i].want);
      return (int)i + 1;
    }
  }
  return 0;
}
