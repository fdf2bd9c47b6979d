// stream.h: MERCATOR's scheduling protocol (seed 001) for streaming
// dataflow graphs, in portable C11 with no library calls, so the same code
// runs in the host oracle, the native unit tests and the Tinsel firmware
// (docs/stream.md describes the model and its mapping to Tinsel).
//
// A graph is at most STREAM_MAX_NODES nodes; every node but the source has
// one input (a data queue and a signal queue) and up to STREAM_MAX_OUT
// successors. The graph is split into partitions (one per Tinsel thread);
// every partition holds the whole description (static, small) but only
// its own nodes' queues are used. An edge whose producer and consumer sit
// in different partitions is a proxy on the producer's side (credit counts
// and an outbox of entries to send) and the real queue on the consumer's.
//
// The protocol, rule by rule (the seed's words in docs/stream.md):
//  - firing: a node fires only if it is ACTIVE, not BLOCKED and has no
//    ACTIVE child (a remote child counts as active while the producer's view
//    of its queue is FULL);
//  - a firing is a series of runs; one run consumes up to `width` items
//    (fewer only up to a signal's credit or when flushing), then at most
//    one signal whose credit has reached 0; the firing ends when the node is
//    inactive (its queues EMPTY), a child became active or it is BLOCKED;
//  - FULL (data): free space < the producer's max_out (output of one run);
//    FULL (signals): free space < MAX_SIGNALS_PER_VEC + MAX_SIGNALS_PER_SIG;
//    EMPTY (data): < width items, or 0 items when flushing; EMPTY (signals): 0;
//  - an inactive node becomes active when its queue becomes FULL or an
//    upstream node flushes it;
//  - a signal's credit is the number of items ahead of it in the data queue
//    (since the previous signal); a firing that stops with credit left
//    stores it back in the head signal;
//  - regions: a node's `region` is the highest-numbered region containing
//    it; a flush of region R (started by R's head, `heads` = R) reaches
//    successors with region >= R; a node's flush status is the lowest
//    region whose flush is active for it (STREAM_NO_FLUSH when none); it is
//    flushing iff status <= region; completing a flush passes the status on
//    and clears it;
//  - blocking: a node (an enumerate with a full parent buffer) blocks,
//    flushes its region so the open parents drain, and the buffer's release
//    unblocks it (locally at once, remotely by a RELEASE message).
#ifndef STREAM_H
#define STREAM_H

#include <stdint.h>

#define STREAM_MAX_SIGNALS_PER_VEC 2u
#define STREAM_MAX_SIGNALS_PER_SIG 1u
// Signals one run can write: one run's worth of data, then one signal.
#define STREAM_SIGNALS_PER_RUN (STREAM_MAX_SIGNALS_PER_VEC + STREAM_MAX_SIGNALS_PER_SIG)
#define STREAM_NO_FLUSH 0xffu

#define STREAM_MAX_NODES 16u
#define STREAM_MAX_OUT   2u
#define STREAM_MAX_WIDTH 16u
#define STREAM_QCAP      64u   // most data items a queue holds
#define STREAM_SCAP      16u   // most signals a queue holds
#define STREAM_OUTBOX    (STREAM_QCAP + STREAM_SCAP + 4u)
#define STREAM_MAX_PARTS 64u   // partitions (threads)
#define STREAM_NONE      0xffu

// Messages between partitions: 14 words (56 bytes, the softswitch payload).
#define STREAM_MSG_WORDS   14u
#define STREAM_MSG_ENTRIES 12u
enum { STREAM_MSG_DATA = 1, STREAM_MSG_CREDIT = 2, STREAM_MSG_RELEASE = 3 };
enum { STREAM_E_ITEM = 0, STREAM_E_SIG = 1, STREAM_E_FLUSH = 2 };

typedef struct {
  uint32_t tag, arg;       // tag < 256, arg < 2^24 (one word on the wire)
  uint32_t credit;         // items ahead of it since the previous signal
} stream_signal;

typedef struct {
  uint32_t cap, head, n;   // data ring
  uint32_t scap, shead, sn;// signal ring
  uint32_t since_sig;      // items pushed since the last signal was pushed
  uint32_t hw, shw;        // high-water marks (items, signals)
  uint32_t items[STREAM_QCAP];
  stream_signal sigs[STREAM_SCAP];
} stream_queue;

// The producer's side of an edge into another partition.
typedef struct {
  uint32_t sent_items, sent_sigs;   // cumulative, entries put in the outbox
  uint32_t freed_items, freed_sigs; // cumulative, as the consumer last reported
  uint32_t ob_head, ob_n;           // outbox ring of entries, sent in order
  uint8_t ob_kind[STREAM_OUTBOX];
  uint32_t ob_word[STREAM_OUTBOX];
  uint32_t hw;                      // most entries in use (in flight or unsent)
} stream_proxy;

typedef struct stream_graph stream_graph;
typedef struct stream_node stream_node;
// Node function: process `count` items (<= width), return how many it
// consumed (0 with the node BLOCKED). The source is called with count 0
// and generates one run's items.
typedef uint32_t (*stream_fn)(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count);
// Signal handler: consumes one signal.
typedef void (*stream_sig_fn)(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg);
typedef struct {
  stream_fn fn;
  stream_sig_fn sig;
} stream_fns;

typedef struct {
  uint32_t firings, runs;           // firings, and runs in them
  uint32_t items_in, sigs_in;       // consumed
  uint32_t items_out, sigs_out;     // produced
  uint32_t blocks, flushes;         // firings ended BLOCKED; flushes completed
  uint32_t activations;             // inactive -> active
} stream_stats;

struct stream_node {
  char name[8];            // NUL-terminated (cut to 7 characters)
  uint8_t region;          // highest-numbered region containing the node
  uint8_t heads;           // region this node heads (flushes it starts), or STREAM_NONE
  uint8_t flush;           // flush status: lowest active flush region, or STREAM_NO_FLUSH
  uint8_t active, blocked, source;
  uint8_t producer;        // the node feeding its input, or STREAM_NONE (the source)
  uint8_t nout;
  uint8_t out[STREAM_MAX_OUT];
  uint8_t releases;        // the enumerate whose parent buffer this node releases, or STREAM_NONE
  uint8_t kind;            // its functions: g->fns[i] is set from a program's table by this index
  uint32_t width;          // inputSizeHint: items per run when not flushing
  uint32_t max_out;        // most items one run writes to each successor
  uint32_t pb_cap, pb_used;// parent buffer (enumerate): open parents
  uint32_t run_out;        // items written in the current run (checked against max_out)
  uint32_t user[8];        // the node function's own state
  stream_stats st;
  stream_queue in;         // its input (used in the node's own partition)
};

typedef struct {
  uint8_t kind;            // STREAM_MSG_*
  uint8_t node;            // DATA and CREDIT: the consumer; RELEASE: the enumerate
  uint8_t dest;            // partition the messages go to
} stream_pin;

struct stream_graph {
  uint32_t nnodes;
  uint32_t me;                      // this partition
  uint8_t place[STREAM_MAX_NODES];  // partition of each node
  uint32_t freed_items[STREAM_MAX_NODES];  // by local consumer with a remote producer: cumulative
  uint32_t freed_sigs[STREAM_MAX_NODES];
  uint32_t credit_sent[STREAM_MAX_NODES];  // freed_items + freed_sigs when last reported
  uint32_t released[STREAM_MAX_NODES];     // by remote enumerate: cumulative releases to report
  uint32_t release_sent[STREAM_MAX_NODES];
  uint32_t release_seen[STREAM_MAX_NODES]; // by local enumerate: cumulative releases received
  uint32_t lost;                    // items or signals that found no room (never, if the protocol holds)
  uint32_t errors;                  // protocol misuse by a node function (over max_out, no progress)
  uint32_t firings;
  uint32_t pad_;
  // The large arrays after the counters, which then lie within a load's
  // 12-bit offset of the graph's address (less code on rv32).
  stream_node nodes[STREAM_MAX_NODES];
  stream_proxy proxy[STREAM_MAX_NODES];    // by consumer node (remote consumers of local producers)
  // The node functions, by node: last, so that everything above is free of
  // pointers and laid out alike on the host and on rv32 (STREAM_WIRE_BYTES):
  // the host builds a partition's graph and the thread fills these in
  // (stream_ss_bind).
  stream_fns fns[STREAM_MAX_NODES];
};
// The bytes of a graph that the host writes and a thread loads: all but fns,
// checked to lie alike on the host and on rv32.
#define STREAM_WIRE_BYTES 17064u
_Static_assert(__builtin_offsetof(stream_graph, fns) == STREAM_WIRE_BYTES, "stream_graph: one layout on the host and rv32");

// ---------------------------------------------------------------- building
// stream_init: an empty graph for partition `me`. stream_add: a node (the
// first one added with producer STREAM_NONE is a source); returns its index.
void stream_init(stream_graph *g, uint32_t me);
uint32_t stream_add(stream_graph *g, const char *name, uint32_t producer, uint32_t region,
                    uint32_t heads, uint32_t width, uint32_t max_out, stream_fn fn, stream_sig_fn sig,
                    uint32_t qcap, uint32_t scap);
// Check the graph: queue capacities large enough for the protocol (cap >=
// producer's max_out + width - 1, so an inactive child is never FULL;
// scap >= STREAM_SIGNALS_PER_RUN), widths and fan-out within the limits, a
// head's region below the region it heads. Returns 0, or a static message.
const char *stream_check(const stream_graph *g);

// ------------------------------------------------------------- scheduling
// Fire fireable nodes of this partition until none is; returns firings.
uint32_t stream_schedule(stream_graph *g);
int stream_fireable(const stream_graph *g, uint32_t i);
// One firing of node i (precondition: fireable), for the unit tests.
void stream_fire(stream_graph *g, uint32_t i);
// FULL and EMPTY of node i's input queue.
int stream_full(const stream_graph *g, uint32_t i);
int stream_empty(const stream_graph *g, uint32_t i);

// ------------------------------------------------ for node functions
void stream_emit(stream_graph *g, stream_node *n, uint32_t out, uint32_t item);
void stream_emit_signal(stream_graph *g, stream_node *n, uint32_t out, uint32_t tag, uint32_t arg);
// Flush region R from node n: successors with region >= R take status
// min(status, R) and are activated.
void stream_flush_from(stream_graph *g, stream_node *n, uint32_t region);
// The source found the end of its input: flush its region, go inactive.
void stream_source_end(stream_graph *g, stream_node *n);
// Parent buffer: open a parent (1), or block the node and flush the region
// it heads (0). Release: one parent of enumerate e is done (from any
// partition); a blocked enumerate is unblocked (the buffer's call back).
int stream_pb_open(stream_graph *g, stream_node *n);
void stream_pb_release(stream_graph *g, uint32_t e);

// ------------------------------------------------- between partitions
// The pins partition g->me sends on (at most `max`); returns how many.
uint32_t stream_pins(const stream_graph *g, stream_pin *pins, uint32_t max);
int stream_pending(const stream_graph *g, const stream_pin *p);
// Fill one message for pin p (STREAM_MSG_WORDS words); 0 if nothing to send.
int stream_pack(stream_graph *g, const stream_pin *p, uint32_t *w);
// Apply one message that arrived at this partition.
void stream_apply(stream_graph *g, const uint32_t *w);

#endif
