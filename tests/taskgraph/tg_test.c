// tg_test: taskgraph/tg.h and its reference scheduler. Prints one line per
// check ("ok NAME" or "FAIL NAME: why") and "N passed, N failed"; exits
// non-zero on any failure.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tg.h"
#include "tg_example.h"
#include "tg_merge.h"

static int passed, failed;
static void check(int ok, const char *name, const char *why) {
  printf("%s %s%s%s\n", ok ? "ok" : "FAIL", name, ok ? "" : ": ", ok ? "" : why);
  ok ? passed++ : failed++;
}

static int has(const tg_graph *g, const char *text) { return strstr(tg_error(g), text) != NULL; }

// The worked example, in order and in random orders, with edges of several capacities.
static void example_runs(void) {
  for (uint32_t n = 1; n <= 300; n = n * 3 + 2)
    for (uint32_t cap = 1; cap <= 4; cap += 3)
      for (uint64_t seed = 0; seed < 4; seed++) {
        uint32_t result = 0;
        tg_graph *g = tg_example(n, cap, &result);
        char name[128];
        snprintf(name, sizeof(name), "example: n %llu, capacity %u, order %llu", (unsigned long long)n, cap,
                 (unsigned long long)seed);
        tg_set_seed(g, seed);
        int r = tg_sync_wait(g);
        check(r == 0 && result == tg_example_expect(n) && tg_node_run_state(g, TGX_GEN) == TG_FINAL &&
                  tg_node_run_state(g, TGX_SUM) == TG_FINAL,
              name, tg_error(g));
        tg_graph_free(g);
      }
}

// Back-pressure: stepping one firing at a time, no edge ever holds more than its capacity.
static void back_pressure(void) {
  uint32_t result = 0;
  tg_graph *g = tg_example(50, 1, &result);
  tg_set_seed(g, 5);
  int over = 0, r;
  uint32_t most = 0;
  while ((r = tg_run(g, 1)) == 1)
    for (int e = 0; e < 3; e++) {
      over |= tg_edge_items(g, e) > 1;
      most = tg_edge_items(g, e) > most ? tg_edge_items(g, e) : most;
    }
  check(r == 0 && !over && most == 1 && result == tg_example_expect(50), "back-pressure: edges of capacity 1 hold at most 1",
        tg_error(g));
  tg_graph_free(g);
}

// The run-state machine of a discrete coroutine, and resuming by hand.
static void run_states(void) {
  uint32_t result = 0;
  tg_graph *g = tg_example(3, 4, &result); // room for all 3 numbers: gen is never held back
  check(tg_node_run_state(g, TGX_GEN) == TG_INITIAL && tg_node_run_state(g, TGX_STEPS) == TG_INITIAL,
        "run states: initial before the run", "");
  check(tg_resume(g, TGX_GEN) < 0 && has(g, "not been invoked") && tg_node_run_state(g, TGX_GEN) == TG_INITIAL,
        "run states: resuming an initial coroutine is refused", tg_error(g));
  check(tg_run(g, 1) == 1 && tg_node_run_state(g, TGX_GEN) == TG_ACTIVE, "run states: invoked -> active", "");
  check(tg_resume(g, TGX_GEN) == TG_ACTIVE, "run states: tg_resume steps an active coroutine", tg_error(g));
  check(tg_resume(g, TGX_GEN) == TG_FINAL, "run states: its last step -> final", tg_error(g));
  check(tg_resume(g, TGX_GEN) < 0 && has(g, "final state") && tg_node_run_state(g, TGX_GEN) == TG_INVALID,
        "run states: resuming a final coroutine is an error and makes it invalid", tg_error(g));
  check(tg_resume(g, TGX_OUT) < 0 && has(g, "not a coroutine"), "run states: a function cannot be resumed",
        tg_error(g));
  check(tg_sync_wait(g) < 0 && has(g, "invalid run state"), "run states: an invalid node stops sync_wait",
        tg_error(g));
  tg_graph_free(g);
  // A finished graph: every coroutine final, the function ran once per total.
  g = tg_example(10, 2, &result);
  check(tg_sync_wait(g) == 0 && tg_node_run_state(g, TGX_STEPS) == TG_FINAL && tg_node_firings(g, TGX_OUT) == 1,
        "run states: after sync_wait every coroutine is final", tg_error(g));
  tg_graph_free(g);
}

static tg_run_state bad_state(void *c, void *s, const void *const *in, void *const *out, uint32_t *p) {
  (void)c, (void)s, (void)in, (void)out, (void)p;
  return TG_INVALID;
}
static tg_run_state wants_without_input(void *c, void *s, const void *const *in, void *const *out, uint32_t *p) {
  (void)c, (void)s, (void)in, (void)out;
  *p = TG_WANT_INPUT;
  return TG_ACTIVE;
}
static void nop(void *c, const void *const *in, void *const *out) { (void)c, (void)in, (void)out; }

// Misuse: incompatible ports, a second edge into a port, ports and sizes out of range, cycles.
static void misuse(void) {
  tg_graph *g = tg_graph_new(TG_DAG);
  tg_port a = {1, 8, 0}, b = {2, 8, 0}, c = {1, 4, 0};
  int f = tg_add_function(g, "f", nop, NULL, 1, &a, 1, &a);
  int h = tg_add_function(g, "h", nop, NULL, 1, &b, 1, &c);
  int k = tg_add_function(g, "k", nop, NULL, 1, &a, 1, &a);
  check(tg_add_edge(g, f, 0, h, 0, 1) < 0 && has(g, "incompatible ports (type 1, 8-byte items -> type 2"),
        "misuse: an edge between ports of different types", tg_error(g));
  check(tg_add_edge(g, h, 0, k, 0, 1) < 0 && has(g, "incompatible ports (type 1, 4-byte items -> type 1, 8-byte"),
        "misuse: an edge between ports of different item sizes", tg_error(g));
  check(tg_add_edge(g, f, 1, k, 0, 1) < 0 && has(g, "f has 1 output ports"), "misuse: an output port out of range",
        tg_error(g));
  check(tg_add_edge(g, f, 0, k, 0, 0) < 0 && has(g, "capacity 0, must be 1.."), "misuse: capacity 0", tg_error(g));
  check(tg_add_edge(g, f, 0, 9, 0, 1) < 0 && has(g, "no such node"), "misuse: no such node", tg_error(g));
  check(tg_add_edge(g, f, 0, k, 0, 1) >= 0, "misuse: a good edge f -> k", tg_error(g));
  check(tg_add_edge(g, k, 0, k, 0, 1) < 0 && has(g, "already has edge"), "misuse: a second edge into one input port",
        tg_error(g));
  check(tg_add_edge(g, k, 0, f, 0, 1) < 0 && has(g, "closes a cycle (f already reaches k)"),
        "misuse: an edge that closes a cycle in a DAG", tg_error(g));
  check(tg_sync_wait(g) < 0 && has(g, "node f: input port 0 has no edge"), "misuse: an input port without an edge",
        tg_error(g));
  tg_port big = {1, TG_MAX_ITEM_BYTES + 1, 0};
  check(tg_add_function(g, "x", nop, NULL, 1, &big, 0, NULL) < 0 && has(g, "items of 4097 bytes"),
        "misuse: items over the size limit", tg_error(g));
  check(tg_add_function(g, "y", NULL, NULL, 0, NULL, 0, NULL) < 0 && has(g, "no function"), "misuse: no function",
        tg_error(g));
  tg_graph_free(g);
  // Without TG_DAG a cycle is allowed.
  g = tg_graph_new(0);
  f = tg_add_function(g, "f", nop, NULL, 1, &a, 1, &a);
  k = tg_add_function(g, "k", nop, NULL, 1, &a, 1, &a);
  check(tg_add_edge(g, f, 0, k, 0, 1) >= 0 && tg_add_edge(g, k, 0, f, 0, 1) >= 0, "misuse: a cycle without TG_DAG is allowed",
        tg_error(g));
  check(tg_sync_wait(g) == 0, "misuse: an empty cycle has nothing to run", tg_error(g));
  tg_graph_free(g);
  // A step returning another run state.
  g = tg_graph_new(TG_DAG);
  tg_add_coroutine(g, "liar", bad_state, NULL, 0, NULL, 0, NULL, 0, NULL);
  check(tg_sync_wait(g) < 0 && has(g, "returned run state 3"), "misuse: a step must return active or final",
        tg_error(g));
  tg_graph_free(g);
  g = tg_graph_new(TG_DAG);
  tg_add_coroutine(g, "greedy", wants_without_input, NULL, 0, NULL, 0, NULL, 0, NULL);
  check(tg_sync_wait(g) < 0 && has(g, "no input ports"), "misuse: asking for input without input ports",
        tg_error(g));
  tg_graph_free(g);
}

// Deadlocks: a node with two inputs, one of which never gets an item.
static void deadlocks(void) {
  tg_graph *g = tg_graph_new(TG_DAG);
  tg_port a = {1, 8, 0};
  tg_port two[2] = {a, a};
  int src = tg_add_function(g, "src", nop, NULL, 0, NULL, 1, &a);
  int mid = tg_add_function(g, "mid", nop, NULL, 1, &a, 1, &a);
  int join = tg_add_function(g, "join", nop, NULL, 2, two, 0, NULL);
  int cor = tg_add_coroutine(g, "waits", wants_without_input, NULL, 1, &a, 1, &a, 0, NULL);
  tg_add_edge(g, src, 0, join, 0, 1);
  tg_add_edge(g, cor, 0, join, 1, 1);
  tg_add_edge(g, mid, 0, cor, 0, 1);
  // mid never gets input (its input port has no edge): the graph is refused before running.
  check(tg_sync_wait(g) < 0 && has(g, "node mid: input port 0 has no edge"), "deadlock: unconnected input found first",
        tg_error(g));
  tg_graph_free(g);
  // A join whose second input never comes: its first edge keeps an item.
  g = tg_graph_new(TG_DAG);
  src = tg_add_function(g, "src", nop, NULL, 0, NULL, 1, &a);
  int src2 = tg_add_function(g, "src2", nop, NULL, 0, NULL, 1, &a);
  cor = tg_add_coroutine(g, "waits", wants_without_input, NULL, 1, &a, 1, &a, 0, NULL);
  join = tg_add_function(g, "join", nop, NULL, 2, two, 0, NULL);
  tg_add_edge(g, src, 0, join, 0, 1);
  tg_add_edge(g, src2, 0, cor, 0, 1);
  tg_add_edge(g, cor, 0, join, 1, 1);
  int r = tg_sync_wait(g);
  check(r < 0 && has(g, "deadlock: coroutine waits is active and asked for input"),
        "deadlock: a coroutine waiting for input that never comes", tg_error(g));
  tg_graph_free(g);
}

// Checkpoints: stop after F firings, checkpoint, restore into a new graph
// (another scheduling order), finish: the same total as a run that never stopped.
static void checkpoints(void) {
  const uint32_t n = 60;
  uint64_t want = tg_example_expect(n), full_firings;
  {
    uint32_t result;
    tg_graph *g = tg_example(n, 2, &result);
    tg_sync_wait(g);
    full_firings = tg_firings(g);
    tg_graph_free(g);
  }
  int ok = 1, cases = 0;
  char why[256] = "";
  for (uint64_t stop = 1; stop < full_firings + 3; stop += 1 + stop / 4) {
    uint32_t r1 = 0, r2 = 0;
    tg_graph *g = tg_example(n, 2, &r1);
    tg_set_seed(g, stop);
    tg_run(g, stop);
    size_t len;
    uint8_t *ck = tg_checkpoint_mem(g, &len);
    tg_graph *h = tg_example(n, 2, &r2);
    tg_set_seed(h, stop + 1000);
    int rr = tg_restore_mem(h, ck, len, "mem");
    int done = rr == 0 && tg_sync_wait(h) == 0;
    const tgx_sum_state *s = tg_node_state(h, TGX_SUM);
    if (!done || s->total != want || tg_firings(h) != full_firings) {
      ok = 0;
      snprintf(why, sizeof(why), "stop %llu: restore %d, %s, total %llu of %llu, firings %llu of %llu",
               (unsigned long long)stop, rr, tg_error(h), (unsigned long long)s->total, (unsigned long long)want,
               (unsigned long long)tg_firings(h), (unsigned long long)full_firings);
    }
    cases++;
    free(ck);
    tg_graph_free(g), tg_graph_free(h);
  }
  char name[128];
  snprintf(name, sizeof(name), "checkpoint: %d stop points, restored into a new graph, same total and firings", cases);
  check(ok, name, why);
}

// Restoring bad checkpoints: every prefix, wrong magic, another graph, trailing bytes, bad fields.
static void bad_checkpoints(void) {
  uint32_t r;
  tg_graph *g = tg_example(20, 2, &r);
  tg_run(g, 40);
  size_t len;
  uint8_t *ck = tg_checkpoint_mem(g, &len);
  int ok = 1;
  for (size_t k = 0; k < len; k++) {
    tg_graph *h = tg_example(20, 2, &r);
    ok &= tg_restore_mem(h, ck, k, "ck") < 0 && (k < 4 || has(h, "ends inside"));
    ok &= tg_node_run_state(h, TGX_GEN) == TG_INITIAL; // nothing applied
    tg_graph_free(h);
  }
  check(ok, "checkpoint: every truncation is refused and changes nothing", "");
  tg_graph *h = tg_example(20, 2, &r);
  uint8_t *copy = malloc(len + 1);
  memcpy(copy, ck, len);
  copy[0] = 'X';
  check(tg_restore_mem(h, copy, len, "ck") < 0 && has(h, "ck: offset 0: error: not a task-graph checkpoint"),
        "checkpoint: wrong magic", tg_error(h));
  memcpy(copy, ck, len);
  copy[len] = 0;
  check(tg_restore_mem(h, copy, len + 1, "ck") < 0 && has(h, "1 bytes after the end"), "checkpoint: trailing bytes",
        tg_error(h));
  memcpy(copy, ck, len);
  copy[28] = 9; // the first node's run state (after magic, version, shape, nodes, edges, firings)
  check(tg_restore_mem(h, copy, len, "ck") < 0 && has(h, "offset 36: error: run state 9"), "checkpoint: a bad run state",
        tg_error(h));
  tg_graph_free(h);
  h = tg_example(20, 3, &r); // another capacity: another graph
  check(tg_restore_mem(h, ck, len, "ck") < 0 && has(h, "is not this graph"), "checkpoint: into another graph",
        tg_error(h));
  check(tg_restore(h, "/nonexistent/ck") < 0 && has(h, "/nonexistent/ck: cannot open"), "checkpoint: a missing file",
        tg_error(h));
  tg_graph_free(h);
  free(copy), free(ck);
  tg_graph_free(g);
}

// Counted input ports: many edges into one port, a firing per N posts.
static void counted_runs(void) {
  static const uint32_t cfg[][3] = {{1, 1, 1}, {5, 1, 5}, {4, 3, 6}, {7, 2, 7}, {3, 4, 12}, {30, 1, 30}};
  for (size_t c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++)
    for (uint64_t seed = 0; seed < 5; seed++) {
      uint32_t k = cfg[c][0], per = cfg[c][1], n = cfg[c][2];
      tgm_host result;
      tg_graph *g = tg_merge(k, per, n, &result);
      tg_set_seed(g, seed);
      char name[128];
      snprintf(name, sizeof(name), "counted: %u sources of %u into a port counted %u, order %llu", k, per, n,
               (unsigned long long)seed);
      int r = g ? tg_sync_wait(g) : -1;
      const tgm_merge_state *s = g ? tg_node_state(g, TGM_MERGE) : NULL;
      check(r == 0 && result.total == tg_merge_expect(k, per) && s->rounds == k * per / n &&
                tg_node_firings(g, TGM_MERGE) == k * per / n && tg_node_run_state(g, TGM_MERGE) == TG_FINAL,
            name, g ? tg_error(g) : "build");
      tg_graph_free(g);
    }
  // The items of one firing are exactly N, and all of them (a function: one firing per N).
  tgm_host result;
  tg_graph *g = tg_merge(6, 1, 3, &result); // two rounds of 3
  check(tg_sync_wait(g) == 0 && result.total == 21 && tg_node_firings(g, TGM_MERGE) == 2,
        "counted: 6 posts, count 3: two rounds through TG_WANT_INPUT", tg_error(g));
  tg_graph_free(g);
}

static void nop_co(void *c, const void *const *in, void *const *out) { (void)c, (void)in, (void)out; }
static tg_run_state quiet(void *c, void *s, const void *const *in, void *const *out, uint32_t *p) {
  (void)c, (void)s, (void)in, (void)out, (void)p;
  return TG_FINAL;
}

// Misuse and J3/14-104's errors on counted ports.
static void counted_errors(void) {
  tg_port u = {1, 4, 0}, c2 = {1, 4, 2}, big = {1, 4, TG_MAX_COUNT + 1}, wide = {1, 4096, 65536};
  tg_graph *g = tg_graph_new(0);
  check(tg_add_function(g, "f", nop_co, NULL, 0, NULL, 1, &c2) < 0 && has(g, "node f: output port 0: a count (2)"),
        "counted: a count on an output port is refused", tg_error(g));
  check(tg_add_function(g, "f", nop_co, NULL, 1, &big, 0, NULL) < 0 && has(g, "count 1048577, at most 1048576"),
        "counted: a count over TG_MAX_COUNT is refused", tg_error(g));
  check(tg_add_function(g, "f", nop_co, NULL, 1, &wide, 0, NULL) < 0 && has(g, "65536 items of 4096 bytes, at most"),
        "counted: N items over TG_MAX_COUNT_BYTES are refused", tg_error(g));
  int a = tg_add_function(g, "a", nop_co, NULL, 0, NULL, 1, &u), b = tg_add_function(g, "b", nop_co, NULL, 0, NULL, 1, &u);
  int p = tg_add_function(g, "plain", nop_co, NULL, 1, &u, 0, NULL);
  int m = tg_add_function(g, "m", nop_co, NULL, 1, &c2, 0, NULL);
  check(tg_add_edge(g, a, 0, p, 0, 1) >= 0 && tg_add_edge(g, b, 0, p, 0, 1) < 0 && has(g, "already has edge"),
        "counted: a plain port still takes one edge", tg_error(g));
  check(tg_add_edge(g, a, 0, m, 0, 1) >= 0 && tg_add_edge(g, b, 0, m, 0, 1) >= 0,
        "counted: a counted port takes many edges", tg_error(g));
  check(tg_sync_wait(g) == 0 && tg_node_firings(g, m) == 1, "counted: 2 posts, count 2: one firing", tg_error(g));
  tg_graph_free(g);
  // No edge into a counted port.
  g = tg_graph_new(0);
  tg_add_function(g, "m", nop_co, NULL, 1, &c2, 0, NULL);
  check(tg_sync_wait(g) < 0 && has(g, "node m: input port 0 has no edge"), "counted: a counted port without edges",
        tg_error(g));
  tg_graph_free(g);
  // Too few posts: the wait is left waiting.
  tgm_host result;
  g = tg_merge(1, 1, 2, &result);
  check(tg_sync_wait(g) < 0 && has(g, "counted port merge.in0: 1 posts at the end, and its EVENT WAIT waits for 2"),
        "counted: a missing post is an error at the end", tg_error(g));
  tg_graph_free(g);
  // A post left over after a firing (excess posts; the merge wants one round of 2 of the 3).
  g = tg_merge(3, 1, 2, &result);
  check(tg_sync_wait(g) < 0 && has(g, "1 posts at the end") && tg_node_firings(g, TGM_MERGE) == 1,
        "counted: an excess post after a firing is an error at the end", tg_error(g));
  tg_graph_free(g);
  // J3/14-104's error: posts beyond the threshold while the completed wait's items are not taken
  // (m also needs a plain input that never comes: 2 + 2 posts are kept, the fifth is the error).
  g = tg_graph_new(0);
  tg_port two[2] = {c2, u};
  tgx_gen_state five = {0, 5};
  int s = tg_add_coroutine(g, "five", tgx_gen, NULL, 0, NULL, 1, &u, sizeof(five), &five);
  int none = tg_add_coroutine(g, "none", quiet, NULL, 0, NULL, 1, &u, 0, NULL);
  m = tg_add_function(g, "m", nop_co, NULL, 2, two, 0, NULL);
  tg_add_edge(g, s, 0, m, 0, 1), tg_add_edge(g, none, 0, m, 1, 1);
  check(tg_sync_wait(g) < 0 && has(g, "counted port m.in0: a post from five.out0 brings its count to 5") &&
            has(g, "the count exceeds the threshold") && tg_node_firings(g, s) == 5,
        "counted: a post beyond the threshold is J3/14-104's error", tg_error(g));
  tg_graph_free(g);
  // Sources that outrun the waiter: 7 sources of 2 into a port counted 1 (posts do not wait for room).
  g = tg_merge(7, 2, 1, &result);
  check(tg_sync_wait(g) < 0 && has(g, "the count exceeds the threshold"),
        "counted: 14 posts racing a waiter for 1 at a time are J3/14-104's error", tg_error(g));
  tg_graph_free(g);
  // Four posts: kept (2 for the completed wait, 2 for the next): a deadlock at the end, not an over-count.
  g = tg_graph_new(0);
  tgx_gen_state four = {0, 4};
  s = tg_add_coroutine(g, "four", tgx_gen, NULL, 0, NULL, 1, &u, sizeof(four), &four);
  none = tg_add_coroutine(g, "none", quiet, NULL, 0, NULL, 1, &u, 0, NULL);
  m = tg_add_function(g, "m", nop_co, NULL, 2, two, 0, NULL);
  tg_add_edge(g, s, 0, m, 0, 1), tg_add_edge(g, none, 0, m, 1, 1);
  check(tg_sync_wait(g) < 0 && has(g, "deadlock: counted port m.in0 holds 4 items"),
        "counted: posts for the next wait are kept", tg_error(g));
  tg_graph_free(g);
}

// Checkpoints with counted ports: every stop point, restored into a new graph.
static void counted_checkpoints(void) {
  const uint32_t k = 5, per = 2, n = 5;
  uint64_t full;
  tgm_host result;
  tg_graph *g = tg_merge(k, per, n, &result);
  tg_sync_wait(g);
  full = tg_firings(g);
  tg_graph_free(g);
  int ok = 1, cases = 0;
  char why[256] = "";
  for (uint64_t stop = 0; stop <= full + 1; stop++) {
    tgm_host r1, r2;
    g = tg_merge(k, per, n, &r1);
    tg_set_seed(g, stop + 7);
    tg_run(g, stop);
    size_t len;
    uint8_t *ck = tg_checkpoint_mem(g, &len);
    tg_graph *h = tg_merge(k, per, n, &r2);
    tg_set_seed(h, stop + 99);
    int rr = tg_restore_mem(h, ck, len, "mem");
    size_t len2;
    uint8_t *ck2 = rr == 0 ? tg_checkpoint_mem(h, &len2) : NULL;
    int same = ck2 && len2 == len && !memcmp(ck, ck2, len);
    const tgm_merge_state *ms = tg_node_state(h, TGM_MERGE);
    if (rr || !same || tg_sync_wait(h) || ms->total != tg_merge_expect(k, per) || (stop < full && r2.total != ms->total) ||
        tg_firings(h) != full) {
      ok = 0;
      snprintf(why, sizeof(why), "stop %llu: restore %d, same bytes %d, %s, total %u, firings %llu of %llu",
               (unsigned long long)stop, rr, same, tg_error(h), ms->total, (unsigned long long)tg_firings(h),
               (unsigned long long)full);
    }
    cases++;
    free(ck), free(ck2);
    tg_graph_free(g), tg_graph_free(h);
  }
  char name[128];
  snprintf(name, sizeof(name), "counted: checkpoint at %d stop points, restored, same total and firings", cases);
  check(ok, name, why);
  // Bad counted-port fields; a checkpoint of the plain example is refused by its version.
  g = tg_merge(2, 2, 2, &result);
  tg_run(g, 1); // one post: count 1 of 2
  size_t len;
  uint8_t *ck = tg_checkpoint_mem(g, &len);
  // merge's record: run, flags, firings, invocations, state (12), input (8); then count, target, items
  size_t at = 28 + 4 + 4 + 8 + 8 + 12 + 8;
  tg_graph *h = tg_merge(2, 2, 2, &result);
  check(ck[4] == 2 && ck[at] == 1 && ck[at + 4] == (2 << 2 | 1) && ck[at + 8] == 1,
        "counted: a version 2 checkpoint holds the port's event and items", "");
  ck[at] = 2;
  check(tg_restore_mem(h, ck, len, "ck") < 0 && has(h, "a counted port's count 2 (at most 1)"),
        "counted: a count at the threshold with the wait armed is refused", tg_error(h));
  ck[at] = 1, ck[at + 4] = 3;
  check(tg_restore_mem(h, ck, len, "ck") < 0 && has(h, "a counted port's wait 00000003"),
        "counted: a wait for another count is refused", tg_error(h));
  ck[at + 4] = 9, ck[at + 8] = 2;
  check(tg_restore_mem(h, ck, len, "ck") < 0 && has(h, "holds 2 items for a count of 1"),
        "counted: items that do not match the count are refused", tg_error(h));
  ck[4] = 1;
  check(tg_restore_mem(h, ck, len, "ck") < 0 && has(h, "version 1, and this graph's checkpoints are version 2"),
        "counted: a version 1 checkpoint into a graph with counted ports is refused", tg_error(h));
  free(ck);
  ck = tg_checkpoint_mem(g, &len); // the last word: edge 2's item count (src1 -> merge); one item more
  uint8_t *more = calloc(len + 4, 1);
  memcpy(more, ck, len);
  more[len - 4] = 1;
  check(tg_restore_mem(h, more, len + 4, "ck") < 0 && has(h, "1 items on edge 2, which goes into a counted port"),
        "counted: items on an edge into a counted port are refused", tg_error(h));
  free(more), free(ck);
  tg_graph_free(g), tg_graph_free(h);
}

// tg_node_load / tg_edge_load (a back end's state read back): misuse is refused, a load checkpoints.
static void loads(void) {
  uint32_t result = 0;
  tg_graph *g = tg_example(5, 2, &result);
  uint32_t four = 4, items[2] = {7, 8};
  const void *in[1] = {&four};
  tgx_steps_state st = {4, 1};
  check(tg_node_load(g, TGX_OUT, TG_ACTIVE, 0, 1, 0, NULL, NULL) < 0 && has(g, "load out: run state 1"),
        "load: a function with a run state is refused", tg_error(g));
  check(tg_node_load(g, TGX_GEN, TG_ACTIVE, 2, 1, 1, NULL, NULL) < 0 && has(g, "load gen: flags 2"),
        "load: the want flag on a coroutine without inputs is refused", tg_error(g));
  check(tg_node_load(g, 9, TG_INITIAL, 0, 0, 0, NULL, NULL) < 0 && has(g, "no node 9"), "load: no such node",
        tg_error(g));
  check(tg_edge_load(g, 0, 3, items) < 0 && has(g, "3 items on edge gen.out0 -> steps.in0 of capacity 2"),
        "load: more items than the edge holds is refused", tg_error(g));
  int ok = tg_node_load(g, TGX_STEPS, TG_ACTIVE, 0, 1, 1, &st, in) == 0 && tg_edge_load(g, 0, 2, items) == 0;
  size_t len;
  uint8_t *ck = tg_checkpoint_mem(g, &len);
  tg_graph *h = tg_example(5, 2, &result);
  ok &= ck && tg_restore_mem(h, ck, len, "ck") == 0 && tg_firings(h) == 1 && tg_edge_items(h, 0) == 2 &&
        tg_node_run_state(h, TGX_STEPS) == TG_ACTIVE;
  check(ok, "load: a loaded node and edge checkpoint and restore", tg_error(g));
  /* The other way (tg_poets --resume): what was loaded reads back from the restored graph. */
  uint32_t got[2] = {0, 0}, x = 0;
  if (ok) {
    tg_edge_read(h, 0, got);
    memcpy(&x, tg_node_input(h, TGX_STEPS, 0), 4);
  }
  check(ok && got[0] == 7 && got[1] == 8 && x == 4 && tg_node_flags(h, TGX_STEPS) == 0 &&
            !memcmp(tg_node_state(h, TGX_STEPS), &st, sizeof(st)),
        "read back: an edge's items, a node's input, flags and state after a restore", tg_error(h));
  free(ck);
  tg_graph_free(g), tg_graph_free(h);
  tgm_host host;
  g = tg_merge(2, 1, 2, &host);
  check(tg_node_load(g, TGM_MERGE, TG_INITIAL, 0, 0, 0, NULL, NULL) < 0 && has(g, "is counted"),
        "load: a node with a counted port is refused", tg_error(g));
  check(tg_edge_load(g, 2, 1, items) < 0 && has(g, "goes into a counted port"),
        "load: an edge into a counted port is refused", tg_error(g));
  tg_graph_free(g);
}

int main(void) {
  example_runs();
  back_pressure();
  run_states();
  misuse();
  deadlocks();
  checkpoints();
  bad_checkpoints();
  counted_runs();
  counted_errors();
  counted_checkpoints();
  loads();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
