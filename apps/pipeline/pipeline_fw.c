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
  for (uint32_t i = 0; i < n; i++) ssrun_field(" ", ((const uint32_t *)p)[i]);
}

int main(void) {
  stream_ss_image *img = tinselHeapBase();
  ss_thread t;
  stream_graph *g = &img->state.g;
  uint32_t has = img->hdr.num_devices;
  uint32_t w[4] = {g->me, tinselId(), has && stream_ss_bind(img, pipeline_kinds, PL_NODES)};
  uint32_t c0 = tinselCycleCount();
  if (!w[2]) w[2] = (uint32_t)ss_run(&t, &img->hdr);
  w[3] = tinselCycleCount() - c0;
  if (!has) return 0;
  // Lines under 128 characters (tsim passes a thread's output on in lines of
  // at most 128): "pl: t" part, thread id, bad image, cycles in ss_run,
  // lost, errors; "pl: s" part, ss_stats (8 words); per node of the
  // partition "pl: n" node, its region..nout bytes (2 words), stream_stats
  // (9); "pl: q" node, its queue's counts (cap, head, n, scap, shead, sn,
  // since_sig, hw, shw); "pl: u" node, user[0..1], the in-flight high-water
  // mark of each output edge.
  ssrun_say("pl: t"), words(w, 4), words(&g->lost, 2), ssrun_say("\n");
  ssrun_say("pl: s"), words(w, 1), words(&img->hdr.stats, 8), ssrun_say("\n");
  for (uint32_t i = 0; i < g->nnodes && i < STREAM_MAX_NODES; i++) {
    const stream_node *n = &g->nodes[i];
    if (g->place[i] != g->me) continue;
    ssrun_field("pl: n ", i), words(&n->region, 2), words(&n->st, 9), ssrun_say("\n");
    ssrun_field("pl: q ", i), words(&n->in, 9), ssrun_say("\n");
    ssrun_field("pl: u ", i), words(n->user, 2);
    for (uint32_t k = 0; k < n->nout; k++) ssrun_field(" ", g->proxy[n->out[k]].hw);
    ssrun_say("\n");
  }
  // Let the debug link take the last bytes before the thread ends.
  for (uint32_t c = tinselCycleCount(); tinselCycleCount() - c < 100000u;) {}
  return 0;
}
