// pipeline_fw.c: the pipeline on Tinsel threads (the cycle models: tsim
// --config tile|board|box --all-threads). Every thread runs this main:
// the 8 threads of the placement below build their partition's thread
// image (graph and softswitch tables) at tinselHeapBase(), as the host
// would, the others an image with no device; all run the softswitch
// until the idle barrier says every thread is done (SS_FLAG_EXIT_ON_IDLE).
// Each partition thread then prints its nodes' statistics; the sink's
// thread computes pipeline_reference and prints the verdict. Every thread
// then kills itself, which ends the run. Compile-time parameters (the
// firmware has no command line): PL_PLACE (0 tile, 1 board, 2 box),
// PL_ITEMS, PL_SEED, PL_QCAP, PL_SCAP, PL_PB1, PL_PB2.
#include <stdio.h>
#include "pipeline.h"
#include "ss_stream.h"
#include "stream_report.h"
#include "tinsel.h"

#ifndef PL_PLACE
#define PL_PLACE 0
#endif
#ifndef PL_ITEMS
#define PL_ITEMS 300
#endif
#ifndef PL_SEED
#define PL_SEED 1
#endif
#ifndef PL_QCAP
#define PL_QCAP 32
#endif
#ifndef PL_SCAP
#define PL_SCAP 8
#endif
#ifndef PL_PB1
#define PL_PB1 4
#endif
#ifndef PL_PB2
#define PL_PB2 2
#endif

// Partition p's thread: tile: two per core, on all 4 cores of the tile;
// board: 8 mailboxes spread over the 4x4 mesh; box: boards (0,0), (1,0),
// (2,0) in turn (thread ids carry the board's X at bit 10, tinsel.md 2.4),
// so edges cross the boards' links.
static uint32_t part_addr(uint32_t p) {
#if PL_PLACE == 0
  return (p % 4u) * 16u + p / 4u;
#elif PL_PLACE == 1
  return ((p * 5u) % 16u) << 6 | ((p * 9u) % 64u);
#else
  return (p % 3u) << 10 | ((p * 5u) % 16u) << 6 | p;
#endif
}

int main(void) {
  uint32_t me = tinselId(), addr[PL_NODES], part = PL_NODES;
  for (uint32_t p = 0; p < PL_NODES; p++) {
    addr[p] = part_addr(p);
    if (addr[p] == me) part = p;
  }
  stream_ss_image *img = tinselHeapBase();
  ss_thread t;
  if (part == PL_NODES) {  // no node here: an image with no device, to vote in the idle barrier
    img->hdr = (ss_thread_image){.magic = SS_MAGIC, .version = SS_VERSION, .flags = SS_FLAG_EXIT_ON_IDLE,
                                 .image_bytes = sizeof img->hdr};
    ss_run(&t, &img->hdr);
    tinselKillThread();
  }
  if (part == PL_SRC) stream_report_header();  // the source's thread prints first, before the run
  uint32_t b0 = tinselCycleCount();
  uint8_t place[PL_NODES];
  for (uint32_t i = 0; i < PL_NODES; i++) place[i] = (uint8_t)i;  // one node per thread
  const pipeline_cfg cfg = {PL_ITEMS, PL_SEED, PL_QCAP, PL_SCAP, PL_PB1, PL_PB2};
  pipeline_build(&img->state.g, &cfg, place, part);
  uint32_t bad = stream_check(&img->state.g) != 0 || stream_ss_build(img, addr, SS_FLAG_EXIT_ON_IDLE);
  uint32_t c0 = tinselCycleCount(), build = c0 - b0;
  if (!bad) bad = (uint32_t)ss_run(&t, &img->hdr);
  uint32_t cycles = tinselCycleCount() - c0;
  const stream_graph *g = &img->state.g;
  const stream_node *n = &g->nodes[part];
  int drained = !n->active && !n->blocked && !n->in.n && !n->in.sn;
  if (bad || g->lost || g->errors || img->hdr.stats.errors || !drained)
    printf("pipeline: partition %u (%s): image %u, lost %u, errors %u, softswitch errors %u, drained %d: FAILED\n",
           (unsigned)part, n->name, (unsigned)bad, (unsigned)g->lost, (unsigned)g->errors,
           (unsigned)img->hdr.stats.errors, drained);
  stream_report(g);
  const ss_stats *st = &img->hdr.stats;
  printf("thread 0x%x (%s): %u cycles in ss_run, %u waiting; sent %u, received %u messages; %u handlers, %u idle "
         "barriers\n", (unsigned)me, n->name, (unsigned)cycles, (unsigned)st->idle_cycles, (unsigned)st->sent_remote,
         (unsigned)st->recv_remote, (unsigned)st->handler_calls, (unsigned)st->idle_barriers);
  if (part == PL_SINK) {
    uint32_t want_n, want_h;
    pipeline_reference(&cfg, &want_n, &want_h);
    int ok = pipeline_out_count(g) == want_n && pipeline_out_hash(g) == want_h;
    printf("pipeline: %u items in, %u out, hash 0x%08x\n", (unsigned)cfg.items, (unsigned)pipeline_out_count(g),
           (unsigned)pipeline_out_hash(g));
    printf("tinsel: 8 threads, sink thread 0x%x, %u cycles building its image, %u in ss_run, %u messages received; "
           "reference %u out, hash 0x%08x: %s\n", (unsigned)me, (unsigned)build, (unsigned)cycles, (unsigned)img->hdr.stats.recv_remote,
           (unsigned)want_n, (unsigned)want_h, ok ? "agrees" : "DIFFERS");
  }
  // Let the debug link take the last bytes before the thread dies (without
  // this pause tsim showed a line or two losing their last bytes).
  for (uint32_t c = tinselCycleCount(); tinselCycleCount() - c < 100000u;) {}
  tinselKillThread();
  for (;;) {}
}
