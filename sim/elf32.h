/* elf32.h: the project's one reader for little-endian ELF32 RISC-V
   executables: tsim, the host link library (hl_load_elf), the tinsel
   engines, checkelf and elf2img all load through it.

   Every field is checked before it is used (docs/limits.md, "ELF reader"):
   the file is a regular file of at most ELF32_MAX_FILE_BYTES, read whole;
   the section and program header tables lie inside it and are aligned;
   every section with file data lies inside it (an SHT_NOBITS section has
   none, so its offset is never read); the section name table and the
   symbol string table are SHT_STRTAB with file data and end in a NUL, so
   every name is NUL-terminated within its table; the symbol table is whole
   entries; an allocated section does not wrap past 2^32. Fields are read
   byte by byte, never through a cast of the file buffer, so a misaligned
   table is refused but never read misaligned. */
#ifndef ELF32_H
#define ELF32_H

#include <stddef.h>
#include <stdint.h>

/* The largest file elf32_load reads (checked before it allocates). */
#define ELF32_MAX_FILE_BYTES (64u << 20)

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
  Elf32Section *secs;       /* allocated (SHF_ALLOC) sections with a size, in file order */
  int nsecs;
  const uint8_t *symtab, *strtab;
  uint32_t nsyms, strtab_len;
} Elf32;

/* Read and check PATH (ELF32, little-endian, EM_RISCV, ET_EXEC, every
   field as above). On error return -1 with "PATH: error: ..." in err;
   elf32_free is safe either way. */
int elf32_load(const char *path, Elf32 *e, char *err, size_t errlen);

/* The same on LEN bytes at DATA (copied), NAME standing for the path in
   messages. */
int elf32_load_buffer(const char *name, const void *data, size_t len, Elf32 *e, char *err, size_t errlen);

/* The value of defined symbol NAME: 0, or -1 when absent. */
int elf32_symbol(const Elf32 *e, const char *name, uint32_t *value);

/* The function (or label) containing ADDR and the offset into it; "?" and
   *offset = ADDR when no symbol does. */
const char *elf32_symbolize(const Elf32 *e, uint32_t addr, uint32_t *offset);

/* Symbol I of the symbol table (I < e->nsyms): its name ("" when it has
   none), value, size, type (STT_*: ELF32_STT_FUNC for functions) and
   whether it is defined (a section index other than SHN_UNDEF). */
enum { ELF32_STT_FUNC = 2 };
typedef struct {
  const char *name;
  uint32_t value, size;
  unsigned type;
  int defined;
} Elf32Sym;
void elf32_sym(const Elf32 *e, uint32_t i, Elf32Sym *s);

/* The instruction word at ADDR in an executable section with file data:
   0, or -1 when no such section holds all four bytes. */
int elf32_code_word(const Elf32 *e, uint32_t addr, uint32_t *word);

void elf32_free(Elf32 *e);

#endif
