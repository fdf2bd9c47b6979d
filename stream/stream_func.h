// stream_func.h: the functional engine: the partitions of a graph in one
// process exchange their stream messages directly (stream_pack and
// stream_apply, no softswitch), through one FIFO per (sender, receiver)
// pair; each step picks at random (seeded) a pair's oldest message to
// deliver (then the receiver schedules) or a pin with something to send.
// Messages of one pair stay in order, as on Tinsel; pairs interleave.
#ifndef STREAM_FUNC_H
#define STREAM_FUNC_H

#include <stdint.h>
#include "stream.h"

#define STREAM_FUNC_PARTS 8u   // partitions at most
#define STREAM_FUNC_RING  8u   // messages in flight per pair at most (a sender waits)

typedef struct {
  uint64_t msgs;       // messages sent
  uint32_t pair_max;   // most in flight between one pair
  long steps;
} stream_func_stats;

// Run g[0..parts) (each built for its partition) until nothing is pending
// or in flight. Returns 0, or 1 when parts is out of range or the run
// did not end within its step limit (a livelock).
int stream_func_run(stream_graph *g, uint32_t parts, uint64_t seed, stream_func_stats *st);

#endif
