// elf2img: split a firmware ELF into the two images the host link loads:
// CODE (the .text words, written to every core's instruction memory with
// WriteInstr) and DATA (read-only data, data and zeroed bss, written once
// per DRAM with Store). Both are text: "@ADDR" (hex byte address) starts a
// contiguous run, then one 32-bit hex word per line, little-endian words.
#include <stdio.h>
#include <string.h>
#include "elf32.h"

static int write_image(const elf32 *e, const char *out, int want_exec) {
  FILE *f = fopen(out, "w");
  if (!f) { perror(out); return 1; }
  uint32_t next = ~0u;
  for (int i = 0; i < e->eh->e_shnum; i++) {
    const Elf32_Shdr *s = &e->sh[i];
    if (!(s->sh_flags & SHF_ALLOC) || s->sh_size == 0) continue;
    if (!!(s->sh_flags & SHF_EXECINSTR) != want_exec) continue;
    if (s->sh_addr & 3u) {
      fprintf(stderr, "elf2img: %s: section %s at 0x%x is not word-aligned\n", e->path,
              elf32_section_name(e, s), (unsigned)s->sh_addr);
      fclose(f);
      return 1;
    }
    if (s->sh_addr != next) fprintf(f, "@%08x\n", (unsigned)s->sh_addr);
    const unsigned char *p = e->data + s->sh_offset;
    for (uint32_t off = 0; off < s->sh_size; off += 4) {
      uint32_t w = 0;
      for (uint32_t b = 0; b < 4 && off + b < s->sh_size; b++)
        if (s->sh_type != SHT_NOBITS) w |= (uint32_t)p[off + b] << (8 * b);
      fprintf(f, "%08x\n", (unsigned)w);
    }
    next = s->sh_addr + ((s->sh_size + 3u) & ~3u);
  }
  if (fclose(f)) { perror(out); return 1; }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: elf2img FILE.elf CODE.img DATA.img\n");
    return 2;
  }
  elf32 e;
  int rc = elf32_load(&e, "elf2img", argv[1]);
  if (!rc) rc = write_image(&e, argv[2], 1) || write_image(&e, argv[3], 0);
  elf32_free(&e);
  return rc;
}
