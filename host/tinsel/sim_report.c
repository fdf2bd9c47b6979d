/*
 * sim_report.c: the summary a HostLink engine prints at exit (stderr):
 * simulated cycles and time at Tinsel's clock, host wall time, messages
 * (thread-local from the softswitch statistics, on-board and inter-board
 * from tsim's statistics file, over the host link), cycles per invocation
 * (the root thread's cycle counter read before the begins and after the
 * end, so the host's round trips are included) and per-thread utilisation
 * (1 - softswitch idle cycles / cycles since the last load). Lines start
 * with "op2 tinsel:" or two spaces so scripts can find them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "op2t_internal.h"
#include "op2t_report.h"
#include "tinsel_config.h"

void op2t_hw_stats_invocation(op2t_hw_stats *s, int k, uint64_t cycles) {
  if (!s->inv_calls) {
    s->inv_streamed = op2t_calloc((size_t)op2t_graph_info.ninvocations + 1, sizeof(long));
    s->ninv = op2t_graph_info.ninvocations;
    s->inv_cycles = op2t_calloc((size_t)s->ninv, sizeof(double));
    s->inv_min = op2t_calloc((size_t)s->ninv, sizeof(double));
    s->inv_max = op2t_calloc((size_t)s->ninv, sizeof(double));
    s->inv_calls = op2t_calloc((size_t)s->ninv, sizeof(long));
  }
  if (cycles == OP2T_NOT_MEASURED) {
    s->inv_streamed[k]++;
    s->inv_calls[k]++;
    return;
  }
  double c = (double)cycles;
  if (!s->inv_calls[k] || c < s->inv_min[k])
    s->inv_min[k] = c;
  if (c > s->inv_max[k])
    s->inv_max[k] = c;
  s->inv_cycles[k] += c;
  s->inv_calls[k]++;
}

/* Sum of KEY over every tsim run in the statistics. */
static double sum(const op2t_kv *kv, const char *key) {
  double v = 0;
  for (int i = 0; i < kv->n; i++)
    if (!strcmp(kv->key[i], key))
      v += kv->val[i];
  return v;
}

/* Instructions retired over every tsim run: the cores' core.C.retired. */
static double retired(const op2t_kv *kv) {
  double v = 0;
  for (int i = 0; i < kv->n; i++) {
    size_t n = strlen(kv->key[i]);
    if (!strncmp(kv->key[i], "core.", 5) && n > 13 && !strcmp(kv->key[i] + n - 8, ".retired"))
      v += kv->val[i];
  }
  return v;
}

/* Flits that left a board through an inter-board link, over every tsim
 * run: every board's link.D.out.flits (board 0's as "link.D", the others'
 * as "board.B.link.D"), except board 0's West link, which is the host link
 * (sim/tsim_hostlink.c) and counted on its own line. */
static double link_flits(const op2t_kv *kv) {
  const char *suffix = ".out.flits";
  size_t ls = strlen(suffix);
  double v = 0;
  for (int i = 0; i < kv->n; i++) {
    const char *k = kv->key[i];
    size_t n = strlen(k);
    if (n < ls || strcmp(k + n - ls, suffix) || !strcmp(k, "link.W.out.flits"))
      continue;
    if (!strncmp(k, "link.", 5) || (!strncmp(k, "board.", 6) && strstr(k, ".link.")))
      v += kv->val[i];
  }
  return v;
}

/* OP2_TINSEL_UTIL=FILE: the same per thread, one line each, tab-separated,
 * for a plot or a sort: which threads bound a run (docs/tinsel-backend.md). */
static void utilisation_file(const op2t_hw_stats *s, double span) {
  FILE *f = s->util;
  if (!f)
    return;
  for (uint32_t t = 0; t < s->threads; t++) {
    const ss_stats *x = &s->ss[t];
    double busy = span > 0 ? 1.0 - (double)x->idle_cycles / span : 0;
    uint32_t a = s->thread_addr[t];
    char counts[64] = "-\t-\t-\t-"; /* counted only with op2c --count-events */
    if (op2t_counts_events())
      snprintf(counts, sizeof counts, "%u\t%u\t%u\t%u", x->handler_calls, x->recv_remote, x->sent_remote,
               x->sent_local);
    fprintf(f, "0x%x\t%u\t%u\t%u\t%.4f\t%s\n", a, a >> TinselLogThreadsPerCore,
            a & ((1u << TinselLogThreadsPerCore) - 1), s->thread_devices[t], busy < 0 ? 0 : busy > 1 ? 1 : busy,
            counts);
  }
  if (fclose(f) != 0)
    fprintf(stderr, "op2 tinsel: OP2_TINSEL_UTIL=%s: writing it failed: %s\n", s->util_path, strerror(errno));
  else
    fprintf(stderr, "op2 tinsel: per-thread utilisation written to %s (%u threads)\n", s->util_path, s->threads);
}

static void utilisation(const op2t_hw_stats *s) {
  double span = (double)(s->cycles_end - s->cycles_at_load);
  utilisation_file(s, span);
  if (!s->threads || span <= 0)
    return;
  int bucket[10] = {0};
  double total = 0, lo = 1, hi = 0;
  for (uint32_t t = 0; t < s->threads; t++) {
    double busy = 1.0 - (double)s->ss[t].idle_cycles / span;
    busy = busy < 0 ? 0 : busy > 1 ? 1 : busy;
    bucket[busy >= 1 ? 9 : (int)(busy * 10)]++;
    total += busy;
    lo = busy < lo ? busy : lo;
    hi = busy > hi ? busy : hi;
  }
  fprintf(stderr, "op2 tinsel: thread utilisation since the last load (%.0f cycles; busy = not waiting in the softswitch), "
                  "%u threads with devices: mean %.1f%%, min %.1f%%, max %.1f%%\n",
          span, s->threads, 100 * total / s->threads, 100 * lo, 100 * hi);
  for (int b = 0; b < 10; b++) {
    int bar = (int)(50.0 * bucket[b] / s->threads + 0.5);
    fprintf(stderr, "  %3d-%3d%% %6d ", 10 * b, 10 * b + 10, bucket[b]);
    for (int i = 0; i < bar; i++)
      fputc('#', stderr);
    fputc('\n', stderr);
  }
}

void op2t_hw_report(const op2t_hw_stats *s) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  double wall = (double)t.tv_sec + 1e-9 * (double)t.tv_nsec - s->t0;
  const op2t_kv *kv = &s->tsim_stats;
  double cycles = sum(kv, "cycles");
  uint64_t local = s->ss_before.sent_local, remote = s->ss_before.sent_remote;
  for (uint32_t i = 0; i < s->threads; i++) {
    local += s->ss[i].sent_local;
    remote += s->ss[i].sent_remote;
  }
  fprintf(stderr, "\nop2 tinsel: summary (%s engine on %s, %d board%s%s%s)\n", s->engine, s->config, s->nboards,
          s->nboards == 1 ? "" : "s", s->tsim_cmd ? "; " : "", s->tsim_cmd ? s->tsim_cmd : "");
  long runs = 0; /* tsim runs: one statistics block each */
  for (int i = 0; i < kv->n; i++)
    runs += !strcmp(kv->key[i], "cycles");
  if (kv->n) {
    fprintf(stderr, "  simulated cycles        %.0f (tsim, %ld run%s)\n  simulated time          %.6f s at %d MHz\n",
            cycles, runs, runs == 1 ? "" : "s", cycles / (TinselClockFreq * 1e6), TinselClockFreq);
    fprintf(stderr, "  instructions retired    %.0f (tsim, every core, %ld run%s)\n", retired(kv), runs, runs == 1 ? "" : "s");
  }
  fprintf(stderr, "  host wall time          %.2f s (loading %.2f s over %ld load%s, %.0f KiB of thread images; "
                  "dats fetched %ld times in %.2f s, pushed %ld times)\n",
          wall, s->load_seconds, s->loads, s->loads == 1 ? "" : "s", s->image_bytes / 1024.0, s->fetches,
          s->fetch_seconds, s->pushes);
  if (s->load_method) {
    fprintf(stderr, "  loading                 %s: %ld load%s in %.2f s, %.2f s per load", s->load_method, s->loads,
            s->loads == 1 ? "" : "s", s->load_seconds, s->loads ? s->load_seconds / (double)s->loads : 0.0);
    if (s->preload_bytes)
      fprintf(stderr, ", %.0f KiB of preload files", (double)s->preload_bytes / 1024.0);
    fputc('\n', stderr);
  }
  if (op2t_counts_events())
    fprintf(stderr, "  messages                thread-local %llu (softswitch sends that stayed on the thread), "
                    "network sends %llu (softswitch)\n",
            (unsigned long long)local, (unsigned long long)remote);
  else
    fprintf(stderr, "  messages                the softswitch's counts: build with op2c --count-events\n");
  if (kv->n)
    fprintf(stderr, "                          on-board %.0f (tsim: messages sent %.0f, deliveries %.0f), "
                    "inter-board %.0f flits\n",
            sum(kv, "messages.sent"), sum(kv, "messages.sent"), sum(kv, "messages.deliveries"), link_flits(kv));
  fprintf(stderr, "                          host link: %llu to the boards (%llu begins), %llu from them (requests included)\n",
          (unsigned long long)s->host_sent, (unsigned long long)s->host_begins, (unsigned long long)s->host_recv);
  long streamed = 0;
  for (int k = 0; k < s->ninv; k++)
    streamed += s->inv_streamed[k];
  if (streamed) /* invocations overlap: calls only */
    fprintf(stderr, "op2 tinsel: cycles per invocation: not measured, the invocations were streamed "
                    "(OP2_TINSEL_STREAM=0 runs them one at a time and measures each)\n  %-20s %7s\n",
            "invocation", "calls");
  else
    fprintf(stderr, "op2 tinsel: cycles per invocation (root thread's counter, begin to end, host round trips "
                    "included)\n  %-20s %7s %12s %12s %12s\n", "invocation", "calls", "mean", "min", "max");
  for (int k = 0; k < s->ninv; k++)
    if (s->inv_streamed[k])
      fprintf(stderr, "  %-20s %7ld %12s\n", op2t_graph_info.invocations[k]->name, s->inv_calls[k], "streamed");
    else if (s->inv_calls[k])
      fprintf(stderr, "  %-20s %7ld %12.0f %12.0f %12.0f\n", op2t_graph_info.invocations[k]->name, s->inv_calls[k],
              s->inv_cycles[k] / s->inv_calls[k], s->inv_min[k], s->inv_max[k]);
  utilisation(s);
  if (kv->n) {
    double cores = op2t_kv_get(kv, "cores", 0), busy_lo = 1, busy_hi = 0, busy = 0;
    double last = op2t_kv_get(kv, "cycles", 0);
    char key[64];
    for (int c = 0; c < (int)cores && last > 0; c++) {
      snprintf(key, sizeof(key), "core.%d.retired", c);
      double ipc = op2t_kv_get(kv, key, 0) / last;
      busy += ipc;
      busy_lo = ipc < busy_lo ? ipc : busy_lo;
      busy_hi = ipc > busy_hi ? ipc : busy_hi;
    }
    if (cores > 0 && last > 0)
      fprintf(stderr, "op2 tinsel: instructions per cycle per core (tsim, last run): mean %.3f, min %.3f, max %.3f\n",
              busy / cores, busy_lo, busy_hi);
  }
}
