/* tests/fuzz/stream: the stream scheduler's messages between partitions
 * (stream/stream.c stream_apply), as a Tinsel thread receives them from
 * the network. Byte 0 picks the partition (one pipeline node per
 * partition, 8 partitions), bytes 1-4 the queue capacities and parent
 * buffers; the rest is a sequence of 56-byte messages, each applied and
 * followed by the partition's scheduler and by packing everything it
 * wants to send. Whatever the messages say, nothing may crash and every
 * queue stays within its capacity (lost items and errors are counted,
 * not fatal: a message can claim anything). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "stream.h"

static stream_graph g;

static void check_queues(void) {
  for (uint32_t i = 0; i < g.nnodes; i++) {
    const stream_queue *q = &g.nodes[i].in;
    if (q->n > q->cap || q->sn > q->scap || (q->cap && q->head >= q->cap) || (q->scap && q->shead >= q->scap)) abort();
    if (g.proxy[i].ob_n > STREAM_OUTBOX || g.proxy[i].ob_head >= STREAM_OUTBOX) abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 5) return 0;
  uint8_t place[PL_NODES];
  for (uint32_t i = 0; i < PL_NODES; i++) place[i] = (uint8_t)i;
  pipeline_cfg cfg = {1000, 1, data[1] % (STREAM_QCAP + 1), data[2] % (STREAM_SCAP + 1), 1 + data[3] % 8,
                      1 + data[4] % 8};
  pipeline_build(&g, &cfg, place, data[0] % PL_NODES);
  if (stream_check(&g)) abort();  /* pipeline_build raises every capacity to the protocol's minimum */
  stream_pin pins[16];
  uint32_t np = stream_pins(&g, pins, 16), w[STREAM_MSG_WORDS];
  stream_schedule(&g);
  for (size_t off = 5; off + 4 * STREAM_MSG_WORDS <= size; off += 4 * STREAM_MSG_WORDS) {
    memcpy(w, data + off, sizeof w);
    stream_apply(&g, w);
    stream_schedule(&g);
    check_queues();
    for (uint32_t k = 0; k < np; k++)
      while (stream_pack(&g, &pins[k], w)) {}
    check_queues();
  }
  return 0;
}
