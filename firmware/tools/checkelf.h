// checkelf.h: checkelf's and elf2img's work on a loaded image, apart from
// their command lines (the fuzz harness tests/fuzz/elf calls them).
#ifndef CHECKELF_H
#define CHECKELF_H
#include <stdio.h>
#include "elf32.h"

// checkelf: every executable word in Tinsel's subset, .text at its base
// and within BUDGET bytes. Reports to MSGS, the ok line to OUT (NULL: none); 0 when the
// image passes, 1 when not.
int checkelf_image(const Elf32 *e, const char *path, int boot, long budget, FILE *out, FILE *msgs);

// elf2img: the code image (WANT_EXEC 1: executable sections, which must
// lie in instruction memory) or the data image (0: the others, which must
// lie in the DRAM globals) of E to OUT. 0, or 1 with a message on MSGS.
int elf2img_image(const Elf32 *e, const char *path, FILE *out, int want_exec, FILE *msgs);
#endif
