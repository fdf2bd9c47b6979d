// elf2img: split a firmware ELF into the two images the host link loads:
// CODE (the .text words, written to every core's instruction memory with
// WriteInstr) and DATA (read-only data, data and zeroed bss, written once
// per DRAM with Store). Both are text: "@ADDR" (hex byte address) starts a
// contiguous run, then one 32-bit hex word per line, little-endian words.
// Each section must lie in its memory (code: instruction memory; data: the
// DRAM globals) and each image hold at most ELF2IMG_MAX_IMAGE_BYTES, all
// checked before a word is written (docs/limits.md).
#include <stdio.h>
#include <string.h>
#include "checkelf.h"
#include "elf32.h"
#include "tinsel_config.h"

#define ELF2IMG_MAX_IMAGE_BYTES (16u << 20)

int elf2img_image(const Elf32 *e, const char *path, FILE *out, int want_exec, FILE *msgs) {
  const char *mem = want_exec ? "instruction memory" : "the DRAM globals";
  uint64_t mem_lo = want_exec ? 0 : TinselMemDRAMGlobalsBase;
  uint64_t mem_hi = want_exec ? TinselInstrBytesPerCore : (uint64_t)TinselMemDRAMGlobalsBase + TinselMemDRAMGlobalsSize;
  uint64_t total = 0;
  for (int i = 0; i < e->nsecs; i++) {
    const Elf32Section *s = &e->secs[i];
    if (!!(s->kind & ELF32_SEC_EXEC) != want_exec) continue;
    uint64_t end = (uint64_t)s->addr + s->size;
    if (s->addr < mem_lo || end > mem_hi) {
      fprintf(msgs, "elf2img: %s: error: section %s (0x%x bytes at 0x%08x) does not fit in %s [0x%08llx, 0x%08llx)\n",
              path, s->name, (unsigned)s->size, (unsigned)s->addr, mem, (unsigned long long)mem_lo,
              (unsigned long long)mem_hi);
      return 1;
    }
    if (s->addr & 3u) {
      fprintf(msgs, "elf2img: %s: error: section %s at 0x%x is not word-aligned\n", path, s->name, (unsigned)s->addr);
      return 1;
    }
    total += s->size;
    if (total > ELF2IMG_MAX_IMAGE_BYTES) {
      fprintf(msgs, "elf2img: %s: error: the %s image would hold at least %llu bytes (with section %s, 0x%x bytes), "
              "over elf2img's limit of %u bytes\n", path, want_exec ? "code" : "data", (unsigned long long)total, s->name,
              (unsigned)s->size, ELF2IMG_MAX_IMAGE_BYTES);
      return 1;
    }
  }
  uint64_t next = UINT64_MAX;
  for (int i = 0; i < e->nsecs; i++) {
    const Elf32Section *s = &e->secs[i];
    if (!!(s->kind & ELF32_SEC_EXEC) != want_exec) continue;
    if (s->addr != next) fprintf(out, "@%08x\n", (unsigned)s->addr);
    for (uint64_t off = 0; off < s->size; off += 4) {
      uint32_t w = 0;
      for (uint64_t b = 0; b < 4 && off + b < s->size && s->data; b++) w |= (uint32_t)s->data[off + b] << (8 * b);
      fprintf(out, "%08x\n", (unsigned)w);
    }
    next = (uint64_t)s->addr + ((s->size + 3ull) & ~3ull);
  }
  return 0;
}

#ifndef FUZZING
static int write_image(const Elf32 *e, const char *path, const char *out, int want_exec) {
  FILE *f = fopen(out, "w");
  if (!f) { perror(out); return 1; }
  int rc = elf2img_image(e, path, f, want_exec, stderr);
  if (fclose(f) && !rc) { perror(out); rc = 1; }
  if (rc) remove(out);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: elf2img FILE.elf CODE.img DATA.img\n");
    return 2;
  }
  Elf32 e;
  char err[512];
  int rc = 0;
  if (elf32_load(argv[1], &e, err, sizeof err)) {
    fprintf(stderr, "elf2img: %s\n", err);
    rc = 1;
  }
  if (!rc) rc = write_image(&e, argv[1], argv[2], 1) || write_image(&e, argv[1], argv[3], 0);
  elf32_free(&e);
  return rc;
}
#endif
