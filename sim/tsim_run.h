/* tsim_run.h: one run of a model: the loaded program, the stop condition
   and the statistics the DPI functions gather (tsim_dpi.c, per configuration). */
#ifndef TSIM_RUN_H
#define TSIM_RUN_H

#include "tsim_args.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { TSIM_RUNNING = 0, TSIM_STOP_TOHOST = 1, TSIM_STOP_HALT = 2, TSIM_STOP_DEADLOCK = 3,
       TSIM_STOP_HOST_CLOSED = 4 /* the host closed the host link (--hostlink) */ };

/* Non-zero once a thread stored to tohost or the model halted; polled by
   the harness after every cycle. */
extern volatile int tsim_stop;

/* Load the ELF named in *a (--elf; with --hostlink and no --elf, the boot
   loader: --boot or the firmware build's) into the memories. 0, or
   TSIM_EXIT_INPUT after printing the error. */
int tsim_run_load(const TsimArgs *a);

/* Print the outcome and the statistics; return tsim's exit status. */
int tsim_run_finish(unsigned long long cycles, double host_seconds);

#ifdef __cplusplus
}
#endif
#endif
