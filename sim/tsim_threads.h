/* tsim_threads.h: every thread's state at the end of a run (sim/tsim_threads.c). */
#ifndef TSIM_THREADS_H
#define TSIM_THREADS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Print one stderr line per group of threads in the same state (stopped,
   running, suspended, in WaitUntil, in tinselIdle; with the pc). Valid
   after the model's final blocks ran. */
void tsim_threads_report(void);
/* Gather every rank's thread states onto one (sim/fast/fast_mpi.c): OR
   combines the bytes (each thread is reported by one rank only). */
void tsim_threads_reduce(void (*or)(void *buf, size_t bytes));

/* The threads at the end of a run, counted by state (same validity). */
typedef struct {
  unsigned alive;                  /* started, not killed or halted */
  unsigned wait_recv, wait_send;   /* asleep in WaitUntil: CAN_RECV only; CAN_SEND (maybe also CAN_RECV) */
  unsigned in_idle;                /* asleep in tinselIdle */
  unsigned awake;                  /* running or suspended on an answer */
} TsimThreadCounts;
void tsim_threads_count(TsimThreadCounts *c);

#ifdef __cplusplus
}
#endif
#endif
