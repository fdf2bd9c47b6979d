/*
 * tg.h: a C API for task graphs (seeds/004, issue 20 item 1), and its host
 * reference scheduler (taskgraph/tg.c), the oracle for other back ends.
 * docs/taskgraph.md has the model, the run-state machine and an example.
 *
 * A graph holds nodes and edges. A node has input and output PORTS, each
 * with a type tag and an item size in bytes; an EDGE joins an output port
 * of one node to an input port of another, carries items of that size in
 * FIFO order, and holds at most CAPACITY of them (back-pressure: a node
 * that would push onto a full edge does not run).
 *
 * Node kinds:
 *   - FUNCTION: runs from start to end in one call. It fires when every
 *     input port has an item (one is consumed from each) and every output
 *     edge has room; it writes one item to every output port. A function
 *     with no inputs fires once.
 *   - DISCRETE COROUTINE: has an explicit computation state (STATE_BYTES of
 *     plain bytes: no pointers, so it can be checkpointed) and a run state:
 *       TG_INITIAL  not invoked yet;
 *       TG_ACTIVE   invoked and not complete: it may be resumed;
 *       TG_FINAL    complete: it may not be resumed, only invoked again;
 *       TG_INVALID  it was resumed in its final state (an error).
 *     An INVOCATION consumes one item from each input port (a coroutine
 *     with no inputs is invoked once), copies the initial computation
 *     state in, and runs the first step; each step may write an item to
 *     any of the output ports (the bits of *produced) and returns
 *     TG_ACTIVE (it yields: the scheduler resumes it later) or TG_FINAL.
 *     A step that returns TG_ACTIVE may also set TG_WANT_INPUT in *produced:
 *     it asks for more input (seed 004), so it is resumed only when every
 *     input port has an item again, and those items replace IN (its
 *     computation state stays): how a coroutine folds a stream.
 *     A step runs only when every output edge has room. From TG_FINAL the
 *     next invocation starts when new inputs are there.
 *
 * Counted input ports (seed 002, J3/14-104's counted events; issue 20's
 * multifrontal tree): an input port with COUNT = N >= 1 takes any number of
 * edges, and every item that arrives on any of them is an EVENT POST to
 * the port's event (firmware/softswitch/ss_counted.h, the one counted-event
 * primitive). The node holds an EVENT WAIT (UNTIL_COUNT = N) on it: armed
 * when the node is made and again each time a firing has taken the port's
 * items. The port is "there" for a firing when the wait has completed (N
 * posts); the firing takes exactly those N items, and IN[p] points to the N
 * items one after another, in the order they arrived (which a correct graph
 * must not depend on: posts are unordered). Posts never wait for room (an
 * edge's capacity is not used): a port keeps up to N posts beyond the N of
 * a completed wait, for the next firing. A post that would bring the count
 * beyond N while the wait is complete is J3/14-104's error, "the count
 * exceeds the threshold" (ss_event_wait would return SS_EVENT_OVER at the
 * node's next wait): the run stops with it. At the end of tg_sync_wait a
 * port whose posts no wait took (fewer than N, or left over after a firing)
 * is an error too: missing or excess posts. Output ports must have count 0.
 *
 * Errors (every call that can fail returns -1 and leaves a message naming
 * the nodes, ports and limits in tg_error):
 *   - an edge between incompatible ports (type tags or item sizes differ),
 *     a port out of range, a plain input port with a second edge, a count
 *     on an output port, a count over TG_MAX_COUNT or N items over
 *     TG_MAX_COUNT_BYTES;
 *   - a post beyond a counted port's threshold (above);
 *   - an edge that closes a cycle in a graph made with TG_DAG;
 *   - tg_resume on a node in its final state (the node becomes TG_INVALID);
 *   - a step that returns another run state than TG_ACTIVE or TG_FINAL;
 *   - tg_sync_wait when nothing can run but work is left (a deadlock: an
 *     edge or a counted port holds items no node takes, or an active
 *     coroutine waits for room), or an input port without an edge.
 *
 * Checkpoints: tg_checkpoint writes every node's run state, computation
 * state, the inputs of its current invocation and counters, and every
 * edge's and counted port's items, to a file; tg_restore reads one into a graph built the same
 * way (same nodes, ports, edges and sizes: checked), which then goes on as
 * if it had never stopped.
 */
#ifndef TG_H
#define TG_H

#include <stddef.h>
#include <stdint.h>

typedef struct tg_graph tg_graph;

typedef enum { TG_INITIAL = 0, TG_ACTIVE = 1, TG_FINAL = 2, TG_INVALID = 3 } tg_run_state;

typedef struct {
  uint32_t type;   /* compatibility tag: an edge needs the same tag at both ends */
  uint32_t bytes;  /* item size, 1 .. TG_MAX_ITEM_BYTES */
  uint32_t count;  /* input ports only: 0 a plain port; N >= 1 a COUNTED port (see the top) */
} tg_port;

#define TG_MAX_PORTS 31u         /* per direction, per node (one bit of *produced each) */
#define TG_MAX_ITEM_BYTES 4096u
#define TG_MAX_STATE_BYTES 65536u
#define TG_MAX_CAPACITY 1048576u /* items per edge */
#define TG_MAX_COUNT 1048576u    /* a counted port's threshold N */
#define TG_MAX_COUNT_BYTES 67108864u /* N times the item size */

/* graph flags */
#define TG_DAG 1u                /* refuse edges that close a cycle */

/* in *produced: the step asks for the next items of its input ports */
#define TG_WANT_INPUT 0x80000000u

/* A function node: IN[i] is the item of input port i, OUT[j] the item to
 * write on output port j. */
typedef void (*tg_function)(void *ctx, const void *const *in, void *const *out);
/* One step of a discrete coroutine: STATE its computation state, IN the
 * items of the current invocation, OUT a slot per output port; set bit j of
 * *PRODUCED for each OUT[j] written. Returns TG_ACTIVE or TG_FINAL. */
typedef tg_run_state (*tg_coroutine)(void *ctx, void *state, const void *const *in, void *const *out,
                                     uint32_t *produced);

tg_graph *tg_graph_new(unsigned flags);
void tg_graph_free(tg_graph *g);
const char *tg_error(const tg_graph *g);

/* Nodes: their index (0, 1, ...), or -1. NAME is copied (for messages). */
int tg_add_function(tg_graph *g, const char *name, tg_function fn, void *ctx, uint32_t nin, const tg_port *in,
                    uint32_t nout, const tg_port *out);
int tg_add_coroutine(tg_graph *g, const char *name, tg_coroutine co, void *ctx, uint32_t nin, const tg_port *in,
                     uint32_t nout, const tg_port *out, uint32_t state_bytes, const void *initial_state);
/* An edge from output port FROM_PORT of FROM to input port TO_PORT of TO,
 * holding at most CAPACITY items: its index, or -1. */
int tg_add_edge(tg_graph *g, int from, uint32_t from_port, int to, uint32_t to_port, uint32_t capacity);

/* Runs the graph until nothing can run: 0 when everything completed (no
 * coroutine active, every edge empty), else -1 (tg_error says why). */
int tg_sync_wait(tg_graph *g);
/* The same, stopping after at most MAX_FIRINGS firings (invocations,
 * resumptions, function calls): 1 if work is left, 0 done, -1 error. */
int tg_run(tg_graph *g, uint64_t max_firings);
/* Scheduling order among nodes that can run: 0 (default) round robin by
 * node index; else a seeded random choice. The results of a correct graph
 * do not depend on it. */
void tg_set_seed(tg_graph *g, uint64_t seed);

/* Resumes coroutine NODE by hand (one step, outside the scheduler): its new
 * run state, or -1: not a coroutine, not invoked, no room on its outputs,
 * or in its final state (it becomes TG_INVALID). */
int tg_resume(tg_graph *g, int node);

tg_run_state tg_node_run_state(const tg_graph *g, int node);
const void *tg_node_state(const tg_graph *g, int node);   /* coroutine computation state */
uint64_t tg_node_firings(const tg_graph *g, int node);
uint32_t tg_edge_items(const tg_graph *g, int edge);
uint64_t tg_firings(const tg_graph *g);

/* What a graph holds, for back ends (tg_poets.c). */
typedef struct {
  const char *name;
  int coroutine;
  tg_function fn;
  tg_coroutine co;
  void *ctx;
  uint32_t nin, nout;
  const tg_port *in, *out;
  uint32_t state_bytes;
  const void *initial_state;
  uint64_t invocations;
} tg_node_info;
typedef struct {
  int from, to;
  uint32_t from_port, to_port, capacity;
} tg_edge_info;
/* A back end's state, loaded into a graph built the same way, so that
 * tg_checkpoint writes it (tg_poets --checkpoint: a POETS run read back).
 * tg_node_load sets a node's run state, flags (1: a function ran; 2: an
 * active coroutine with inputs waits for them), firings, invocations,
 * computation state (state_bytes) and its current invocation's inputs (one
 * item per input port, NULL: zeros); tg_edge_load sets an edge's ITEMS
 * items, the oldest first. Plain ports only. 0, or -1 with tg_error. */
int tg_node_load(tg_graph *g, int node, tg_run_state run, uint32_t flags, uint64_t firings, uint64_t invocations,
                 const void *state, const void *const *inputs);
int tg_edge_load(tg_graph *g, int edge, uint32_t items, const void *data);
/* The other way, for a back end that resumes a restored graph on its own
 * machine (tg_poets --resume): a node's flags as tg_node_load takes them,
 * its current invocation's input on input port PORT, and an edge's
 * tg_edge_items items, the oldest first, copied to DATA. Plain ports. */
uint32_t tg_node_flags(const tg_graph *g, int node);
const void *tg_node_input(const tg_graph *g, int node, uint32_t port);
void tg_edge_read(const tg_graph *g, int edge, void *data);
uint32_t tg_num_nodes(const tg_graph *g);
uint32_t tg_num_edges(const tg_graph *g);
void tg_node_describe(const tg_graph *g, int node, tg_node_info *info);
void tg_edge_describe(const tg_graph *g, int edge, tg_edge_info *info);

/* Checkpoint and restore (see the top): 0, or -1 with tg_error. */
int tg_checkpoint(const tg_graph *g, const char *path);
int tg_restore(tg_graph *g, const char *path);
/* The same on memory, for tests and fuzzing: tg_checkpoint_mem returns a
 * malloc'd buffer of *len bytes (NULL on failure). */
uint8_t *tg_checkpoint_mem(const tg_graph *g, size_t *len);
int tg_restore_mem(tg_graph *g, const uint8_t *buf, size_t len, const char *name);

#endif
