// stream_report.c: one line per node of a partition: firings, runs, items
// and signals in and out, blocks, completed flushes, queue high-water
// marks. printf only (the firmware's formatter has no %f): host and Tinsel.
#include <stdio.h>
#include "stream_report.h"

void stream_report_header(void) {
  printf("%-8s %3s %6s %7s %8s %7s %8s %7s %6s %6s %5s %5s %5s\n", "node", "reg", "fires", "runs", "items_in",
         "sigs_in", "items_out", "sigs_out", "blocks", "flush", "q_hw", "s_hw", "out_hw");
}

void stream_report(const stream_graph *g) {
  for (uint32_t i = 0; i < g->nnodes; i++) {
    if (g->place[i] != g->me) continue;
    const stream_node *n = &g->nodes[i];
    uint32_t out_hw = 0;
    for (uint32_t k = 0; k < n->nout; k++)
      if (g->place[n->out[k]] != g->me && g->proxy[n->out[k]].hw > out_hw) out_hw = g->proxy[n->out[k]].hw;
    printf("%-8s %3u %6u %7u %8u %7u %9u %8u %6u %6u %5u %5u %6u\n", n->name, (unsigned)n->region,
           (unsigned)n->st.firings, (unsigned)n->st.runs, (unsigned)n->st.items_in, (unsigned)n->st.sigs_in,
           (unsigned)n->st.items_out, (unsigned)n->st.sigs_out, (unsigned)n->st.blocks, (unsigned)n->st.flushes,
           (unsigned)n->in.hw, (unsigned)n->in.shw, (unsigned)out_hw);
  }
}
