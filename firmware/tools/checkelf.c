// checkelf: prove that a firmware image fits real Tinsel. Decodes every
// word of the executable sections and fails, naming the function and
// address, on any instruction Tinsel lacks (rv_check.c); reports .text
// against the instruction-memory budget and fails with the sizes when it
// is over. --boot checks the boot loader instead: at most
// TinselMaxBootImageBytes at address 0 and no data sections. The file is
// read by the project's one ELF reader (sim/elf32.c), which checks every
// field first.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "checkelf.h"
#include "elf32.h"
#include "rv_check.h"
#include "tinsel_config.h"

#define MAX_REPORTS 20

int checkelf_image(const Elf32 *e, const char *path, int boot, long budget, FILE *out, FILE *msgs) {
  uint32_t want_base = boot ? 0 : TinselMaxBootImageBytes;
  uint64_t lo = UINT64_MAX, hi = 0;
  int errors = 0, warnings = 0;
  for (int i = 0; i < e->nsecs; i++) {
    const Elf32Section *s = &e->secs[i];
    if (!(s->kind & ELF32_SEC_EXEC)) {
      if (boot) {
        fprintf(msgs, "checkelf: %s: the boot loader has a data section %s (%u bytes); it may only have .text\n",
                path, s->name, (unsigned)s->size);
        errors++;
      }
      continue;
    }
    if (s->addr < lo) lo = s->addr;
    if ((uint64_t)s->addr + s->size > hi) hi = (uint64_t)s->addr + s->size;
    if (!s->data) continue;
    for (uint32_t off = 0; off <= s->size && s->size - off >= 4; off += 4) {
      const uint8_t *p = s->data + off;
      uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      rv_verdict v = rv_check(w);
      if (v.status == RV_OK) continue;
      int n = v.status == RV_BAD ? ++errors : ++warnings;
      if (n > MAX_REPORTS) continue;   // symbolized only when reported: linear in .text
      uint32_t addr = s->addr + off, fo;
      const char *fn = elf32_symbolize(e, addr, &fo);
      fprintf(msgs, "checkelf: %s: %s: 0x%08x <%s+0x%x>: %s (0x%08x): %s\n", path,
              v.status == RV_BAD ? "error" : "warning", (unsigned)addr, fn, (unsigned)fo,
              v.name, (unsigned)w, v.why);
    }
  }
  if (errors > MAX_REPORTS) fprintf(msgs, "checkelf: %s: %d more errors\n", path, errors - MAX_REPORTS);
  uint64_t text = hi > lo ? hi - lo : 0;
  if (text && lo != want_base) {
    fprintf(msgs, "checkelf: %s: .text starts at 0x%x, expected 0x%x\n", path, (unsigned)lo, (unsigned)want_base);
    errors++;
  }
  const char *what = boot ? "boot loader" : "instruction budget per core pair";
  if (text > (uint64_t)budget) {
    fprintf(msgs, "checkelf: %s: .text is %llu bytes, over the %ld-byte %s by %lld bytes\n",
            path, (unsigned long long)text, budget, what, (long long)text - budget);
    errors++;
  }
  if (!errors && out)
    fprintf(out, "checkelf: %s: ok: .text %u of %ld bytes (%ld%%)%s\n", path, (unsigned)text, budget,
            (long)text * 100 / budget, warnings ? ", with warnings" : "");
  return errors ? 1 : 0;
}

#ifndef FUZZING
static int usage(void) {
  fprintf(stderr, "usage: checkelf [--boot] [--quiet] [--budget BYTES] FILE.elf\n");
  return 2;
}

int main(int argc, char **argv) {
  int boot = 0, quiet = 0;
  long budget = TinselAppInstrBytes;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--boot")) boot = 1;
    else if (!strcmp(argv[i], "--quiet")) quiet = 1;
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
      char *end;
      budget = strtol(argv[++i], &end, 0);
      if (*end || budget <= 0) { fprintf(stderr, "checkelf: bad --budget '%s'\n", argv[i]); return 2; }
    } else if (argv[i][0] == '-' || path) return usage();
    else path = argv[i];
  }
  if (!path) return usage();
  if (boot) budget = TinselMaxBootImageBytes;
  Elf32 e;
  char err[512];
  if (elf32_load(path, &e, err, sizeof err)) {
    fprintf(stderr, "checkelf: %s\n", err);
    elf32_free(&e);
    return 1;
  }
  int rc = checkelf_image(&e, path, boot, budget, quiet ? NULL : stdout, stderr);
  elf32_free(&e);
  return rc;
}
#endif
