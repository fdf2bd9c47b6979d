/* tsim_preload.h: tsim --preload FILE, a model-only backdoor that loads
   code, memory and thread starts before the first cycle instead of through
   the boot loader (sim/README.md "Preload"). The format constants are
   shared with the writer (host/tinsel/tsim_preload_write.c). */
#ifndef TSIM_PRELOAD_H
#define TSIM_PRELOAD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The file: the 8-byte magic, then records of a 16-byte header
   {kind, core, addr, size} (little-endian words) and SIZE payload bytes
   padded with zeros to a multiple of 4. CORE is run-wide (board index *
   CoresPerBoard + core). */
#define TSIM_PRELOAD_MAGIC "TSIMPRE1"
enum {
  TSIM_PRELOAD_MAGIC_BYTES = 8,
  TSIM_PRELOAD_HEADER_BYTES = 16,
  TSIM_PRELOAD_CODE = 1,  /* words into the instruction memory of CORE's pair at byte ADDR */
  TSIM_PRELOAD_DATA = 2,  /* bytes at ADDR as CORE's threads see it (DRAM, SRAM, scratchpad) */
  TSIM_PRELOAD_START = 3  /* payload: a 4-byte thread mask; those threads start at ADDR */
};

/* What the reader needs of the run (tsim_dpi.c fills it). */
typedef struct {
  unsigned cores;           /* in the run, all boards */
  unsigned cores_per_pair;  /* sharing one instruction memory */
  unsigned imem_words;      /* this run's instruction memory per pair (--imem) */
  unsigned threads_per_core;
  const uint32_t *base_imem;  /* every pair's image before the file's code: the ELF or boot loader */
  /* Writes one byte at ADDR as CORE's threads see it; -1 if ADDR is in no region. */
  int (*write_byte)(unsigned core, uint32_t addr, uint8_t byte);
} TsimPreloadRun;

/* Reads and applies FILE. 0, or -1 after printing `tsim: FILE:OFFSET: error: ...`. */
int tsim_preload_load(const char *path, const TsimPreloadRun *run);
/* Pair PAIR's own instruction memory (imem_words words), or NULL: the base image. */
const uint32_t *tsim_preload_pair(unsigned pair);
/* 1 when the file starts CORE's threads: their entry and thread mask. */
int tsim_preload_start(unsigned core, uint32_t *entry, uint32_t *mask);
void tsim_preload_free(void);

#ifdef __cplusplus
}
#endif
#endif
