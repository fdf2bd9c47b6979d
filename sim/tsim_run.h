/* tsim_run.h: one run of a model: the loaded program, the stop condition
   and the statistics the DPI functions gather (tsim_dpi.c, per configuration). */
#ifndef TSIM_RUN_H
#define TSIM_RUN_H

#include "tsim_args.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TSIM_RUNNING = 0, TSIM_STOP_TOHOST = 1, TSIM_STOP_HALT = 2, TSIM_STOP_DEADLOCK = 3,
       TSIM_STOP_HOST_CLOSED = 4 /* the host closed the host link (--hostlink) */,
       TSIM_STOP_QUIET = 5 /* no tohost, no host link: quiet for tsim_run_quiet_cycles() */ };

/* Non-zero once a thread stored to tohost or the model halted; polled by
   the harness after every cycle. */
extern volatile int tsim_stop;

/* Load the ELF named in *a (--elf; with --hostlink and no --elf, the boot
   loader: --boot or the firmware build's) into the memories. 0, or
   TSIM_EXIT_INPUT after printing the error. */
int tsim_run_load(const TsimArgs *a);

/* The address of the program's tohost (0xffffffff: none), for the fast
   engine's shortcut past tsim_mem (sim/fast/), which must not skip it. */
uint32_t tsim_run_tohost(void);

/* Whether CORE's access of SIZE bytes at ADDR (a store: STORE) is plain:
   aligned, in a memory region and not a store to tohost, so that tsim_mem
   neither halts nor ends the run (the fast engine runs a tile ahead of the
   others only through such accesses). */
int tsim_mem_plain(unsigned core, uint32_t addr, unsigned size, int store);

/* A program without tohost run without a host link ends when nothing has
   retired and no message has moved for this many cycles (more than any
   latency in the model); tsim_run_finish then says why: every thread
   killed, or idle (sim/README.md "Runs without tohost"). 0: the run does
   not end that way. */
unsigned long long tsim_run_quiet_cycles(void);

/* The value stored to tohost (tsim_run_finish reports it); set on the MPI
   rank that reports when another rank's thread stored it. */
uint32_t tsim_run_tohost_value(void);
void tsim_run_set_tohost_value(uint32_t v);
/* Gather every rank's per-core and per-tile statistics onto one
   (sim/fast/fast_mpi.c): OR combines the bytes (each core is reported by
   one rank only). */
void tsim_run_stats_reduce(void (*or_bits)(void *buf, size_t bytes));

/* Print the outcome and the statistics; return tsim's exit status. */
int tsim_run_finish(unsigned long long cycles, double host_seconds);

#ifdef __cplusplus
}
#endif
#endif
