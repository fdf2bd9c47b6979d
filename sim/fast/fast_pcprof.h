/* fast_pcprof.h: tsim --engine fast --pc-profile FILE (or TSIM_PC_PROFILE=FILE):
   retired instructions counted per core and pc (FastCore.prof, counted by
   fast_engine.c where instructions retire: `issue` and `core_batch`),
   appended to FILE at the end of the run as one block per process
   (per MPI rank). The format is sim/README.md "Profile per pc"; build/bin/pcprof
   reads it (sim/pcprof.c). */
#ifndef FAST_PCPROF_H
#define FAST_PCPROF_H

#include "fast_engine.h"

/* After fast_mpi_split: open PATH to append and give this process's cores
   their counts. 0, or an exit status after saying why. */
int fast_pcprof_start(FastRun *r, const char *path);

/* After the run (before fast_free): append this process's block (under a
   lock on the file: MPI ranks write theirs at once) and close the file.
   CONFIG, ELF and PRELOAD (NULL: none) are noted in the block. 0, or -1
   after saying why. */
int fast_pcprof_write(FastRun *r, const char *path, const char *config, const char *elf, const char *preload,
                      int rank, int ranks);

#endif
