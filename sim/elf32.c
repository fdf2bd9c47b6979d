/* elf32.c: see elf32.h. Reads the section headers for the contents (tsim
   places .text and data differently, sim/README.md); the program headers
   are only checked. */
#define _POSIX_C_SOURCE 200809L
#include "elf32.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { EM_RISCV = 243, ET_EXEC = 2, SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_NOBITS = 8, PT_LOAD = 1,
       SHF_ALLOC = 2, SHF_EXECINSTR = 4, EHDR_SIZE = 52, SHDR_SIZE = 40, PHDR_SIZE = 32, SYM_SIZE = 16,
       STT_NOTYPE = 0, STT_FUNC = 2 };

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

/* The whole of PATH, a regular file of at most ELF32_MAX_FILE_BYTES. */
static int read_file(const char *path, Elf32 *e, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, errlen, path, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st)) {
    int no = errno;
    fclose(f);
    return fail(err, errlen, path, "cannot read: %s", strerror(no));
  }
  if (!S_ISREG(st.st_mode)) {
    fclose(f);
    return fail(err, errlen, path, S_ISDIR(st.st_mode) ? "is a directory, not an ELF file"
                                                       : "not a regular file (an ELF file must be one)");
  }
  if (st.st_size > (off_t)ELF32_MAX_FILE_BYTES) {
    fclose(f);
    return fail(err, errlen, path, "the file is %lld bytes, over the %u-byte limit for an ELF file",
                (long long)st.st_size, ELF32_MAX_FILE_BYTES);
  }
  e->len = (size_t)st.st_size;
  e->buf = malloc(e->len ? e->len : 1);
  if (!e->buf) {
    fclose(f);
    return fail(err, errlen, path, "out of memory for %zu bytes", e->len);
  }
  size_t got = fread(e->buf, 1, e->len, f);
  int more = got == e->len && fgetc(f) != EOF;   /* it grew while we read */
  int bad = ferror(f);
  fclose(f);
  if (bad || got != e->len || more) return fail(err, errlen, path, "cannot read the file (it changed size or a read failed)");
  return 0;
}

/* The table of NUM entries of ENTSIZE bytes at OFF: in the file and aligned. */
static int check_table(const Elf32 *e, const char *path, const char *what, uint32_t off, uint32_t num,
                       uint32_t entsize, uint32_t minsize, char *err, size_t errlen) {
  if (entsize < minsize)
    return fail(err, errlen, path, "%s entries are %u bytes, less than the %u of ELF32", what, entsize, minsize);
  if (!inside(off, (uint64_t)num * entsize, e->len))
    return fail(err, errlen, path, "%s [0x%x, +%u x %u bytes) lies outside the file (%zu bytes)", what, off, num,
                entsize, e->len);
  if (off % 4 || entsize % 4)
    return fail(err, errlen, path, "%s at offset 0x%x with %u-byte entries is not 4-byte aligned", what, off, entsize);
  return 0;
}

/* Section I's header, which check_table proved inside the file. */
static const uint8_t *shdr(const Elf32 *e, uint32_t i) {
  const uint8_t *b = e->buf;
  return b + rd32(b + 32) + (size_t)i * rd16(b + 46);
}

/* A string table (WHAT) for section I: SHT_STRTAB, with file data, ends in NUL. */
static int check_strtab(const Elf32 *e, const char *path, const char *what, uint32_t i, char *err, size_t errlen) {
  const uint8_t *s = shdr(e, i);
  uint32_t type = rd32(s + 4), off = rd32(s + 16), size = rd32(s + 20);
  if (type == SHT_NOBITS)
    return fail(err, errlen, path, "%s (section %u) is SHT_NOBITS: it has no file data", what, i);
  if (type != SHT_STRTAB)
    return fail(err, errlen, path, "%s (section %u) has type %u, not SHT_STRTAB", what, i, type);
  if (!inside(off, size, e->len))
    return fail(err, errlen, path, "%s (section %u) [0x%x, +0x%x) lies outside the file (%zu bytes)", what, i, off,
                size, e->len);
  if (size == 0 || e->buf[off + size - 1])
    return fail(err, errlen, path, "%s (section %u) does not end in a NUL", what, i);
  return 0;
}

static int parse(const char *path, Elf32 *e, char *err, size_t errlen) {
  const uint8_t *b = e->buf;
  if (e->len < EHDR_SIZE || memcmp(b, "\177ELF", 4))
    return fail(err, errlen, path, "not an ELF file");
  if (b[4] != 1) return fail(err, errlen, path, "not a 32-bit ELF (class %u)", b[4]);
  if (b[5] != 1) return fail(err, errlen, path, "not a little-endian ELF");
  if (rd16(b + 18) != EM_RISCV) return fail(err, errlen, path, "not a RISC-V ELF (e_machine %u)", rd16(b + 18));
  if (rd16(b + 16) != ET_EXEC) return fail(err, errlen, path, "not an executable (e_type %u; link it)", rd16(b + 16));
  e->entry = rd32(b + 24);

  /* Program headers: only checked. */
  uint32_t phoff = rd32(b + 28), phentsize = rd16(b + 42), phnum = rd16(b + 44);
  if (phnum && check_table(e, path, "program header table", phoff, phnum, phentsize, PHDR_SIZE, err, errlen))
    return -1;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *p = b + phoff + (size_t)i * phentsize;
    uint32_t type = rd32(p), off = rd32(p + 4), vaddr = rd32(p + 8), filesz = rd32(p + 16), memsz = rd32(p + 20);
    if (type != PT_LOAD) continue;
    if (!inside(off, filesz, e->len))
      return fail(err, errlen, path, "segment %u [0x%x, +0x%x) lies outside the file (%zu bytes)", i, off, filesz,
                  e->len);
    if (filesz > memsz)
      return fail(err, errlen, path, "segment %u has more file bytes (0x%x) than memory bytes (0x%x)", i, filesz, memsz);
    if ((uint64_t)vaddr + memsz > 0x100000000ULL)
      return fail(err, errlen, path, "segment %u [0x%08x, +0x%x) wraps past the 32-bit address space", i, vaddr, memsz);
  }

  /* Section headers and their names. */
  uint32_t shoff = rd32(b + 32), shentsize = rd16(b + 46), shnum = rd16(b + 48), shstrndx = rd16(b + 50);
  if (shnum == 0) return fail(err, errlen, path, "no section headers (e_shnum 0)");
  if (check_table(e, path, "section header table", shoff, shnum, shentsize, SHDR_SIZE, err, errlen)) return -1;
  if (shstrndx >= shnum)
    return fail(err, errlen, path, "section name table index %u is not a section (%u sections)", shstrndx, shnum);
  if (check_strtab(e, path, "section name table", shstrndx, err, errlen)) return -1;
  const uint8_t *names = shdr(e, shstrndx);
  uint32_t names_off = rd32(names + 16), names_len = rd32(names + 20);

  e->secs = calloc(shnum, sizeof *e->secs);
  if (!e->secs) return fail(err, errlen, path, "out of memory");
  for (uint32_t i = 0; i < shnum; i++) {
    const uint8_t *s = shdr(e, i);
    uint32_t name = rd32(s), type = rd32(s + 4), flags = rd32(s + 8), addr = rd32(s + 12);
    uint32_t off = rd32(s + 16), size = rd32(s + 20), link = rd32(s + 24), entsize = rd32(s + 36);
    if (name >= names_len)
      return fail(err, errlen, path, "section %u: name offset %u is outside the section name table (%u bytes)", i,
                  name, names_len);
    const char *sname = (const char *)b + names_off + name;   /* NUL-terminated: the table ends in one */
    if (type != SHT_NOBITS && !inside(off, size, e->len))
      return fail(err, errlen, path, "section %s [0x%x, +0x%x) lies outside the file (%zu bytes)", sname, off, size,
                  e->len);
    if (type == SHT_SYMTAB) {
      if (e->symtab) return fail(err, errlen, path, "more than one symbol table (section %u is another)", i);
      if (entsize != SYM_SIZE)
        return fail(err, errlen, path, "symbol table %s: entries are %u bytes, not %u", sname, entsize, SYM_SIZE);
      if (size % SYM_SIZE || off % 4)
        return fail(err, errlen, path, "symbol table %s: %u bytes at offset 0x%x is not whole aligned %u-byte entries",
                    sname, size, off, SYM_SIZE);
      if (link >= shnum)
        return fail(err, errlen, path, "symbol table %s: string table index %u is not a section (%u sections)", sname,
                    link, shnum);
      if (check_strtab(e, path, "symbol string table", link, err, errlen)) return -1;
      const uint8_t *str = shdr(e, link);
      e->symtab = b + off;
      e->nsyms = size / SYM_SIZE;
      e->strtab = b + rd32(str + 16);
      e->strtab_len = rd32(str + 20);
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

int elf32_load(const char *path, Elf32 *e, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  if (read_file(path, e, err, errlen)) return -1;
  return parse(path, e, err, errlen);
}

int elf32_load_buffer(const char *name, const void *data, size_t len, Elf32 *e, char *err, size_t errlen) {
  memset(e, 0, sizeof *e);
  if (len > ELF32_MAX_FILE_BYTES)
    return fail(err, errlen, name, "the file is %zu bytes, over the %u-byte limit for an ELF file", len,
                ELF32_MAX_FILE_BYTES);
  e->buf = malloc(len ? len : 1);
  if (!e->buf) return fail(err, errlen, name, "out of memory for %zu bytes", len);
  if (len) memcpy(e->buf, data, len);
  e->len = len;
  return parse(name, e, err, errlen);
}

/* Symbol I's name ("" when out of the table; the table ends in a NUL). */
static const char *sym_name(const Elf32 *e, const uint8_t *s) {
  uint32_t n = rd32(s);
  return n < e->strtab_len ? (const char *)e->strtab + n : "";
}

int elf32_symbol(const Elf32 *e, const char *name, uint32_t *value) {
  for (uint32_t i = 0; i < e->nsyms; i++) {
    const uint8_t *s = e->symtab + (size_t)i * SYM_SIZE;
    if (rd16(s + 14) != 0 && !strcmp(sym_name(e, s), name)) {
      *value = rd32(s + 4);
      return 0;
    }
  }
  return -1;
}

const char *elf32_symbolize(const Elf32 *e, uint32_t addr, uint32_t *offset) {
  const uint8_t *best = NULL;
  for (uint32_t i = 0; i < e->nsyms; i++) {
    const uint8_t *s = e->symtab + (size_t)i * SYM_SIZE;
    uint32_t value = rd32(s + 4);
    int type = s[12] & 0xf;
    if (rd16(s + 14) == 0 || (type != STT_FUNC && type != STT_NOTYPE) || value > addr) continue;
    const char *name = sym_name(e, s);
    if (!*name || name[0] == '.' || name[0] == '$') continue;   /* local labels and mapping symbols */
    uint32_t bv = best ? rd32(best + 4) : 0;
    if (!best || value > bv || (value == bv && type == STT_FUNC)) best = s;
  }
  if (!best) {
    *offset = addr;
    return "?";
  }
  *offset = addr - rd32(best + 4);
  return sym_name(e, best);
}

void elf32_sym(const Elf32 *e, uint32_t i, Elf32Sym *out) {
  const uint8_t *s = e->symtab + (size_t)i * SYM_SIZE;
  out->name = sym_name(e, s);
  out->value = rd32(s + 4);
  out->size = rd32(s + 8);
  out->type = s[12] & 0xf;
  out->defined = rd16(s + 14) != 0;
}

int elf32_code_word(const Elf32 *e, uint32_t addr, uint32_t *word) {
  for (int i = 0; i < e->nsecs; i++) {
    const Elf32Section *s = &e->secs[i];
    if (!(s->kind & ELF32_SEC_EXEC) || !s->data || s->size < 4 || addr < s->addr || addr - s->addr > s->size - 4)
      continue;
    *word = rd32(s->data + (addr - s->addr));
    return 0;
  }
  return -1;
}

void elf32_free(Elf32 *e) {
  free(e->buf);
  free(e->secs);
  memset(e, 0, sizeof *e);
}
