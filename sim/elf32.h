/* elf32.h: a small reader for little-endian ELF32 RISC-V executables. */
#ifndef ELF32_H
#define ELF32_H

#include <stddef.h>
#include <stdint.h>

enum { ELF32_SEC_EXEC = 1, ELF32_SEC_NOBITS = 2 };

typedef struct {
  const char *name;
  uint32_t addr, size;
  unsigned kind;            /* ELF32_SEC_* bits */
  const uint8_t *data;      /* NULL for NOBITS */
} Elf32Section;

typedef struct {
  uint8_t *buf;
  size_t len;
  uint32_t entry;
  Elf32Section *secs;       /* allocated (SHF_ALLOC) sections with a size */
  int nsecs;
  const uint8_t *symtab, *strtab;
  uint32_t nsyms, strtab_len;
} Elf32;

/* Read and check PATH (ELF32, little-endian, EM_RISCV, ET_EXEC, every
   offset in bounds). On error return -1 with "PATH: error: ..." in err. */
int elf32_load(const char *path, Elf32 *e, char *err, size_t errlen);

/* The value of symbol NAME: 0, or -1 when absent. */
int elf32_symbol(const Elf32 *e, const char *name, uint32_t *value);

void elf32_free(Elf32 *e);

#endif
