// tsim_main.cpp: the Verilator driver of one configuration's model: load
// the program, clock the model until tohost, a halt, --max-cycles, the
// host closing the host link or (no tohost) every thread killed or idle,
// then report. Everything else is C (tsim_args.c, tsim_dpi.c). Built twice per
// configuration: without tracing (fast) and with --trace-fst (tsim-NAME-trace).
#include "Vtsim_top.h"
#include "Vtsim_top__Dpi.h"
#include "tsim_boards.h"
#include "tsim_debuglink.h"
#include "tsim_hostlink.h"
#include "tsim_links.h"
#include "tsim_mbox.h"
#include "tsim_progrouter.h"
#include "tsim_run.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <memory>
#include <unistd.h>
#include <vector>

// The cycle being clocked (also the models' `cycle` input), for the final
// blocks (DPI tsim_cycle, rtl_models/tsim_dpi.sv): a core's idle cycles are
// the cycles minus those that issued.
static uint64_t clocked_cycle;
unsigned long long tsim_cycle() { return clocked_cycle; }

// Host CPU seconds of this process: the honest per-host-core speed when
// other processes share the machine.
static double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// Wall-clock seconds: the progress line is paced by what the user sees.
static double wall_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// The progress line (stderr): cycles, speed since the last line, messages so far.
static void print_progress(uint64_t cycle, uint64_t cycles_since, double secs_since) {
  std::fprintf(stderr, "tsim: progress: cycle %llu, %.3f M cycles/s, %llu messages\n", (unsigned long long)cycle,
               (double)cycles_since / secs_since / 1e6, tsim_mbox_sent_so_far());
}

// Copy the link fields of the directions in SIDES (bits 1 << TSIM_LINK_*)
// from SRC to DST: what one link model decided for its sides.
static void take_sides(TsimLinkIO &dst, const TsimLinkIO &src, unsigned sides) {
  const unsigned lf = (1u << TinselLogMaxFlitsPerMsg) - 1;
  dst.in_valid = (dst.in_valid & ~sides) | (src.in_valid & sides);
  dst.out_ready = (dst.out_ready & ~sides) | (src.out_ready & sides);
  for (int d = 0; d < TSIM_LINKS; d++)
    if (sides >> d & 1) {
      unsigned f = lf << (d * TinselLogMaxFlitsPerMsg);
      dst.in_dest[d] = src.in_dest[d];
      dst.in_msg[d] = src.in_msg[d];
      dst.in_lens = (dst.in_lens & ~f) | (src.in_lens & f);
    }
}

int main(int argc, char **argv) {
  TsimArgs args;
  int rc = tsim_parse_args(argc, argv, &args);
  if (rc) return rc < 0 ? 0 : rc;
  if ((rc = tsim_args_no_pc_profile(&args))) return rc;  // the fast engine's alone
#if !VM_TRACE
  if (args.trace) {
    std::fprintf(stderr, "tsim: this model was built without tracing; use the dispatcher build/bin/tsim\n");
    return TSIM_EXIT_USAGE;
  }
#endif
  if ((rc = tsim_run_load(&args))) return rc;
  if ((rc = tsim_hostlink_start(&args))) return rc;

  // One model instance per board (a box: its workers), one class.
  auto ctx = std::make_unique<VerilatedContext>();
  const unsigned nb = tsim_boards();
  std::vector<std::unique_ptr<Vtsim_top>> tops;
  for (unsigned b = 0; b < nb; b++) {
    char name[32];
    std::snprintf(name, sizeof name, "board%u", b);
    tops.push_back(std::make_unique<Vtsim_top>(ctx.get(), name));
    tops[b]->board = b;
    tops[b]->board_xy = tsim_board_addr(b);
    tops[b]->idle_release = 0;
    tops[b]->idle_all_voted = 0;
    tops[b]->link_in_valid = 0;
    tops[b]->link_out_ready = 0xf;
  }
  // The boards' inter-board links (tsim_hostlink.c): the host on board 0's
  // West link; a message leaving through a link with nothing behind it
  // stops the run.
  std::vector<TsimLinkIO> io(nb), edge(nb);
  std::vector<unsigned> neighbours(nb);
  for (unsigned b = 0; b < nb; b++) neighbours[b] = tsim_links_neighbours(b);
  const bool host = args.hostlink != nullptr;
  // No tohost and no host: the run ends after this many quiet cycles.
  const uint64_t quiet_end = tsim_run_quiet_cycles();
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst;
  if (args.trace) {
    ctx->traceEverOn(true);
    fst = std::make_unique<VerilatedFstC>();
    tops[0]->trace(fst.get(), 99);  // board 0 only
    fst->open(args.trace);
  }
#define DUMP(t) \
  if (fst) fst->dump(t)
#else
#define DUMP(t)
#endif

  double start = cpu_seconds();
  const bool progress = !args.quiet && (args.progress || isatty(STDERR_FILENO));
  double shown_at = wall_seconds();
  uint64_t shown_cycle = 0;
  uint64_t cycle = 0, last_active = 0;
  for (auto &top : tops) {
    top->clk = 0;
    top->eval();
  }
  while (!tsim_stop && cycle < args.max_cycles) {
    unsigned moved = 0;
    for (unsigned b = 0; b < nb; b++) {
      Vtsim_top *top = tops[b].get();
      TsimLinkIO &l = io[b];
      // What moves on the links at this edge: valid && ready as they stand before it.
      l.in_taken = top->link_in_valid & top->link_in_ready;
      l.out_taken = top->link_out_valid & top->link_out_ready;
      if (l.out_taken) {
        for (int d = 0; d < TSIM_LINKS; d++) {
          l.out_dest[d] = top->link_out_dest[d];
          l.out_msg[d] = top->link_out_msg[d];
        }
        l.out_lens = top->link_out_len;
      }
      moved |= l.in_taken | l.out_taken;
      top->cycle = cycle;
      top->clk = 1;
      top->eval();
    }
    DUMP(2 * cycle + 1);
    // Idle detection across the boards (tinsel.md §6.4): every thread of
    // every board in tinselIdle and every message freed (the boards' and
    // routers' sent-minus-freed counts sum to zero); release for one cycle.
    bool idle = true, voted = true, active = false;
    long long inflight = 0;
    for (unsigned b = 0; b < nb; b++) {
      idle = idle && tops[b]->idle_local;
      voted = voted && tops[b]->vote_local;
      active = active || tops[b]->active;
      inflight += (int32_t)tops[b]->inflight_local + tsim_pr_inflight(b);
    }
    inflight += tsim_hostlink_inflight();
    for (auto &top : tops) {
      top->idle_release = idle && inflight == 0;
      top->idle_all_voted = voted;
      top->clk = 0;
      top->eval();
    }
    DUMP(2 * cycle + 2);
    cycle++;
    // Sides toward another board: tsim_links.c; the others (the host on
    // board 0's West, nothing elsewhere): tsim_hostlink.c.
    const bool between = tsim_links_in_flight() != 0;
    if (host || moved || between) {
      for (unsigned b = 0; b < nb; b++) {
        edge[b] = io[b];
        edge[b].in_taken &= ~neighbours[b];
        edge[b].out_taken &= ~neighbours[b];
      }
      // Quiet for the host link: nothing moved, also on the links between boards.
      if (tsim_links_cycle(edge.data(), nb, cycle, active || between)) last_active = cycle;  // waited for the host
      for (unsigned b = 0; b < nb; b++) {
        take_sides(io[b], edge[b], ~neighbours[b]);
        if (neighbours[b]) tsim_links_cycle_board(b, &io[b], cycle);
        // Links a DebugLink QueryIn disabled (sides of the box): nothing
        // goes out or comes in; the board router holds what waits for them.
        if (unsigned off = tsim_debuglink_links_off(b)) {
          io[b].out_ready &= ~off;
          io[b].in_valid &= ~off;
          if (tops[b]->link_out_valid & off) tsim_debuglink_held(b, tops[b]->link_out_valid & off);
        }
      }
      for (unsigned b = 0; b < nb; b++) {
        Vtsim_top *top = tops[b].get();
        top->link_in_valid = io[b].in_valid;
        for (int d = 0; d < TSIM_LINKS; d++) {
          top->link_in_dest[d] = io[b].in_dest[d];
          top->link_in_msg[d] = io[b].in_msg[d];
        }
        top->link_in_len = io[b].in_lens;
        top->link_out_ready = io[b].out_ready;
      }
    }
    // Watchdog: nothing retired and no message moved for --watchdog cycles.
    if (active || between) last_active = cycle;
    else if (quiet_end && cycle - last_active >= quiet_end) tsim_stop = TSIM_STOP_QUIET;
    else if (args.watchdog && cycle - last_active >= args.watchdog) tsim_stop = TSIM_STOP_DEADLOCK;
    // The clock is read every 4096 cycles (about 50 ms on the board model).
    if (progress && (cycle & 0xfff) == 0) {
      double now = wall_seconds();
      if (now - shown_at >= 1.0) {
        print_progress(cycle, cycle - shown_cycle, now - shown_at);
        shown_at = now;
        shown_cycle = cycle;
      }
    }
  }
  double secs = cpu_seconds() - start;
  clocked_cycle = cycle;  // the final blocks: idle = cycles - issue cycles
  for (auto &top : tops) top->final();
  tsim_hostlink_finish();
#if VM_TRACE
  if (fst) fst->close();
#endif
  return tsim_run_finish(cycle, secs);
}
