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
#include "fast_mbox.h"
#include "fast_mpi.h"
#include "fast_pcprof.h"
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

/* Where progress lines go, or NULL for none: stderr with --progress or a
   terminal; TSIM_PROGRESS=1 stderr as well (a program that spawns tsim,
   e.g. OP2's sim engine, which keeps tsim's stderr until the end), or a
   path starting with / to append them to (apps/sim.sh passes its own
   stderr that way, so that they show while the program runs). */
static FILE *progress_to(const TsimArgs *a) {
  const char *pe = getenv("TSIM_PROGRESS");
  if (a->quiet) return NULL;
  if (pe && pe[0] == '/') {
    FILE *f = fopen(pe, "a");
    if (f) {
      setvbuf(f, NULL, _IOLBF, 0);
      return f;
    }
    fprintf(stderr, "tsim: TSIM_PROGRESS %s: cannot append to it; progress on stderr\n", pe);
    return stderr;
  }
  return a->progress || isatty(STDERR_FILENO) || (pe && *pe && strcmp(pe, "0")) ? stderr : NULL;
}

static void progress_line(FILE *f, unsigned long long cycle, unsigned long long since, double secs) {
  fprintf(f, "tsim: progress: cycle %llu, %.3f M cycles/s, %llu messages\n", cycle, (double)since / secs / 1e6,
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

static void links_init(Links *k) {
  k->nb = tsim_boards();
  for (unsigned b = 0; b < k->nb; b++) {
    k->nbrs[b] = tsim_links_neighbours(b);
    k->io[b].out_ready = 0xf;
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
    if (k->nbrs[b] && b >= r->board_lo && b < r->board_hi) tsim_links_cycle_board(b, &k->io[b], r->cycle);
    unsigned off = tsim_debuglink_links_off(b);  /* links a DebugLink QueryIn disabled */
    k->io[b].out_ready &= ~off;
    k->io[b].in_valid &= ~off;
  }
}

static void run(FastRun *r, const TsimArgs *a) {
  Limits l = {0, tsim_run_quiet_cycles(), a->watchdog, a->max_cycles};
  static Links k;
  links_init(&k);
  FILE *progress = progress_to(a);
  double shown_at = clock_seconds(CLOCK_MONOTONIC);
  unsigned long long shown_cycle = 0, check_at = 0x10000;
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
    if (progress && r->cycle >= check_at) {  /* skips and runs ahead may pass over any given cycle */
      check_at = r->cycle + 0x10000;
      double now = clock_seconds(CLOCK_MONOTONIC);
      if (now - shown_at >= 1.0) {
        progress_line(progress, r->cycle, r->cycle - shown_cycle, now - shown_at);
        shown_at = now;
        shown_cycle = r->cycle;
      }
    }
  }
  if (progress && progress != stderr) fclose(progress);
}

/* Over MPI ranks (fast_mpi.h): the same cycles in windows of
   fast_mpi.window; this rank's boards only. Within a window nothing from
   another rank can arrive, so each rank runs alone (skipping its idle
   cycles up to the window's end); between windows the links crossing
   ranks are exchanged and the ranks agree on the stop (the earliest),
   the quiet end and the watchdog (from the last cycle any rank was
   active), idle detection (released on the next cycle, on every rank),
   and, when every rank is idle, the cycle to jump to. Rank 0 has the host
   link; it counts another rank's activity in a window as activity for
   the host link's quiet wait at the start of the next. */
static void run_windowed(FastRun *r, const TsimArgs *a) {
  Limits l = {0, tsim_run_quiet_cycles(), a->watchdog, a->max_cycles};
  static Links k;
  links_init(&k);
  FILE *progress = fast_mpi.rank == 0 ? progress_to(a) : NULL;
  double shown_at = clock_seconds(CLOCK_MONOTONIC);
  unsigned long long shown_cycle = 0, windows = 0, start = r->cycle;
  int remote_active = 0;
  r->limit = l.max_cycles;
  while (r->cycle < l.max_cycles) {
    unsigned long long end = r->cycle + fast_mpi.window, stop_at = 0;
    if (end > l.max_cycles) end = l.max_cycles;
    start = r->cycle;
    while (!tsim_stop && r->cycle < end) {
      int moved = fast_link_edge(r, k.io, k.nb);
      fast_cycle(r);
      r->cycle++;
      int between = tsim_links_in_flight() != 0;
      int ahead = r->cycle <= r->active_until;
      int act = r->retired_now || moved || ahead || remote_active;
      remote_active = 0;
      if (r->hostlink || moved || between) links_cycle(r, &k, &l, act);
      if (fast_link_busy() || between) r->any_ready = 1;
      if (r->retired_now || moved || between || ahead) l.last_active = r->cycle;
      if (tsim_stop) stop_at = r->cycle;
      if (!r->any_ready && !tsim_stop && !r->hostlink) {
        unsigned long long to = fast_next_event(r);
        if (to > end) to = end;
        if (to > r->cycle) {
          r->cycle = to;
          note_ahead(r, &l);
        }
      }
    }
    note_ahead(r, &l);
    windows++;
    fast_mpi_exchange(r);
    FastSync s = {~0ull, l.last_active, ~0ull, 0, (long long)tsim_mbox_sent_so_far(), 0, 0, tsim_run_tohost_value(),
                  fast_mpi.rank ? 0 : tsim_debuglink_config_gen()};
    if (tsim_stop) s.stop_key = stop_at << 3 | (unsigned)tsim_stop;
    fast_mbox_idle_here(r, &s.idle, &s.voted, &s.inflight);
    int busy = r->any_ready || tsim_links_in_flight() || fast_link_busy() || r->hostlink;
    s.next_event = busy ? r->cycle : fast_next_event(r);
    if (r->active_until > r->cycle && r->active_until < s.next_event) s.next_event = r->active_until;
    fast_mpi_sync(&s);
    if (s.stop_key != ~0ull) {  /* the earliest stop of any rank ends the run there */
      tsim_stop = (int)(s.stop_key & 7);
      tsim_run_set_tohost_value(s.tohost);
      r->cycle = s.stop_key >> 3;
      break;
    }
    remote_active = s.last_active > start && s.last_active > l.last_active;
    l.last_active = s.last_active;
    /* The quiet end and the watchdog, from the last cycle any rank was active. */
    if (l.quiet_end && r->cycle - l.last_active >= l.quiet_end) {
      tsim_stop = TSIM_STOP_QUIET;
      r->cycle = l.last_active + l.quiet_end;
      break;
    }
    if (l.watchdog && r->cycle - l.last_active >= l.watchdog) {
      tsim_stop = TSIM_STOP_DEADLOCK;
      r->cycle = l.last_active + l.watchdog;
      break;
    }
    if (s.idle && s.inflight == 0) {  /* idle detection: every thread waits, nothing on its way */
      r->idle_release = 1;
      r->idle_result = s.voted ? 2 : 1;
    } else if (s.next_event > r->cycle) {  /* every rank idle: on to the next cycle anything happens */
      unsigned long long to = s.next_event;
      if (l.quiet_end && l.last_active + l.quiet_end < to) to = l.last_active + l.quiet_end;
      if (l.watchdog && l.last_active + l.watchdog < to) to = l.last_active + l.watchdog;
      if (to > l.max_cycles) to = l.max_cycles;
      if (to > r->cycle) r->cycle = to;
    }
    if (progress && (windows & 63) == 0) {
      double now = clock_seconds(CLOCK_MONOTONIC);
      if (now - shown_at >= 1.0) {
        fprintf(progress, "tsim: progress: cycle %llu, %.3f M cycles/s, %lld messages (%d ranks)\n", r->cycle,
                (double)(r->cycle - shown_cycle) / (now - shown_at) / 1e6, s.sent, fast_mpi.ranks);
        shown_at = now;
        shown_cycle = r->cycle;
      }
    }
  }
  if (progress && progress != stderr) fclose(progress);
  if (fast_mpi.rank == 0 && !a->quiet)
    fprintf(stderr, "tsim: mpi: %d rank%s, boards %u..%u on rank 0, window %u cycles (LinkCyclesPerFlit %u + "
            "MacLatency %u), %llu windows\n", fast_mpi.ranks, fast_mpi.ranks == 1 ? "" : "s", r->board_lo,
            r->board_hi - 1, fast_mpi.window, (unsigned)TinselLinkCyclesPerFlit, (unsigned)TinselMacLatency, windows);
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
  if ((rc = fast_mpi_start(&argc, &argv))) return rc;
  if ((rc = tsim_run_load(&args))) return fast_mpi_fail(rc);
  /* The host link lives on rank 0 (board 0's West side); the other ranks
     reach it through the inter-board links. */
  if (fast_mpi.rank == 0 && (rc = tsim_hostlink_start(&args))) return fast_mpi_fail(rc);
  FastRun r;
  if (fast_init(&r, args.profile_full)) return fast_mpi_fail(TSIM_EXIT_INPUT);
  r.hostlink = args.hostlink != NULL && fast_mpi.rank == 0;
  r.quantum = fast_quantum();
  if (r.quantum == ~0u) return fast_mpi_fail(TSIM_EXIT_USAGE);
  /* Every rank finds the same split error: they end together, as MPI_Abort
     could lose rank 0's message on its way through mpirun. */
  if ((rc = fast_mpi_split(&r))) return fast_mpi_finish(rc);
  if (args.pc_profile && (rc = fast_pcprof_start(&r, args.pc_profile))) {
    fast_free(&r);
    return fast_mpi_fail(rc);
  }
  double start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID), wall = clock_seconds(CLOCK_MONOTONIC);
  if (fast_mpi.on) run_windowed(&r, &args);
  else run(&r, &args);
  double secs = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
  wall = clock_seconds(CLOCK_MONOTONIC) - wall;
  clocked_cycle = r.cycle;
  fast_final(&r);
  int prof_lost = args.pc_profile && fast_pcprof_write(&r, args.pc_profile, args.config, args.elf, args.preload,
                                                       fast_mpi.rank, fast_mpi.ranks);
  unsigned long long cycles = r.cycle;
  fast_free(&r);
  fast_link_free();
  tsim_hostlink_finish();
  fast_mpi_gather(&secs);  /* every rank's statistics to rank 0 */
  if (fast_mpi.rank) return fast_mpi_finish(0);
  if (fast_mpi.on && !args.quiet)
    fprintf(stderr, "tsim: mpi: wall %.2f s, host CPU %.2f s over %d rank%s\n", wall, secs, fast_mpi.ranks,
            fast_mpi.ranks == 1 ? "" : "s");
  rc = tsim_run_finish(cycles, secs);
  return fast_mpi_finish(rc == 0 && prof_lost ? TSIM_EXIT_OUTPUT : rc);  /* the run ended well, its profile is lost */
}
