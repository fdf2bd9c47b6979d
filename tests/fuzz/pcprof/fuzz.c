// tests/fuzz/pcprof/fuzz.c: the --pc-profile reader (pcprof_parse) on
// arbitrary bytes. What it accepts must hold what pcprof relies on: rows
// by block, then core and pc, cores below their block's cores=, pcs
// aligned, counts above 0 adding up to the total; an error must name the
// file and a line.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pcprof_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512];
  PcProfile p;
  if (pcprof_parse("fuzz.prof", (const char *)data, size, &p, err, sizeof err)) {
    if (strncmp(err, "fuzz.prof:", 10) || !strstr(err, ": error: ") || p.rows) abort();
    return 0;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < p.nrows; i++) {
    const PcRow *r = &p.rows[i], *q = i ? &p.rows[i - 1] : NULL;
    if (r->count == 0 || (r->pc & 3) || r->core >= p.max_cores || r->block >= p.nblocks) abort();
    if (q && (r->block < q->block ||
              (r->block == q->block && (r->core < q->core || (r->core == q->core && r->pc <= q->pc)))))
      abort();
    total += r->count;
  }
  if (total != p.total || p.nblocks == 0) abort();
  pcprof_free(&p);
  return 0;
}
