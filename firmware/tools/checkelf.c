// checkelf: prove that a firmware image fits real Tinsel. Decodes every
// word of the executable sections and fails, naming the function and
// address, on any instruction Tinsel lacks (rv_check.c); reports .text
// against the instruction-memory budget and fails with the sizes when it
// is over. --boot checks the boot loader instead: at most
// TinselMaxBootImageBytes at address 0 and no data sections.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elf32.h"
#include "rv_check.h"
#include "tinsel_config.h"

#define MAX_REPORTS 20

static int usage(void) {
  fprintf(stderr, "usage: checkelf [--boot] [--budget BYTES] FILE.elf\n");
  return 2;
}

int main(int argc, char **argv) {
  int boot = 0;
  long budget = TinselAppInstrBytes;
  const char *path = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--boot")) boot = 1;
    else if (!strcmp(argv[i], "--budget") && i + 1 < argc) {
      char *end;
      budget = strtol(argv[++i], &end, 0);
      if (*end || budget <= 0) { fprintf(stderr, "checkelf: bad --budget '%s'\n", argv[i]); return 2; }
    } else if (argv[i][0] == '-' || path) return usage();
    else path = argv[i];
  }
  if (!path) return usage();
  if (boot) budget = TinselMaxBootImageBytes;
  elf32 e;
  if (elf32_load(&e, "checkelf", path)) { elf32_free(&e); return 1; }

  uint32_t want_base = boot ? 0 : TinselMaxBootImageBytes;
  uint32_t lo = ~0u, hi = 0;
  int errors = 0, warnings = 0;
  for (int i = 0; i < e.eh->e_shnum; i++) {
    const Elf32_Shdr *s = &e.sh[i];
    if (!(s->sh_flags & SHF_ALLOC) || s->sh_size == 0) continue;
    const char *name = elf32_section_name(&e, s);
    if (!(s->sh_flags & SHF_EXECINSTR)) {
      if (boot) {
        fprintf(stderr, "checkelf: %s: the boot loader has a data section %s (%u bytes); it may only have .text\n",
                path, name, (unsigned)s->sh_size);
        errors++;
      }
      continue;
    }
    if (s->sh_addr < lo) lo = s->sh_addr;
    if (s->sh_addr + s->sh_size > hi) hi = s->sh_addr + s->sh_size;
    if (s->sh_type != SHT_PROGBITS) continue;
    const unsigned char *p = e.data + s->sh_offset;
    for (uint32_t off = 0; off + 4 <= s->sh_size; off += 4) {
      uint32_t w = (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
                   (uint32_t)p[off + 3] << 24;
      rv_verdict v = rv_check(w);
      if (v.status == RV_OK) continue;
      uint32_t addr = s->sh_addr + off, fo;
      const char *fn = elf32_symbolize(&e, addr, &fo);
      int n = v.status == RV_BAD ? ++errors : ++warnings;
      if (n <= MAX_REPORTS)
        fprintf(stderr, "checkelf: %s: %s: 0x%08x <%s+0x%x>: %s (0x%08x): %s\n", path,
                v.status == RV_BAD ? "error" : "warning", (unsigned)addr, fn, (unsigned)fo,
                v.name, (unsigned)w, v.why);
    }
  }
  if (errors > MAX_REPORTS) fprintf(stderr, "checkelf: %s: %d more errors\n", path, errors - MAX_REPORTS);
  uint32_t text = hi > lo ? hi - lo : 0;
  if (text && lo != want_base) {
    fprintf(stderr, "checkelf: %s: .text starts at 0x%x, expected 0x%x\n", path, (unsigned)lo, (unsigned)want_base);
    errors++;
  }
  const char *what = boot ? "boot loader" : "instruction budget per core pair";
  if (text > (uint32_t)budget) {
    fprintf(stderr, "checkelf: %s: .text is %u bytes, over the %ld-byte %s by %ld bytes\n",
            path, (unsigned)text, budget, what, (long)text - budget);
    errors++;
  }
  if (!errors)
    printf("checkelf: %s: ok: .text %u of %ld bytes (%ld%%)%s\n", path, (unsigned)text, budget,
           (long)text * 100 / budget, warnings ? ", with warnings" : "");
  elf32_free(&e);
  return errors ? 1 : 0;
}
