/* tests/fuzz/tgck: task-graph checkpoints (taskgraph/tg.c tg_restore_mem),
 * restored into the worked example (taskgraph/tg_example.h, 20 numbers,
 * edges of capacity 2: the graph the corpus was written from). Whatever the
 * bytes, the answer is 0 or -1 with a message; on -1 nothing changed (the
 * graph still checkpoints as a fresh one); on 0 the graph checkpoints to the
 * same bytes and runs (a bounded number of firings) without a crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tg.h"
#include "tg_example.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t result = 0;
  tg_graph *g = tg_example(20, 2, &result), *fresh = tg_example(20, 2, &result);
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
  return 0;
}
