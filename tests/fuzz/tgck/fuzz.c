/* tests/fuzz/tgck: task-graph checkpoints (taskgraph/tg.c tg_restore_mem),
 * restored into two graphs: the worked example (taskgraph/tg_example.h, 20
 * numbers, edges of capacity 2: the graph the stop*.tgck corpus was written
 * from, and poets30.tgck, read back from a tg_poets run stopped after 30
 * firings) and the counted-port example (taskgraph/tg_merge.h, 3 sources of 2
 * into a port counted 3: the merge*.tgck corpus, version 2 checkpoints with
 * counted ports). Whatever the bytes, the answer is 0 or -1 with a message;
 * on -1 nothing changed (the graph still checkpoints as a fresh one); on 0
 * the graph checkpoints to the same bytes and runs (a bounded number of
 * firings) without a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg.h"
#include "tg_example.h"
#include "tg_merge.h"

static void one(tg_graph *g, tg_graph *fresh, const uint8_t *data, size_t size) {
  if (!g || !fresh) abort();
  size_t len0, len1;
  uint8_t *before = tg_checkpoint_mem(fresh, &len0);
  int r = tg_restore_mem(g, data, size, "fuzz");
  if (r != 0 && r != -1) abort();
  uint8_t *after = tg_checkpoint_mem(g, &len1);
  if (!before || !after) abort();
  if (r == -1 && (!tg_error(g)[0] || len0 != len1 || memcmp(before, after, len0))) abort();
  if (r == 0) {
    if (len1 != size || memcmp(after, data, size)) abort();
    int rr = tg_run(g, 2000);
    if (rr < -1 || rr > 1) abort();
  }
  free(before), free(after);
  tg_graph_free(g), tg_graph_free(fresh);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t result = 0;
  tgm_host host, host2;
  one(tg_example(20, 2, &result), tg_example(20, 2, &result), data, size);
  one(tg_merge(3, 2, 3, &host), tg_merge(3, 2, 3, &host2), data, size);
  return 0;
}
