/* fast_main.c: the fast engine's driver (build/bin/tsim-fast-NAME, run by
   `tsim --engine fast`): the same arguments, loading, stop conditions,
   messages, exit codes and statistics as the cycle models' driver
   (sim/tsim_main.cpp), over the instruction-level cores of fast_engine.c.
   Cycles in which every core sleeps are skipped in one step to the next
   thread due from a wheel, or to the quiet end, the watchdog or
   --max-cycles, whichever comes first. */
#define _POSIX_C_SOURCE 200809L
#include "fast_engine.h"

#include "Vtsim_top__Dpi.h"
#include "tsim_args.h"
#include "fast_link.h"
#include "tsim_debuglink.h"
#include "tsim_hostlink.h"
#include "tsim_links.h"
#include "tsim_boards.h"
#include "tsim_mbox.h"
#include "tsim_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long clocked_cycle;
unsigned long long tsim_cycle(void) { return clocked_cycle; }

static double clock_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  unsigned long long last_active, quiet_end, watchdog, max_cycles;
} Limits;

/* A tile run ahead (fast_engine.c run_ahead) retired in cycles up to
   r->active_until - 1: the run was active then, once it gets there. */
static void note_ahead(const FastRun *r, Limits *l) {
  unsigned long long a = r->active_until < r->cycle ? r->active_until : r->cycle;
  if (a > l->last_active) l->last_active = a;
}

/* After clocking up to r->cycle: the quiet end or the watchdog, as tsim_main.cpp decides them. */
static void check_quiet(const FastRun *r, const Limits *l) {
  unsigned long long idle = r->cycle - l->last_active;
  if (l->quiet_end && idle >= l->quiet_end) tsim_stop = TSIM_STOP_QUIET;
  else if (l->watchdog && idle >= l->watchdog) tsim_stop = TSIM_STOP_DEADLOCK;
}

/* Every core asleep: jump to the next cycle in which something happens. */
static void skip_idle(FastRun *r, Limits *l) {
  unsigned long long to = fast_next_event(r), last = l->last_active;
  if (r->active_until > last) last = r->active_until < to ? r->active_until : to;
  if (l->quiet_end && last + l->quiet_end < to) to = last + l->quiet_end;
  if (l->watchdog && last + l->watchdog < to) to = last + l->watchdog;
  if (to > l->max_cycles) to = l->max_cycles;
  if (to <= r->cycle) return;
  r->cycle = to;
  note_ahead(r, l);
  check_quiet(r, l);
}

static void progress_line(unsigned long long cycle, unsigned long long since, double secs) {
  fprintf(stderr, "tsim: progress: cycle %llu, %.3f M cycles/s, %llu messages\n", cycle, (double)since / secs / 1e6,
          tsim_mbox_sent_so_far());
}

/* The links after a cycle, as tsim_main.cpp drives them: the sides toward
   another board through tsim_links.c, the others (the host on board 0's
   West, nothing elsewhere) through tsim_hostlink.c, which may wait for the
   host when the boards were quiet (then the watchdog restarts). */
typedef struct {
  unsigned nb, nbrs[TSIM_MAX_BOARDS];
  TsimLinkIO io[TSIM_MAX_BOARDS], edge[TSIM_MAX_BOARDS];
} Links;

/* Copy into IO what the host link decided for the sides it serves: those
   not in NBRS (the sides toward another board). */
static void from_host(TsimLinkIO *io, const TsimLinkIO *e, unsigned nbrs) {
  unsigned keep = nbrs, lf = (1u << TinselLogMaxFlitsPerMsg) - 1;
  io->in_valid = (io->in_valid & keep) | (e->in_valid & ~keep);
  io->out_ready = (io->out_ready & keep) | (e->out_ready & ~keep);
  for (unsigned d = 0; d < TSIM_LINKS; d++)
    if (!(keep >> d & 1)) {
      unsigned f = lf << (d * TinselLogMaxFlitsPerMsg);
      io->in_dest[d] = e->in_dest[d];
      io->in_msg[d] = e->in_msg[d];
      io->in_lens = (io->in_lens & ~f) | (e->in_lens & f);
    }
}

static void links_cycle(FastRun *r, Links *k, Limits *l, int active) {
  int between = tsim_links_in_flight() != 0;
  for (unsigned b = 0; b < k->nb; b++) {
    memcpy(&k->edge[b], &k->io[b], sizeof k->io[b]);  /* one fixed-size copy, not a call */
    k->edge[b].in_taken &= ~k->nbrs[b];
    k->edge[b].out_taken &= ~k->nbrs[b];
  }
  if (tsim_links_cycle(k->edge, k->nb, r->cycle, active || between)) l->last_active = r->cycle;
  for (unsigned b = 0; b < k->nb; b++) {
    from_host(&k->io[b], &k->edge[b], k->nbrs[b]);
    if (k->nbrs[b]) tsim_links_cycle_board(b, &k->io[b], r->cycle);
    unsigned off = tsim_debuglink_links_off(b);  /* links a DebugLink QueryIn disabled */
    k->io[b].out_ready &= ~off;
    k->io[b].in_valid &= ~off;
  }
}

static void run(FastRun *r, const TsimArgs *a) {
  Limits l = {0, tsim_run_quiet_cycles(), a->watchdog, a->max_cycles};
  static Links k;
  k.nb = tsim_boards();
  for (unsigned b = 0; b < k.nb; b++) {
    k.nbrs[b] = tsim_links_neighbours(b);
    k.io[b].out_ready = 0xf;
  }
  int progress = !a->quiet && (a->progress || isatty(STDERR_FILENO));
  double shown_at = clock_seconds(CLOCK_MONOTONIC);
  unsigned long long shown_cycle = 0;
  r->limit = l.max_cycles;
  while (!tsim_stop && r->cycle < l.max_cycles) {
    int moved = fast_link_edge(r, k.io, k.nb);
    fast_cycle(r);
    r->cycle++;
    int between = tsim_links_in_flight() != 0;
    int ahead = r->cycle <= r->active_until;  /* a tile run ahead retired in the cycle just clocked */
    if (r->hostlink || moved || between) links_cycle(r, &k, &l, r->retired_now || moved || ahead);
    if (fast_link_busy() || between) r->any_ready = 1;
    if (r->retired_now || moved || between || ahead) l.last_active = r->cycle;
    else check_quiet(r, &l);
    if (!r->any_ready && !tsim_stop && !r->hostlink) skip_idle(r, &l);
    if (progress && (r->cycle & 0xffff) == 0) {
      double now = clock_seconds(CLOCK_MONOTONIC);
      if (now - shown_at >= 1.0) {
        progress_line(r->cycle, r->cycle - shown_cycle, now - shown_at);
        shown_at = now;
        shown_cycle = r->cycle;
      }
    }
  }
}

/* How far a tile may run ahead (fast_engine.c run_ahead): TSIM_FAST_QUANTUM
   cycles, 0 for the per-cycle schedule alone; ~0 after saying it is bad. */
static unsigned fast_quantum(void) {
  const char *e = getenv("TSIM_FAST_QUANTUM");
  char *end;
  if (!e || !*e) return FAST_QUANTUM;
  unsigned long v = strtoul(e, &end, 10);
  if (*end || e[0] == '-' || v > 1000000) {
    fprintf(stderr, "tsim: TSIM_FAST_QUANTUM \"%s\": expected a number of cycles from 0 to 1000000\n", e);
    return ~0u;
  }
  return (unsigned)v;
}

int main(int argc, char **argv) {
  TsimArgs args;
  int rc = tsim_parse_args(argc, argv, &args);
  if (rc) return rc < 0 ? 0 : rc;
  if (args.trace) {
    fprintf(stderr, "tsim: the fast engine writes no waveform (--trace): use --engine cycle\n");
    return TSIM_EXIT_USAGE;
  }
  if ((rc = tsim_run_load(&args))) return rc;
  if ((rc = tsim_hostlink_start(&args))) return rc;
  FastRun r;
  if (fast_init(&r, args.profile_full)) return TSIM_EXIT_INPUT;
  r.hostlink = args.hostlink != NULL;
  r.quantum = fast_quantum();
  if (r.quantum == ~0u) return TSIM_EXIT_USAGE;
  double start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
  run(&r, &args);
  double secs = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
  clocked_cycle = r.cycle;
  fast_final(&r);
  unsigned long long cycles = r.cycle;
  fast_free(&r);
  fast_link_free();
  tsim_hostlink_finish();
  return tsim_run_finish(cycles, secs);
}
