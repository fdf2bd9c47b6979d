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
#include "tsim_mbox.h"
#include "tsim_run.h"

#include <stdio.h>
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

/* After clocking up to r->cycle: the quiet end or the watchdog, as tsim_main.cpp decides them. */
static void check_quiet(const FastRun *r, const Limits *l) {
  unsigned long long idle = r->cycle - l->last_active;
  if (l->quiet_end && idle >= l->quiet_end) tsim_stop = TSIM_STOP_QUIET;
  else if (l->watchdog && idle >= l->watchdog) tsim_stop = TSIM_STOP_DEADLOCK;
}

/* Every core asleep: jump to the next cycle in which something happens. */
static void skip_idle(FastRun *r, const Limits *l) {
  unsigned long long to = fast_next_event(r);
  if (l->quiet_end && l->last_active + l->quiet_end < to) to = l->last_active + l->quiet_end;
  if (l->watchdog && l->last_active + l->watchdog < to) to = l->last_active + l->watchdog;
  if (to > l->max_cycles) to = l->max_cycles;
  if (to <= r->cycle) return;
  r->cycle = to;
  check_quiet(r, l);
}

static void progress_line(unsigned long long cycle, unsigned long long since, double secs) {
  fprintf(stderr, "tsim: progress: cycle %llu, %.3f M cycles/s, %llu messages\n", cycle, (double)since / secs / 1e6,
          tsim_mbox_sent_so_far());
}

/* --hostlink (or a message moved on the West link): after a cycle, the link (tsim_hostlink.c) takes what left,
   offers what the host sent, and may wait for the host when the board was
   quiet (then the watchdog restarts), as tsim_main.cpp drives it. */
static void host_cycle(FastRun *r, TsimLinkIO *io, Limits *l, int active) {
  if (tsim_links_cycle(io, 1, r->cycle, active)) l->last_active = r->cycle;
  unsigned off = tsim_debuglink_links_off(0);  /* links a DebugLink QueryIn disabled */
  io->out_ready &= ~off;
  io->in_valid &= ~off;
}

static void run(FastRun *r, const TsimArgs *a) {
  Limits l = {0, tsim_run_quiet_cycles(), a->watchdog, a->max_cycles};
  TsimLinkIO io = {0};
  io.out_ready = 0xf;
  int progress = !a->quiet && (a->progress || isatty(STDERR_FILENO));
  double shown_at = clock_seconds(CLOCK_MONOTONIC);
  unsigned long long shown_cycle = 0;
  while (!tsim_stop && r->cycle < l.max_cycles) {
    int moved = fast_link_edge(r, &io);
    fast_cycle(r);
    r->cycle++;
    if (r->hostlink || moved) host_cycle(r, &io, &l, r->retired_now || moved);
    if (r->retired_now || moved) l.last_active = r->cycle;
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

int main(int argc, char **argv) {
  TsimArgs args;
  int rc = tsim_parse_args(argc, argv, &args);
  if (rc) return rc < 0 ? 0 : rc;
  if (args.trace) {
    fprintf(stderr, "tsim: the fast engine writes no waveform (--trace): use --engine cycle\n");
    return TSIM_EXIT_USAGE;
  }
  if (args.hostlink && !strcmp(args.config, "box")) {
    fprintf(stderr, "tsim: the fast engine serves the host link of one board, not a box (--hostlink with "
            "--config box): use --engine cycle\n");
    return TSIM_EXIT_USAGE;
  }
  if ((rc = tsim_run_load(&args))) return rc;
  if ((rc = tsim_hostlink_start(&args))) return rc;
  FastRun r;
  if (fast_init(&r, args.profile_full)) return TSIM_EXIT_INPUT;
  r.hostlink = args.hostlink != NULL;
  double start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
  run(&r, &args);
  double secs = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - start;
  clocked_cycle = r.cycle;
  fast_final(&r);
  unsigned long long cycles = r.cycle;
  fast_free(&r);
  tsim_hostlink_finish();
  return tsim_run_finish(cycles, secs);
}
