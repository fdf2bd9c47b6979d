// elf32.h: a small reader for the 32-bit little-endian RISC-V ELF files
// the firmware build produces (checkelf, elf2img).
#ifndef ELF32_H
#define ELF32_H
#include <elf.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  const char *path;
  unsigned char *data;
  size_t size;
  const Elf32_Ehdr *eh;
  const Elf32_Shdr *sh;     // section headers
  const char *shstr;        // section names
  const Elf32_Sym *syms;    // symbol table, or NULL
  size_t nsyms;
  const char *symstr;
  size_t symstr_size;
} elf32;

// Load and validate; on error prints "PROG: PATH: why" and returns non-zero.
int elf32_load(elf32 *e, const char *prog, const char *path);
void elf32_free(elf32 *e);
const char *elf32_section_name(const elf32 *e, const Elf32_Shdr *s);
// The function (or label) containing addr, and the offset into it.
const char *elf32_symbolize(const elf32 *e, uint32_t addr, uint32_t *offset);
#endif
