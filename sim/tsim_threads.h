/* tsim_threads.h: every thread's state at the end of a run (sim/tsim_threads.c). */
#ifndef TSIM_THREADS_H
#define TSIM_THREADS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Print one stderr line per group of threads in the same state (stopped,
   running, suspended, in WaitUntil, in tinselIdle; with the pc). Valid
   after the model's final blocks ran. */
void tsim_threads_report(void);

#ifdef __cplusplus
}
#endif
#endif
