// elf32.c: see elf32.h. Every offset and size read from the file is
// checked against the file size before use.
#include "elf32.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bad(const char *prog, const char *path, const char *why) {
  fprintf(stderr, "%s: %s: %s\n", prog, path, why);
  return 1;
}

static int in_file(const elf32 *e, uint32_t off, uint64_t len) {
  return off <= e->size && len <= e->size - off;
}

int elf32_load(elf32 *e, const char *prog, const char *path) {
  memset(e, 0, sizeof *e);
  e->path = path;
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  if (n < 0) { fclose(f); return bad(prog, path, "cannot read"); }
  e->size = (size_t)n;
  e->data = malloc(e->size ? e->size : 1);
  size_t got = fread(e->data, 1, e->size, f);
  fclose(f);
  if (got != e->size) return bad(prog, path, "cannot read");
  if (e->size < sizeof(Elf32_Ehdr) || memcmp(e->data, ELFMAG, SELFMAG) != 0)
    return bad(prog, path, "not an ELF file");
  e->eh = (const Elf32_Ehdr *)e->data;
  if (e->data[EI_CLASS] != ELFCLASS32 || e->data[EI_DATA] != ELFDATA2LSB || e->eh->e_machine != EM_RISCV)
    return bad(prog, path, "not a 32-bit little-endian RISC-V ELF file");
  if (e->eh->e_shentsize != sizeof(Elf32_Shdr) ||
      !in_file(e, e->eh->e_shoff, (uint64_t)e->eh->e_shnum * sizeof(Elf32_Shdr)) ||
      e->eh->e_shstrndx >= e->eh->e_shnum)
    return bad(prog, path, "section header table is truncated or malformed");
  e->sh = (const Elf32_Shdr *)(e->data + e->eh->e_shoff);
  for (int i = 0; i < e->eh->e_shnum; i++)
    if (e->sh[i].sh_type != SHT_NOBITS && !in_file(e, e->sh[i].sh_offset, e->sh[i].sh_size))
      return bad(prog, path, "a section extends past the end of the file");
  const Elf32_Shdr *ss = &e->sh[e->eh->e_shstrndx];
  e->shstr = (const char *)e->data + ss->sh_offset;
  for (int i = 0; i < e->eh->e_shnum; i++) {
    const Elf32_Shdr *s = &e->sh[i];
    if (s->sh_type != SHT_SYMTAB || s->sh_link >= e->eh->e_shnum) continue;
    e->syms = (const Elf32_Sym *)(e->data + s->sh_offset);
    e->nsyms = s->sh_size / sizeof(Elf32_Sym);
    e->symstr = (const char *)e->data + e->sh[s->sh_link].sh_offset;
    e->symstr_size = e->sh[s->sh_link].sh_size;
  }
  return 0;
}

void elf32_free(elf32 *e) { free(e->data); e->data = NULL; }

const char *elf32_section_name(const elf32 *e, const Elf32_Shdr *s) {
  const Elf32_Shdr *ss = &e->sh[e->eh->e_shstrndx];
  return s->sh_name < ss->sh_size ? e->shstr + s->sh_name : "?";
}

const char *elf32_symbolize(const elf32 *e, uint32_t addr, uint32_t *offset) {
  const Elf32_Sym *best = NULL;
  for (size_t i = 0; i < e->nsyms; i++) {
    const Elf32_Sym *s = &e->syms[i];
    int type = ELF32_ST_TYPE(s->st_info);
    if (s->st_shndx == SHN_UNDEF || (type != STT_FUNC && type != STT_NOTYPE) || s->st_value > addr)
      continue;
    if (s->st_name >= e->symstr_size) continue;
    const char *name = e->symstr + s->st_name;
    if (!*name || name[0] == '.' || name[0] == '$') continue;  // local labels and mapping symbols
    if (!best || s->st_value > best->st_value ||
        (s->st_value == best->st_value && type == STT_FUNC)) best = s;
  }
  if (!best) { *offset = addr; return "?"; }
  *offset = addr - best->st_value;
  return e->symstr + best->st_name;
}
