/* hl_elf.c: hl_load_elf, an application ELF (firmware/link/app.ld) onto
 * cores through their boot loaders, as Tinsel's HostLink loads code.v and
 * data.v: every instruction word to each core (once per core pair when
 * the pair shares its instruction memory), data words once per DRAM. */
#include "elf32.h"
#include "hl_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SECTION's bytes as words (zero-padded; .bss is zeros, as in Tinsel's
   data image). The caller frees. */
static uint32_t *section_words(const Elf32Section *s, size_t *n) {
  *n = (size_t)(((uint64_t)s->size + 3) / 4);   /* 64-bit: a size near 2^32 must not wrap to 0 */
  uint32_t *w = calloc(*n ? *n : 1, 4);
  if (w && s->data)
    for (uint32_t i = 0; i < s->size; i++) w[i / 4] |= (uint32_t)s->data[i] << (8 * (i % 4));
  return w;
}

/* 1 when CORE's instruction memory is written through another listed core
   (its even partner, when SharedInstrMem pairs them). */
static int imem_shared_with_listed(const int *cores, int n, int core) {
  if (!TinselSharedInstrMem || !(core & 1)) return 0;
  for (int i = 0; i < n; i++)
    if (cores[i] == (core ^ 1)) return 1;
  return 0;
}

int hl_load_elf(hostlink *h, const char *elf_path, const int *cores, int ncores) {
  if (hl_check_cores(h, cores, ncores, "hl_load_elf")) return -1;
  int total = h->nboards * h->cores_per_board, n = cores ? ncores : total;
  int *list = malloc((size_t)(n ? n : 1) * sizeof *list);
  if (!list) return hl_fail(h, "hl_load_elf: out of memory");
  for (int i = 0; i < n; i++) list[i] = cores ? cores[i] : i;

  Elf32 elf;
  char err[400];
  int rc = 0;
  if (elf32_load(elf_path, &elf, err, sizeof err)) {
    free(list);
    elf32_free(&elf);
    return hl_fail(h, "hl_load_elf: %s", err);
  }
  for (int s = 0; s < elf.nsecs && !rc; s++) {
    const Elf32Section *sec = &elf.secs[s];
    /* Where it goes, checked before anything is allocated or sent. */
    uint64_t end = (uint64_t)sec->addr + sec->size;
    if (sec->kind & ELF32_SEC_EXEC) {
      if (sec->addr < TinselMaxBootImageBytes || end > h->instr_bytes || (sec->addr & 3)) {
        rc = hl_fail(h, "hl_load_elf: %s: section %s [0x%x, 0x%llx) lies outside the application's instruction memory "
                     "[0x%x, 0x%x) (link with firmware/link/app.ld)", elf_path, sec->name, sec->addr,
                     (unsigned long long)end, TinselMaxBootImageBytes, h->instr_bytes);
        break;
      }
    } else if (sec->addr < TinselDRAMBase || end > (uint64_t)TinselDRAMBase + TinselDRAMGlobalsLength || (sec->addr & 3)) {
      rc = hl_fail(h, "hl_load_elf: %s: section %s [0x%x, 0x%llx) lies outside the DRAM globals [0x%x, 0x%llx) "
                   "(link with firmware/link/app.ld)", elf_path, sec->name, sec->addr, (unsigned long long)end,
                   TinselDRAMBase, (unsigned long long)TinselDRAMBase + TinselDRAMGlobalsLength);
      break;
    }
    size_t nw;
    uint32_t *w = section_words(sec, &nw);
    if (!w) { rc = hl_fail(h, "hl_load_elf: out of memory for section %s (%u bytes)", sec->name, sec->size); break; }
    if (sec->kind & ELF32_SEC_EXEC) {
      for (int i = 0; i < n && !rc; i++) {
        int g = list[i], b = g / h->cores_per_board;
        if (imem_shared_with_listed(list, n, g)) continue;
        rc = hl_write_instrs(h, b % h->boards_x, b / h->boards_x, g % h->cores_per_board, sec->addr, w, nw);
      }
    } else {
      /* Once per DRAM: through the first listed core of each. */
      for (int i = 0; i < n && !rc; i++) {
        int g = list[i], dram = g >> h->g.log_cores_per_dram, first = 1;
        for (int j = 0; j < i; j++) first &= (list[j] >> h->g.log_cores_per_dram) != dram;
        if (!first) continue;
        int b = g / h->cores_per_board;
        rc = hl_store(h, b % h->boards_x, b / h->boards_x, g % h->cores_per_board, sec->addr, w, nw);
      }
    }
    free(w);
  }
  elf32_free(&elf);
  free(list);
  return rc;
}
