/* elf32.c: see elf32.h. Reads the section headers, not program headers:
   tsim places .text and data differently (sim/README.md). */
#include "elf32.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EM_RISCV = 243, ET_EXEC = 2, SHT_SYMTAB = 2, SHT_NOBITS = 8,
       SHF_ALLOC = 2, SHF_EXECINSTR = 4, EHDR_SIZE = 52, SHDR_SIZE = 40, SYM_SIZE = 16 };

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...) {
  va_list ap;
  int n = snprintf(err, errlen, "%s: error: ", path);
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < errlen) vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* [off, off+len) inside a buffer of size total, without overflow. */
static int inside(uint64_t off, uint64_t len, size_t total) { return off <= total && len <= total - off; }

static int read_file(const char *path, Elf32 *e, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, errlen, path, "cannot open: %s", strerror(errno));
  size_t cap = 1 << 16;
  e->buf = malloc(cap);
  e->len = 0;
  size_t got;
  while (e->buf && (got = fread(e->buf + e->len, 1, cap - e->len, f)) > 0) {
    e->len += got;
    if (e->len == cap) {
      uint8_t *bigger = realloc(e->buf, cap *= 2);
      if (!bigger) { free(e->buf); e->buf = NULL; }
      e->buf = bigger;
    }
  }
  int bad = ferror(f) || !e->buf;
  fclose(f);
  if (bad) return fail(err, errlen, path, "cannot read the file");
  return 0;
}

int elf32_load(const char *path, Elf32 *e, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  if (read_file(path, e, err, errlen)) return -1;
  const uint8_t *b = e->buf;
  if (e->len < EHDR_SIZE || memcmp(b, "\177ELF", 4))
    return fail(err, errlen, path, "not an ELF file");
  if (b[4] != 1) return fail(err, errlen, path, "not a 32-bit ELF (class %u)", b[4]);
  if (b[5] != 1) return fail(err, errlen, path, "not a little-endian ELF");
  if (rd16(b + 18) != EM_RISCV) return fail(err, errlen, path, "not a RISC-V ELF (e_machine %u)", rd16(b + 18));
  if (rd16(b + 16) != ET_EXEC) return fail(err, errlen, path, "not an executable (e_type %u; link it)", rd16(b + 16));
  e->entry = rd32(b + 24);
  uint32_t shoff = rd32(b + 32), shentsize = rd16(b + 46), shnum = rd16(b + 48), shstrndx = rd16(b + 50);
  if (shnum == 0 || shentsize < SHDR_SIZE || !inside(shoff, (uint64_t)shnum * shentsize, e->len) || shstrndx >= shnum)
    return fail(err, errlen, path, "section headers out of bounds or missing");
  const uint8_t *sh = b + shoff;
  const uint8_t *names = sh + (size_t)shstrndx * shentsize;
  uint32_t names_off = rd32(names + 16), names_len = rd32(names + 20);
  if (!inside(names_off, names_len, e->len) || names_len == 0 || b[names_off + names_len - 1])
    return fail(err, errlen, path, "section name table out of bounds");

  e->secs = calloc(shnum, sizeof *e->secs);
  if (!e->secs) return fail(err, errlen, path, "out of memory");
  for (uint32_t i = 0; i < shnum; i++) {
    const uint8_t *s = sh + (size_t)i * shentsize;
    uint32_t name = rd32(s), type = rd32(s + 4), flags = rd32(s + 8), addr = rd32(s + 12);
    uint32_t off = rd32(s + 16), size = rd32(s + 20), link = rd32(s + 24), entsize = rd32(s + 36);
    if (name >= names_len) return fail(err, errlen, path, "section %u: name out of bounds", i);
    const char *sname = (const char *)b + names_off + name;
    if (type != SHT_NOBITS && !inside(off, size, e->len))
      return fail(err, errlen, path, "section %s: contents out of bounds", sname);
    if (type == SHT_SYMTAB) {
      if (entsize != SYM_SIZE || link >= shnum) return fail(err, errlen, path, "malformed symbol table");
      const uint8_t *str = sh + (size_t)link * shentsize;
      uint32_t str_off = rd32(str + 16), str_len = rd32(str + 20);
      if (!inside(str_off, str_len, e->len)) return fail(err, errlen, path, "symbol string table out of bounds");
      e->symtab = b + off;
      e->nsyms = size / SYM_SIZE;
      e->strtab = b + str_off;
      e->strtab_len = str_len;
    }
    if (!(flags & SHF_ALLOC) || size == 0) continue;
    if ((uint64_t)addr + size > 0x100000000ULL)
      return fail(err, errlen, path, "section %s [0x%08x, +0x%x) wraps past the 32-bit address space", sname, addr, size);
    Elf32Section *out = &e->secs[e->nsecs++];
    out->name = sname;
    out->addr = addr;
    out->size = size;
    out->kind = (flags & SHF_EXECINSTR ? ELF32_SEC_EXEC : 0) | (type == SHT_NOBITS ? ELF32_SEC_NOBITS : 0);
    out->data = type == SHT_NOBITS ? NULL : b + off;
  }
  return 0;
}

int elf32_symbol(const Elf32 *e, const char *name, uint32_t *value) {
  for (uint32_t i = 0; i < e->nsyms; i++) {
    const uint8_t *s = e->symtab + (size_t)i * SYM_SIZE;
    uint32_t n = rd32(s);
    if (n >= e->strtab_len) continue;
    const char *sname = (const char *)e->strtab + n;
    if (memchr(sname, 0, e->strtab_len - n) && !strcmp(sname, name) && rd16(s + 14) != 0) {
      *value = rd32(s + 4);
      return 0;
    }
  }
  return -1;
}

void elf32_free(Elf32 *e) {
  free(e->buf);
  free(e->secs);
  memset(e, 0, sizeof *e);
}
