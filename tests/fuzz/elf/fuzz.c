// tests/fuzz/elf/fuzz.c: the ELF reader on arbitrary bytes, from a file
// (elf32_load, as tsim, the host link, checkelf and elf2img call it) and
// from memory (elf32_load_buffer); the two must agree. A loaded image then
// goes through the symbol lookups and checkelf's and elf2img's work
// (checkelf_image, elf2img_image), their output to /dev/null, and pcprof's
// reads of symbols and code words (elf32_sym, elf32_code_word).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "checkelf.h"
#include "elf32.h"

static FILE *sink;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  sink = fopen("/dev/null", "w");
  snprintf(path, sizeof path, "/tmp/fuzz-elf-%ld.elf", (long)getpid());
  return sink ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[512], err2[512];
  Elf32 e, f;
  int rc = elf32_load_buffer(path, data, size, &e, err, sizeof err);
  FILE *out = fopen(path, "wb");
  if (!out || fwrite(data, 1, size, out) != size || fclose(out)) abort();
  int rc2 = elf32_load(path, &f, err2, sizeof err2);
  remove(path);
  if (rc != rc2 || (rc && strcmp(err, err2))) {
    fprintf(stderr, "elf32_load and elf32_load_buffer disagree:\n  %s\n  %s\n", rc ? err : "ok", rc2 ? err2 : "ok");
    abort();
  }
  elf32_free(&f);
  if (rc == 0) {
    uint32_t v, off;
    elf32_symbol(&e, "tohost", &v);
    elf32_symbol(&e, "app_results", &v);
    for (int i = 0; i < e.nsecs; i++) {
      const Elf32Section *s = &e.secs[i];
      if (strlen(s->name) > e.len) abort();   // the name lies in the file
      elf32_symbolize(&e, s->addr, &off);
      elf32_symbolize(&e, s->addr + s->size - 1, &off);
      elf32_code_word(&e, s->addr, &v);                 // pcprof's reads of the code
      elf32_code_word(&e, s->addr + s->size - 4, &v);
      elf32_code_word(&e, s->addr + s->size - 2, &v);
    }
    for (uint32_t i = 0; i < e.nsyms; i++) {  // every symbol as pcprof reads them
      Elf32Sym sym;
      elf32_sym(&e, i, &sym);
      if (strlen(sym.name) > e.len) abort();
    }
    fprintf(sink, "%s\n", elf32_symbolize(&e, e.entry, &off));
    checkelf_image(&e, path, 0, 7616, sink, sink);
    checkelf_image(&e, path, 1, 576, sink, sink);
    elf2img_image(&e, path, sink, 1, sink);
    elf2img_image(&e, path, sink, 0, sink);
  }
  elf32_free(&e);
  return 0;
}
