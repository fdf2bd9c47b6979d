/* pcprof_parse.h: the reader of tsim's --pc-profile files (written by
   sim/fast/fast_pcprof.c; format in sim/README.md "Profile per pc"), for
   build/bin/pcprof (sim/pcprof.c) and its fuzz harness (tests/fuzz/pcprof).

   A file is blocks, one per tsim run (per MPI rank of a run): a header
   line `pc-profile 1 cores=C cycles=N retired=R rows=K`, then K rows
   `CORE PC COUNT WORD` (CORE < C decimal, PC and WORD 0x and up to 8 hex
   digits, PC a multiple of 4, COUNT decimal above 0), in increasing
   (CORE, PC) order, whose counts add up to R. Lines starting with # and
   empty lines are comments. Every field is checked; an error names the
   file and line. */
#ifndef PCPROF_PARSE_H
#define PCPROF_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* Cores and rows one profile may hold (a cluster has 3072 cores, each at
   most 16384 instruction words). */
enum { PCPROF_MAX_CORES = 1 << 16 };
#define PCPROF_MAX_ROWS (64u << 20)

typedef struct {
  uint32_t block, core, pc, word;
  uint64_t count;
} PcRow;

typedef struct {
  PcRow *rows;            /* in file order: by block, then (core, pc) */
  size_t nrows, cap;
  unsigned nblocks;
  unsigned max_cores;     /* the largest cores= of any block */
  uint64_t total;         /* every count added up */
} PcProfile;

/* Parse the LEN bytes at TEXT (NAME stands for the file in messages) into
   *P. 0, or -1 with "NAME:LINE: error: ..." in ERR (*P then freed). */
int pcprof_parse(const char *name, const char *text, size_t len, PcProfile *p, char *err, size_t errlen);

void pcprof_free(PcProfile *p);

#endif
