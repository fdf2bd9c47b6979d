// pipeline_oracle.c: the host oracle: the whole pipeline graph in one
// process (every node in partition 0, the stream scheduler as is), its
// output checked against pipeline_reference (plain nested loops), and the
// per-node statistics. docs/stream.md.
//
//   pipeline_oracle [--items N] [--seed S] [--qcap Q] [--scap S] [--pb1 P] [--pb2 P] [--quiet] [--trace]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "pipeline_args.h"
#include "stream_report.h"

// --trace: stream_schedule's loop, one line per firing: the node, its
// input before -> after (items/signals), runs, and what ended the firing.
static uint32_t traced(stream_graph *g) {
  uint32_t fired = 0;
  for (;;) {
    uint32_t i = g->nnodes;
    while (i-- > 0)
      if (stream_fireable(g, i)) break;
    if (i >= g->nnodes) return fired;
    stream_node *n = &g->nodes[i];
    uint32_t items = n->in.n, sigs = n->in.sn, runs = n->st.runs, fl = n->flush;
    stream_fire(g, i);
    fired++;
    printf("fire %-6s in %2u/%u -> %2u/%u, %u runs, flush status %3u -> %3u: %s\n", n->name, (unsigned)items,
           (unsigned)sigs, (unsigned)n->in.n, (unsigned)n->in.sn, (unsigned)(n->st.runs - runs), (unsigned)fl, (unsigned)n->flush,
           n->blocked ? "BLOCKED" : !n->active ? "inactive" : "a child is active");
  }
}

int main(int argc, char **argv) {
  pipeline_cfg cfg;
  pipeline_opts o;
  if (pipeline_args(argc, argv, &cfg, &o, 0)) return 2;
  static stream_graph g;
  pipeline_build(&g, &cfg, NULL, 0);
  const char *bad = stream_check(&g);
  if (bad) { fprintf(stderr, "pipeline_oracle: %s\n", bad); return 2; }
  uint32_t fired = o.trace ? traced(&g) : stream_schedule(&g), want_n, want_h;
  pipeline_reference(&cfg, &want_n, &want_h);
  uint32_t n = pipeline_out_count(&g), h = pipeline_out_hash(&g);
  printf("pipeline: %u items in, %u out, hash 0x%08x\n", (unsigned)cfg.items, (unsigned)n, (unsigned)h);
  if (!o.quiet) {
    stream_report_header();
    stream_report(&g);
  }
  int ok = n == want_n && h == want_h && !g.lost && !g.errors;
  for (uint32_t i = 0; i < g.nnodes; i++)
    if (g.nodes[i].active || g.nodes[i].blocked || g.nodes[i].in.n || g.nodes[i].in.sn) ok = 0;
  printf("oracle: %u firings, lost %u, errors %u; reference %u out, hash 0x%08x: %s\n", (unsigned)fired,
         (unsigned)g.lost, (unsigned)g.errors, (unsigned)want_n, (unsigned)want_h, ok ? "agrees" : "DIFFERS");
  return ok ? 0 : 1;
}
