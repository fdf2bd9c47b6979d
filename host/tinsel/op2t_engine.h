/*
 * op2t_engine.h: what the tinsel runtime hands an execution engine for one
 * invocation, and the engine interface.
 *
 * The runtime (invoke.c) binds the generated tables to the call: devices
 * per involved type with their props and state, the edges the maps give
 * (fan-outs per output pin), the begin payload, and a controller that
 * takes the end messages. An engine runs the invocation to completion. The
 * functional engine (engine_functional.c) runs the generated handlers on
 * the host; a HostLink engine will load the same graph onto Tinsel.
 */
#ifndef OP2T_ENGINE_H
#define OP2T_ENGINE_H

#include <stdint.h>

#include "op_tinsel.h"
#include "ss_tree.h"

/* The devices of one type: element e's props and state. */
typedef struct {
  op_set set;
  int n;
  int props_bytes, state_bytes;
  char *props, *state;
} op2t_devs;

/* One edge: the receiving device and its input pin. */
typedef struct {
  int dev;
  uint8_t type, pin;
  uint8_t slot;          /* edge property `index` of a vector arg's slot */
  uint8_t has_props;
} op2t_edge;

enum { OP2T_EDGE_READ, OP2T_EDGE_WRITE };

/* Where the messages of one output pin of one type go, per device:
 * edges[start[d] .. start[d+1]). */
typedef struct {
  int type, pin, kind;   /* kind: OP2T_EDGE_* */
  int *start;
  op2t_edge *edges;
} op2t_fanout;

/* Messages of an invocation, as the seed counts them (one per device per
 * begin and end, one per edge) and as the protocol sends them (a read is
 * sent once and reaches every edge of its pin). Open to thread-granularity
 * begin/end (issue 6 item 3): add the counts beside these. */
typedef struct {
  long calls;
  long devices;          /* involved devices, summed over calls */
  long begin, end;       /* host -> device and device -> host */
  long read_sends, read_edges;
  long write_sends, write_edges;
  long handlers;         /* handler calls, rts excluded */
  long early;            /* messages that reached a device before its begin */
  /* Thread granularity (issue 6 item 3); begin and end above count what
   * went on the wire, so per device or per thread. */
  long threads;          /* involved threads, summed over calls */
  long mboxes;           /* their mailboxes: one begin multicast each */
  long tree_msgs;        /* ends between threads (edges of the tree) */
  long host_ends;        /* ends that reached the host */
} op2t_counts;

typedef struct op2t_run op2t_run;
struct op2t_run {
  const op2t_graph *graph;
  const op2t_invocation *inv;
  op2t_devs *devs;                  /* [graph->ntypes]; bound types have n > 0 */
  const void *graph_props;
  op2t_fanout *fanouts;
  int nfanouts;
  const uint8_t *const *part;       /* [ntypes] of the involved types: the devices that take part */
  const void *begin;                /* inv->begin_bytes */
  /* The controller: every end that reaches the host comes here, for DEVICES
   * devices (1 per device; a thread tree's root stands for all; type and
   * dev are then -1). */
  void (*on_end)(op2t_run *r, int type, int dev, long devices, const void *payload);
  void *controller;
  op2t_counts *counts;
  uint64_t seed;                    /* the engine's delivery order */
  /* Thread granularity: NULL thread means one begin and one end per device
   * (seed 000 on the wire). Otherwise thread[type][dev] is the device's
   * thread (threads.c), begins go one per thread and ends are folded per
   * thread and up a FANIN-ary tree of threads (ss_tree.h). */
  const uint32_t *const *thread;
  int threads_per_mbox;
  int fanin;
  ss_combine_fn combine;            /* this invocation's fold of end payloads */
  /* The resident instance (bindings.c): K indexes op2t_graph_info.invocations;
   * INSTANCE changes whenever the bound invocations, their edges, the
   * devices or the graph properties do (op2t_bound_invs gives every bound
   * invocation's edges). An engine that loads the instance reloads then. */
  int k;
  unsigned instance;
  /* Streamed (invoke.c): the call's issue order (from 1), the order of the
   * latest earlier call it must follow (0: none; it writes through a map a
   * dat that call uses), and how many may be under way at once. */
  unsigned order, after;
  int window;
};

typedef struct {
  const char *name;      /* OP2_TINSEL_ENGINE=name */
  const char *what;      /* one line, for the list of engines */
  /* Runs the invocation; returns 0, or prints why not and returns 1. */
  int (*run)(op2t_run *r);
  /* Streamed invocations (issue 18 item 2), or NULL: start sends R's begin
   * and returns at once; wait returns when R's end has come, giving the
   * ends of other started runs that come first to theirs. invoke.c starts
   * at most one call of an invocation at a time, and none while the
   * instance would change. flush (may be NULL): the devices' output so
   * far onto stdout, when nothing is under way. */
  int (*start)(op2t_run *r);
  int (*wait)(op2t_run *r);
  void (*flush)(void);
  /* Nonzero while the engine holds the runs it starts instead of sending
   * them (nothing is loaded yet: engine_hostlink.c); held runs wait for
   * the first load, which the first wait forces. invoke.c then keeps what
   * they see unchanged and ignores the window and the runs they must follow
   * (the engine keeps both when it sends them). NULL: never. */
  int (*holding)(void);
  /* Engines whose devices live elsewhere move a dat between the devices
   * and the runtime's mirror of their state (devs[type].state, the
   * functional engine's own): bytes [off, off + bytes) of every device of
   * TYPE, fetched into the mirror or pushed from it. Return 0, or print why
   * not and return 1. NULL: the mirror is the device state. */
  int (*fetch)(const op2t_devs *devs, int type, int off, int bytes);
  int (*push)(const op2t_devs *devs, int type, int off, int bytes);
  /* At op_exit (and never before a run): release the devices, report. May be NULL. */
  void (*finish)(void);
} op2t_engine;

/* engines.c: every engine, by name; NULL-terminated. */
extern const op2t_engine *const op2t_engines[];
extern const op2t_engine op2t_engine_functional;
extern const op2t_engine op2t_engine_sim;
extern const op2t_engine op2t_engine_hostlink;
extern const op2t_engine op2t_engine_softswitch; /* engine_softswitch.c: the real softswitch on the images, natively */

#endif
