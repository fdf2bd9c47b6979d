// pipeline.h: the streaming pipeline app (issue 20 item 3) on the stream
// scheduler (stream/stream.h): source -> filter -> enum1 -> enum2 -> work
// -> agg2 -> agg1 -> sink, with nested regions: enum1 heads region 1
// (enum2, work, agg2, agg1), enum2 heads region 2 (work, agg2), inside it.
// Each enumerate has a parent buffer that blocks it when full; the
// aggregate closing its region releases the parent. docs/stream.md.
#ifndef PIPELINE_H
#define PIPELINE_H

#include <stdint.h>
#include "stream.h"

enum { PL_SRC, PL_FILTER, PL_ENUM1, PL_ENUM2, PL_WORK, PL_AGG2, PL_AGG1, PL_SINK, PL_NODES };
enum { PL_TAG_END1 = 1, PL_TAG_END2 = 2 };

typedef struct {
  uint32_t items;   // source items
  uint32_t seed;    // input values
  uint32_t qcap;    // data queue capacity (raised to each queue's minimum; 0: the minimum)
  uint32_t scap;    // signal queue capacity (at least STREAM_SIGNALS_PER_RUN)
  uint32_t pb1, pb2;// parent buffers of enum1 and enum2 (at least 1)
} pipeline_cfg;

// n % d (n when d is 0, as RISC-V's remu) without a division: Tinsel has
// none, and the node functions' remainders by their parameters were most
// of their cycles through the library's 32-step routine.
uint32_t pipeline_mod(uint32_t n, uint32_t d);
// The node functions by kind (node i is of kind i).
extern const stream_fns pipeline_kinds[PL_NODES];
// Build the graph for partition `me`, node i on partition place[i] (NULL: all on 0).
void pipeline_build(stream_graph *g, const pipeline_cfg *cfg, const uint8_t *place, uint32_t me);
// What the sink saw (its node's state): items and a checksum of their sequence.
uint32_t pipeline_out_count(const stream_graph *g);
uint32_t pipeline_out_hash(const stream_graph *g);
// The same output computed directly by nested loops, no scheduler.
void pipeline_reference(const pipeline_cfg *cfg, uint32_t *count, uint32_t *hash);

// The verdict on a finished run over partitions gp[0..parts) (node i on
// place[i]): the sink's output against the reference, items lost, node
// function errors, nodes not drained (active, blocked or with input left),
// edges that ever had more items and signals in flight or unsent than
// their consumer's queues hold (over), and the largest such count.
typedef struct {
  uint32_t out, hash, want_out, want_hash;
  uint32_t lost, errors, left, over, edge_hw, edge_cap;
  int ok;
} pipeline_verdict;
void pipeline_judge(const stream_graph *const *gp, uint32_t parts, const uint8_t *place, const pipeline_cfg *cfg,
                    pipeline_verdict *v);

#endif
