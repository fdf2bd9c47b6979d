/*
 * op2t_report.h: what the HostLink engines measure, and the summary they
 * print at exit (sim_report.c).
 */
#ifndef OP2T_REPORT_H
#define OP2T_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "op2t_sim.h"
#include "softswitch.h"

typedef struct {
  const char *engine, *config, *tsim_cmd;
  int nboards;
  double t0;                 /* monotonic seconds at the first invocation */
  long loads;                /* instances booted (tsim restarted for each after the first) */
  const char *load_method;   /* OP2_TINSEL_LOAD: how the instances were loaded */
  unsigned long long preload_bytes; /* tsim --preload files written, all loads */
  double load_seconds;
  uint64_t image_bytes;      /* thread images written, all loads */
  long fetches, pushes;      /* dats moved by LOAD / STORE requests */
  double fetch_seconds;
  uint64_t host_sent, host_recv;   /* messages over the link, requests included */
  uint64_t host_begins;      /* of host_sent: begin messages (one per invocation when sent by routing key) */
  uint64_t cycles_at_load, cycles_end; /* root-thread cycle counter: at the last boot, at exit */
  uint32_t threads;          /* threads with devices (last load) */
  ss_stats *ss;              /* [threads]: softswitch statistics at exit */
  uint32_t *thread_addr;     /* [threads]: hardware thread ids (tinsel.md §2.4) */
  uint32_t *thread_devices;  /* [threads]: devices on each */
  FILE *util;                /* OP2_TINSEL_UTIL's file, open from the start; closed by the report */
  const char *util_path;
  ss_stats ss_before;        /* summed over the threads of earlier loads */
  op2t_kv tsim_stats;        /* one block per tsim run */
  int ninv;
  double *inv_cycles, *inv_min, *inv_max; /* [ninvocations] */
  long *inv_calls;
  long *inv_streamed;        /* calls whose cycles were not measured (streamed) */
} op2t_hw_stats;

/* One call of invocation k and its cycles, or OP2T_NOT_MEASURED (streamed). */
#define OP2T_NOT_MEASURED UINT64_MAX
void op2t_hw_stats_invocation(op2t_hw_stats *s, int k, uint64_t cycles);
void op2t_hw_report(const op2t_hw_stats *s);

#endif
