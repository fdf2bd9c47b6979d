// pipeline_fw.c: the pipeline's thread program on Tinsel (tsim --all-threads;
// pipeline_tinsel.c is its host). The host built every thread's image
// (graph, queues and softswitch tables: pipeline_build, stream_ss_build)
// and preloaded it at tinselHeapBase(); a thread with a partition binds its
// nodes to their functions (stream_ss_bind), every thread runs the
// softswitch until the idle barrier says all are done
// (SS_FLAG_EXIT_ON_IDLE), and each partition thread reports its nodes'
// statistics as raw words on the debug link, which the host formats
// (printf's formatting would not fit the instruction memory):
// ("pl: t" and "pl: n" lines, below; pipeline_tinsel.c reads them).
// One image for every node kind, with the softswitch built SS_OP2=0
// (stream/rules.mk; its size: docs/stream.md "Firmware size").
#include "pipeline.h"
#include "ss_stream.h"
#include "ssrun_fw.h"

// N words from P (a struct of uint32_t fields), each as " %x".
static void words(const void *p, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) putchar(' '), puthex(((const uint32_t *)p)[i]);
}

// One report line: "pl: K ID", the words A[0..NA), B[0..NB) (one function
// for every line: each call site costs a few instructions of code).
static void line(uint32_t kind, uint32_t id, const void *a, uint32_t na, const void *b, uint32_t nb) {
  ssrun_say("pl: ");
  putchar((int)kind);
  words(&id, 1), words(a, na), words(b, nb);
  putchar('\n');
}

int main(void) {
  stream_ss_image *img = tinselHeapBase();
  ss_thread t;
  stream_graph *g = &img->state.g;
  uint32_t has = img->hdr.num_devices;
  uint32_t w[3] = {tinselId(), has && stream_ss_bind(img, pipeline_kinds, PL_NODES)};
  uint32_t c0 = tinselCycleCount();
  if (!w[1]) w[1] = (uint32_t)ss_run(&t, &img->hdr);
  w[2] = tinselCycleCount() - c0;
  if (!has) return 0;
  // Lines under 128 characters (tsim passes a thread's output on in lines of
  // at most 128): "pl: t" part, thread id, bad image, cycles in ss_run,
  // lost, errors; "pl: s" part, ss_stats (8 words); per node of the
  // partition "pl: n" node, its region..nout bytes (2 words), stream_stats
  // (9); "pl: q" node, its queue's counts (cap, head, n, scap, shead, sn,
  // since_sig, hw, shw); "pl: u" node, user[0..1], the in-flight high-water
  // mark of each output edge.
  line('t', g->me, w, 3, &g->lost, 2);
  line('s', g->me, &img->hdr.stats, 8, 0, 0);
  for (uint32_t i = 0; i < g->nnodes && i < STREAM_MAX_NODES; i++) {
    const stream_node *n = &g->nodes[i];
    if (g->place[i] != g->me) continue;
    uint32_t hw[STREAM_MAX_OUT];
    for (uint32_t k = 0; k < n->nout && k < STREAM_MAX_OUT; k++) hw[k] = g->proxy[n->out[k]].hw;
    line('n', i, &n->region, 2, &n->st, 9);
    line('q', i, &n->in, 9, 0, 0);
    line('u', i, n->user, 2, hw, n->nout);
  }
  // Let the debug link take the last bytes before the thread ends.
  for (uint32_t c = tinselCycleCount(); tinselCycleCount() - c < 100000u;) {}
  return 0;
}
