/*
 * op_loops.c: what op2c-generated loops report (op_rt_loop_enter/exit),
 * timers, and OP2's per-loop timing table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "op_internal.h"

typedef struct {
  const char *key; /* the caller's name pointer: a string literal, so a fast first test */
  char *name;
  long count;
  double time;     /* seconds */
  double bytes;    /* estimated bytes moved */
} LoopStat;

static LoopStat *stats;
static int nstats;

double op_wall_time(void) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (double)t.tv_sec + 1.0e-6 * (double)t.tv_usec;
}

void op_timers(double *cpu, double *et) {
  op_hook_timers();
  if (cpu)
    *cpu = (double)clock() / CLOCKS_PER_SEC;
  if (et)
    *et = op_wall_time();
}

void op_timers_core(double *cpu, double *et) { op_timers(cpu, et); }

static LoopStat *find_stat(const char *name) {
  for (int i = 0; i < nstats; i++)
    if (stats[i].key == name || strcmp(stats[i].name, name) == 0)
      return &stats[i];
  LoopStat *grown = realloc(stats, sizeof(*stats) * ((size_t)nstats + 1));
  if (!grown)
    op_fatal("out of memory recording loop \"%s\"", name);
  stats = grown;
  LoopStat *s = &stats[nstats++];
  memset(s, 0, sizeof(*s));
  s->key = name;
  s->name = op_xstrdup(name);
  return s;
}

double op_rt_loop_enter(const char *name, op_set set, int nargs, const op_arg *args) {
  op_profile_loop_begin(name, nargs, args);
  if (op_state.diags >= 2)
    op_check_loop_args(name, set, nargs, args);
  else if (!set)
    op_fatal("loop \"%s\": NULL iteration set", name ? name : "(unnamed)");
  return op_wall_time();
}

/* Was this dat (or map) already counted by an earlier arg of the loop? */
static int seen_before(const op_arg *args, int i, int by_map) {
  for (int j = 0; j < i; j++) {
    if (!args[j].opt || args[j].argtype != args[i].argtype)
      continue;
    if (by_map ? args[j].map == args[i].map : args[j].dat == args[i].dat)
      return 1;
  }
  return 0;
}

/* OP2's estimate: each distinct dat once over its set (twice unless read-only), each map once. */
static double loop_bytes(op_set set, int nargs, const op_arg *args) {
  double bytes = 0;
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (!a->opt || a->argtype != OP_ARG_DAT || !a->dat)
      continue;
    if (!seen_before(args, i, 0)) {
      double b = (double)a->dat->set->size * a->dat->size;
      bytes += a->acc == OP_READ ? b : 2 * b;
    }
    if (a->map && !seen_before(args, i, 1))
      bytes += (double)set->size * a->map->dim * sizeof(int);
  }
  return bytes;
}

void op_rt_loop_exit(const char *name, op_set set, int nargs, const op_arg *args, double t0) {
  double t = op_wall_time() - t0;
  op_profile_loop_end(nargs, args);
  LoopStat *s = find_stat(name ? name : "(unnamed)");
  s->count++;
  s->time += t;
  s->bytes += loop_bytes(set, nargs, args);
}

static double gbps(const LoopStat *s) { return s->time > 0 ? s->bytes / s->time * 1e-9 : 0.0; }

static int by_time_desc(const void *a, const void *b) {
  double x = stats[*(const int *)a].time, y = stats[*(const int *)b].time;
  return (x < y) - (x > y);
}

/* OP2's table: a row per loop, the slowest first. One node and no plans:
 * plan and MPI times are 0; the second GB/s column (plan-based loops'
 * second transfer estimate) stays empty, as OP2's does without one. */
void op_timing_output(void) {
  if (nstats == 0)
    return;
  int *order = op_xcalloc((size_t)nstats, sizeof(int), "the timing table");
  for (int i = 0; i < nstats; i++)
    order[i] = i;
  qsort(order, (size_t)nstats, sizeof(int), by_time_desc);
  printf("\n  count   plan time     MPI time(std)        time(std)           GB/s      GB/s   kernel name ");
  printf("\n %.*s\n", 91, "-------------------------------------------------------------------------------------------");
  for (int i = 0; i < nstats; i++) {
    const LoopStat *s = &stats[order[i]];
    printf(" %6ld;  %8.4f;  %8.4f(%8.4f);  %8.4f(%8.4f);  %8.4f;         ;   %s \n", s->count, 0.0, 0.0, 0.0,
           s->time, 0.0, gbps(s), s->name);
  }
  free(order);
}

/* OP2's CSV: a row per loop (rank 0, thread 0 of 1 rank and 1 thread). */
void op_timings_to_csv(const char *file) {
  FILE *f = file ? fopen(file, "w") : NULL;
  if (!f)
    op_fatal("op_timings_to_csv: cannot open \"%s\" for writing", file ? file : "(null)");
  fprintf(f, "rank,thread,nranks,nthreads,count,total time,plan time,mpi time,GB used,GB total,kernel name\n");
  for (int i = 0; i < nstats; i++)
    fprintf(f, "%d,%d,%d,%d,%ld,%f,%f,%f,%f,%f,%s\n", 0, 0, 1, 1, stats[i].count, stats[i].time, 0.0, 0.0,
            stats[i].bytes / 1e9, 0.0, stats[i].name);
  if (fclose(f) != 0)
    op_fatal("op_timings_to_csv: error writing \"%s\"", file);
}

void op_loops_free(void) {
  for (int i = 0; i < nstats; i++)
    free(stats[i].name);
  free(stats);
  stats = NULL;
  nstats = 0;
}
