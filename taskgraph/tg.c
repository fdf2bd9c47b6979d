/*
 * tg.c: the host reference scheduler of tg.h (the oracle). Plain C11: a
 * node array, an edge array of ring buffers, and a loop that picks a node
 * that can run (round robin, or seeded at random) and fires it, until none
 * can. Checkpoints are a flat little-endian byte format (see write_all).
 */
#include "tg.h"

#include "ss_counted.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint8_t *buf;       /* cap items of `bytes` each, a ring */
  uint32_t head, n, cap, bytes;
  int from, to;
  uint32_t from_port, to_port;
} Edge;

/* A counted input port (tg.h): its event, and a ring of up to 2N items (the
 * N of a completed wait, and up to N posts for the next one). */
typedef struct {
  ss_counted ev;
  uint8_t *buf;
  uint32_t head, n, size; /* size = 2N items */
} Counted;

typedef struct {
  char *name;
  int coroutine;
  tg_function fn;
  tg_coroutine co;
  void *ctx;
  uint32_t nin, nout;
  tg_port *in, *out;
  int *in_edge;        /* [nin]: the edge into each input port (a counted port: its first), -1 none */
  Counted *cin;        /* [nin]: counted ports (buf NULL: a plain port) */
  int **out_edges;     /* [nout]: the edges out of each output port */
  uint32_t *nout_edges;
  uint32_t *in_off, *out_off, in_bytes, out_bytes;
  uint8_t *inbuf, *outbuf; /* the current invocation's inputs; a step's outputs */
  const void **in_ptr;
  void **out_ptr;
  uint32_t state_bytes;
  uint8_t *init, *state;
  tg_run_state run;
  uint32_t ran;        /* a function without inputs has fired */
  uint32_t want;       /* an active coroutine asked for more input (TG_WANT_INPUT) */
  uint64_t firings, invocations;
} Node;

struct tg_graph {
  unsigned flags;
  Node *nodes;
  uint32_t nn, capn;
  Edge *edges;
  uint32_t ne, cape;
  uint64_t seed, rng, firings;
  uint32_t cursor;
  uint32_t *ready, *rpos, nready; /* seeded order: the nodes that can run; rpos[i]: i's place + 1, 0 none */
  char err[512];
};

static int fail(const tg_graph *gc, const char *fmt, ...) {
  tg_graph *g = (tg_graph *)gc;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, sizeof(g->err), fmt, ap);
  va_end(ap);
  return -1;
}

static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size ? size : 1); }

tg_graph *tg_graph_new(unsigned flags) {
  tg_graph *g = zalloc(1, sizeof(tg_graph));
  if (g)
    g->flags = flags;
  return g;
}

static void node_free(Node *n) {
  for (uint32_t p = 0; n->cin && p < n->nin; p++)
    free(n->cin[p].buf);
  free(n->cin);
  for (uint32_t p = 0; p < n->nout; p++)
    free(n->out_edges[p]);
  free(n->name), free(n->in), free(n->out), free(n->in_edge), free(n->out_edges), free(n->nout_edges);
  free(n->in_off), free(n->out_off), free(n->inbuf), free(n->outbuf), free(n->in_ptr), free(n->out_ptr);
  free(n->init), free(n->state);
}

void tg_graph_free(tg_graph *g) {
  if (!g)
    return;
  for (uint32_t i = 0; i < g->nn; i++)
    node_free(&g->nodes[i]);
  for (uint32_t i = 0; i < g->ne; i++)
    free(g->edges[i].buf);
  free(g->nodes), free(g->edges), free(g->ready), free(g->rpos);
  free(g);
}

const char *tg_error(const tg_graph *g) { return g->err; }

void tg_set_seed(tg_graph *g, uint64_t seed) {
  g->seed = seed;
  g->rng = seed * 0x9e3779b97f4a7c15ull | 1;
}

/* ------------------------------------------------------------ building */

static int check_ports(tg_graph *g, const char *name, const char *dir, uint32_t n, const tg_port *p) {
  if (n > TG_MAX_PORTS)
    return fail(g, "node %s: %u %s ports, at most %u", name, n, dir, TG_MAX_PORTS);
  if (n && !p)
    return fail(g, "node %s: %u %s ports but no port table", name, n, dir);
  for (uint32_t i = 0; i < n; i++)
    if (p[i].bytes < 1 || p[i].bytes > TG_MAX_ITEM_BYTES)
      return fail(g, "node %s: %s port %u: items of %u bytes, must be 1..%u", name, dir, i, p[i].bytes,
                  TG_MAX_ITEM_BYTES);
  for (uint32_t i = 0; i < n; i++) {
    if (p[i].count && dir[0] == 'o')
      return fail(g, "node %s: output port %u: a count (%u); only an input port can be counted", name, i, p[i].count);
    if (p[i].count > TG_MAX_COUNT)
      return fail(g, "node %s: %s port %u: count %u, at most %u", name, dir, i, p[i].count, TG_MAX_COUNT);
    if ((uint64_t)p[i].count * p[i].bytes > TG_MAX_COUNT_BYTES)
      return fail(g, "node %s: %s port %u: %u items of %u bytes, at most %u bytes", name, dir, i, p[i].count,
                  p[i].bytes, TG_MAX_COUNT_BYTES);
  }
  return 0;
}

/* The bytes of a firing's input on a port: one item, or a counted port's N. */
static uint32_t port_bytes(const tg_port *p) { return p->bytes * (p->count ? p->count : 1u); }

/* Offsets of each port's item in a buffer: 8-aligned, so items of any C type fit. */
static uint32_t *offsets(uint32_t n, const tg_port *p, uint32_t *total) {
  uint32_t *off = zalloc(n + 1, sizeof(uint32_t)), at = 0;
  if (!off)
    return NULL;
  for (uint32_t i = 0; i < n; i++)
    off[i] = at, at += (port_bytes(&p[i]) + 7u) & ~7u;
  *total = at;
  return off;
}

static int add_node(tg_graph *g, const char *name, int coroutine, tg_function fn, tg_coroutine co, void *ctx,
                    uint32_t nin, const tg_port *in, uint32_t nout, const tg_port *out, uint32_t state_bytes,
                    const void *initial_state) {
  name = name ? name : "(unnamed)";
  if ((coroutine ? (void *)co : (void *)fn) == NULL)
    return fail(g, "node %s: no %s", name, coroutine ? "coroutine" : "function");
  if (check_ports(g, name, "input", nin, in) || check_ports(g, name, "output", nout, out))
    return -1;
  if (state_bytes > TG_MAX_STATE_BYTES)
    return fail(g, "node %s: a computation state of %u bytes, at most %u", name, state_bytes, TG_MAX_STATE_BYTES);
  if (g->nn >= 0x7fffffffu)
    return fail(g, "node %s: too many nodes", name);
  if (g->nn == g->capn) {
    uint32_t cap = g->capn ? 2 * g->capn : 16;
    Node *nn = realloc(g->nodes, cap * sizeof(Node));
    if (!nn)
      return fail(g, "node %s: out of memory", name);
    g->nodes = nn, g->capn = cap;
  }
  Node *n = &g->nodes[g->nn];
  memset(n, 0, sizeof(*n));
  n->name = malloc(strlen(name) + 1);
  n->coroutine = coroutine, n->fn = fn, n->co = co, n->ctx = ctx, n->nin = nin, n->nout = nout;
  n->in = zalloc(nin, sizeof(tg_port)), n->out = zalloc(nout, sizeof(tg_port));
  n->in_edge = zalloc(nin, sizeof(int)), n->cin = zalloc(nin, sizeof(Counted));
  n->out_edges = zalloc(nout, sizeof(int *)), n->nout_edges = zalloc(nout, sizeof(uint32_t));
  n->in_off = offsets(nin, in, &n->in_bytes), n->out_off = offsets(nout, out, &n->out_bytes);
  n->in_ptr = zalloc(nin, sizeof(void *)), n->out_ptr = zalloc(nout, sizeof(void *));
  n->state_bytes = coroutine ? state_bytes : 0;
  n->init = zalloc(n->state_bytes, 1), n->state = zalloc(n->state_bytes, 1);
  if (!n->name || !n->in || !n->out || !n->in_edge || !n->cin || !n->out_edges || !n->nout_edges || !n->in_off ||
      !n->out_off || !n->in_ptr || !n->out_ptr || !n->init || !n->state) {
    node_free(n);
    return fail(g, "node %s: out of memory", name);
  }
  n->inbuf = zalloc(n->in_bytes, 1), n->outbuf = zalloc(n->out_bytes, 1);
  if (!n->inbuf || !n->outbuf) {
    node_free(n);
    return fail(g, "node %s: out of memory", name);
  }
  strcpy(n->name, name);
  if (nin)
    memcpy(n->in, in, nin * sizeof(tg_port));
  if (nout)
    memcpy(n->out, out, nout * sizeof(tg_port));
  for (uint32_t i = 0; i < nin; i++)
    n->in_edge[i] = -1, n->in_ptr[i] = n->inbuf + n->in_off[i];
  for (uint32_t i = 0; i < nin; i++)
    if (in[i].count) { /* the port's EVENT WAIT (UNTIL_COUNT = N) is armed from the start */
      Counted *c = &n->cin[i];
      c->size = 2 * in[i].count;
      if (!(c->buf = zalloc(c->size, in[i].bytes))) {
        node_free(n);
        return fail(g, "node %s: out of memory (counted port %u: %u items of %u bytes)", name, i, c->size,
                    in[i].bytes);
      }
      ss_event_init(&c->ev);
      ss_event_wait(&c->ev, in[i].count);
    }
  for (uint32_t i = 0; i < nout; i++)
    n->out_ptr[i] = n->outbuf + n->out_off[i];
  if (n->state_bytes && initial_state)
    memcpy(n->init, initial_state, n->state_bytes);
  n->run = TG_INITIAL;
  return (int)g->nn++;
}

int tg_add_function(tg_graph *g, const char *name, tg_function fn, void *ctx, uint32_t nin, const tg_port *in,
                    uint32_t nout, const tg_port *out) {
  return add_node(g, name, 0, fn, NULL, ctx, nin, in, nout, out, 0, NULL);
}

int tg_add_coroutine(tg_graph *g, const char *name, tg_coroutine co, void *ctx, uint32_t nin, const tg_port *in,
                     uint32_t nout, const tg_port *out, uint32_t state_bytes, const void *initial_state) {
  return add_node(g, name, 1, NULL, co, ctx, nin, in, nout, out, state_bytes, initial_state);
}

/* Does node FROM reach node TO along edges? (depth first, iterative) */
static int reaches(const tg_graph *g, uint32_t from, uint32_t to) {
  uint8_t *seen = zalloc(g->nn, 1);
  uint32_t *stack = zalloc(g->nn, sizeof(uint32_t)), sp = 0;
  int found = 0;
  if (!seen || !stack) {
    free(seen), free(stack);
    return -1;
  }
  stack[sp++] = from, seen[from] = 1;
  while (sp && !found) {
    const Node *n = &g->nodes[stack[--sp]];
    for (uint32_t p = 0; p < n->nout && !found; p++)
      for (uint32_t k = 0; k < n->nout_edges[p]; k++) {
        uint32_t next = (uint32_t)g->edges[n->out_edges[p][k]].to;
        if (next == to) {
          found = 1;
          break;
        }
        if (!seen[next])
          seen[next] = 1, stack[sp++] = next;
      }
  }
  free(seen), free(stack);
  return found;
}

int tg_add_edge(tg_graph *g, int from, uint32_t from_port, int to, uint32_t to_port, uint32_t capacity) {
  if (from < 0 || (uint32_t)from >= g->nn || to < 0 || (uint32_t)to >= g->nn)
    return fail(g, "edge %d -> %d: no such node (the graph has %u)", from, to, g->nn);
  Node *a = &g->nodes[from], *b = &g->nodes[to];
  if (from_port >= a->nout)
    return fail(g, "edge %s.out%u -> %s.in%u: %s has %u output ports", a->name, from_port, b->name, to_port, a->name,
                a->nout);
  if (to_port >= b->nin)
    return fail(g, "edge %s.out%u -> %s.in%u: %s has %u input ports", a->name, from_port, b->name, to_port, b->name,
                b->nin);
  const tg_port *pa = &a->out[from_port], *pb = &b->in[to_port];
  if (pa->type != pb->type || pa->bytes != pb->bytes)
    return fail(g, "edge %s.out%u -> %s.in%u: incompatible ports (type %u, %u-byte items -> type %u, %u-byte items)",
                a->name, from_port, b->name, to_port, pa->type, pa->bytes, pb->type, pb->bytes);
  if (b->in_edge[to_port] >= 0 && !pb->count)
    return fail(g, "edge %s.out%u -> %s.in%u: the input port already has edge %d", a->name, from_port, b->name,
                to_port, b->in_edge[to_port]);
  if (capacity < 1 || capacity > TG_MAX_CAPACITY)
    return fail(g, "edge %s.out%u -> %s.in%u: capacity %u, must be 1..%u", a->name, from_port, b->name, to_port,
                capacity, TG_MAX_CAPACITY);
  if (g->flags & TG_DAG) {
    int r = from == to ? 1 : reaches(g, (uint32_t)to, (uint32_t)from);
    if (r < 0)
      return fail(g, "edge %s -> %s: out of memory", a->name, b->name);
    if (r)
      return fail(g, "edge %s.out%u -> %s.in%u: closes a cycle (%s already reaches %s), and the graph is a DAG",
                  a->name, from_port, b->name, to_port, b->name, a->name);
  }
  if (g->ne == g->cape) {
    uint32_t cap = g->cape ? 2 * g->cape : 16;
    Edge *ne = realloc(g->edges, cap * sizeof(Edge));
    if (!ne)
      return fail(g, "edge %s -> %s: out of memory", a->name, b->name);
    g->edges = ne, g->cape = cap;
  }
  int *list = realloc(a->out_edges[from_port], (a->nout_edges[from_port] + 1) * sizeof(int));
  uint8_t *buf = zalloc(capacity, pa->bytes);
  if (!list || !buf) {
    free(buf);
    if (list)
      a->out_edges[from_port] = list;
    return fail(g, "edge %s -> %s: out of memory (%u items of %u bytes)", a->name, b->name, capacity, pa->bytes);
  }
  a->out_edges[from_port] = list;
  Edge *e = &g->edges[g->ne];
  *e = (Edge){buf, 0, 0, capacity, pa->bytes, from, to, from_port, to_port};
  list[a->nout_edges[from_port]++] = (int)g->ne;
  if (b->in_edge[to_port] < 0)
    b->in_edge[to_port] = (int)g->ne;
  return (int)g->ne++;
}

/* ------------------------------------------------------------- running */

static int outputs_have_room(const tg_graph *g, const Node *n) {
  for (uint32_t p = 0; p < n->nout; p++)
    for (uint32_t k = 0; k < n->nout_edges[p]; k++) {
      const Edge *e = &g->edges[n->out_edges[p][k]];
      if (e->n == e->cap)
        return 0;
    }
  return 1;
}

static int inputs_there(const tg_graph *g, const Node *n) {
  for (uint32_t p = 0; p < n->nin; p++)
    if (n->in_edge[p] < 0 || (n->cin[p].buf ? ss_event_waiting(&n->cin[p].ev) : g->edges[n->in_edge[p]].n == 0))
      return 0;
  return 1;
}

static int can_run(const tg_graph *g, const Node *n) {
  if (n->run == TG_INVALID || !outputs_have_room(g, n))
    return 0;
  if (n->coroutine && n->run == TG_ACTIVE)
    return !n->want || inputs_there(g, n);
  if (n->nin == 0)
    return n->coroutine ? n->run == TG_INITIAL : !n->ran;
  return inputs_there(g, n);
}

static int take_inputs(tg_graph *g, Node *n) {
  for (uint32_t p = 0; p < n->nin; p++) {
    Counted *c = &n->cin[p];
    if (c->buf) { /* the N items of the completed wait; then the next EVENT WAIT */
      uint32_t N = n->in[p].count, bytes = n->in[p].bytes;
      for (uint32_t k = 0; k < N; k++)
        memcpy(n->inbuf + n->in_off[p] + (size_t)k * bytes, c->buf + (size_t)((c->head + k) % c->size) * bytes, bytes);
      c->head = (c->head + N) % c->size, c->n -= N;
      if (ss_event_wait(&c->ev, N) == SS_EVENT_OVER) /* cannot happen: post() refuses the post first */
        return fail(g, "counted port %s.in%u: %u posts at its EVENT WAIT (UNTIL_COUNT = %u): the count exceeds the "
                       "threshold (J3/14-104)", n->name, p, ss_event_count(&c->ev), N);
      continue;
    }
    Edge *e = &g->edges[n->in_edge[p]];
    memcpy(n->inbuf + n->in_off[p], e->buf + (size_t)e->head * e->bytes, e->bytes);
    e->head = (e->head + 1) % e->cap, e->n--;
  }
  return 0;
}

/* An item on an edge into a counted port: an EVENT POST (tg.h). */
static int post(tg_graph *g, const Edge *e, const uint8_t *item) {
  Node *to = &g->nodes[e->to];
  Counted *c = &to->cin[e->to_port];
  uint32_t N = to->in[e->to_port].count;
  if (!ss_event_waiting(&c->ev) && ss_event_count(&c->ev) >= N)
    return fail(g, "counted port %s.in%u: a post from %s.out%u brings its count to %u while its EVENT WAIT "
                   "(UNTIL_COUNT = %u) is complete and its items not yet taken: the count exceeds the threshold "
                   "(J3/14-104)", to->name, e->to_port, g->nodes[e->from].name, e->from_port,
                N + ss_event_count(&c->ev) + 1, N);
  if (ss_event_post(&c->ev) == SS_EVENT_OVER)
    return fail(g, "counted port %s.in%u: more than 2^32 - 1 posts", to->name, e->to_port);
  memcpy(c->buf + (size_t)((c->head + c->n) % c->size) * e->bytes, item, e->bytes);
  c->n++;
  return 0;
}

static int push_outputs(tg_graph *g, Node *n, uint32_t produced) {
  for (uint32_t p = 0; p < n->nout; p++) {
    if (!(produced >> p & 1u))
      continue;
    for (uint32_t k = 0; k < n->nout_edges[p]; k++) {
      Edge *e = &g->edges[n->out_edges[p][k]];
      if (g->nodes[e->to].cin[e->to_port].buf) {
        if (post(g, e, n->outbuf + n->out_off[p]))
          return -1;
        continue;
      }
      memcpy(e->buf + (size_t)((e->head + e->n) % e->cap) * e->bytes, n->outbuf + n->out_off[p], e->bytes);
      e->n++;
    }
  }
  return 0;
}

/* One step of a coroutine that may run (room on its outputs, invoked). */
static int step(tg_graph *g, Node *n) {
  uint32_t produced = 0;
  memset(n->outbuf, 0, n->out_bytes);
  tg_run_state r = n->co(n->ctx, n->state, (const void *const *)n->in_ptr, n->out_ptr, &produced);
  if (r != TG_ACTIVE && r != TG_FINAL) {
    n->run = TG_INVALID;
    return fail(g, "coroutine %s: a step returned run state %d (TG_ACTIVE or TG_FINAL only)", n->name, (int)r);
  }
  uint32_t want = produced & TG_WANT_INPUT;
  produced &= ~TG_WANT_INPUT;
  if (produced >> n->nout)
    return fail(g, "coroutine %s: produced bits 0x%x, but it has %u output ports", n->name, produced, n->nout);
  if (want && r == TG_ACTIVE && !n->nin)
    return fail(g, "coroutine %s: asked for input (TG_WANT_INPUT), but it has no input ports", n->name);
  n->want = want && r == TG_ACTIVE;
  n->run = r;
  n->firings++, g->firings++;
  return push_outputs(g, n, produced);
}

static int fire(tg_graph *g, Node *n) {
  if (!n->coroutine) {
    if (take_inputs(g, n))
      return -1;
    memset(n->outbuf, 0, n->out_bytes);
    n->fn(n->ctx, (const void *const *)n->in_ptr, n->out_ptr);
    n->ran = 1;
    n->firings++, g->firings++;
    return push_outputs(g, n, n->nout >= 32 ? ~0u : (1u << n->nout) - 1u);
  }
  if (n->run != TG_ACTIVE) { /* a new invocation: its inputs, the initial computation state */
    if (take_inputs(g, n))
      return -1;
    memcpy(n->state, n->init, n->state_bytes);
    n->run = TG_ACTIVE;
    n->invocations++;
  } else if (n->want) { /* the inputs it asked for */
    if (take_inputs(g, n))
      return -1;
    n->want = 0;
  }
  return step(g, n);
}

static int check_connected(tg_graph *g) {
  for (uint32_t i = 0; i < g->nn; i++)
    for (uint32_t p = 0; p < g->nodes[i].nin; p++)
      if (g->nodes[i].in_edge[p] < 0)
        return fail(g, "node %s: input port %u has no edge", g->nodes[i].name, p);
  return 0;
}

static uint64_t next_random(tg_graph *g) {
  g->rng ^= g->rng << 13, g->rng ^= g->rng >> 7, g->rng ^= g->rng << 17;
  return g->rng;
}

/* Round robin: the next node to fire after the last, or -1. */
static int pick(tg_graph *g) {
  for (uint32_t k = 0; k < g->nn; k++) {
    uint32_t i = (g->cursor + k) % g->nn;
    if (can_run(g, &g->nodes[i])) {
      g->cursor = (i + 1) % g->nn;
      return (int)i;
    }
  }
  return -1;
}

/* A seeded order: a uniform choice among the nodes that can run, kept in a
 * set that a firing updates around the node it fired (its inputs'
 * producers got room, its outputs' consumers got items): O(degree) a
 * firing, not O(nodes). */
static void mark(tg_graph *g, uint32_t i) {
  int r = can_run(g, &g->nodes[i]);
  uint32_t at = g->rpos[i];
  if (r && !at) {
    g->ready[g->nready] = i;
    g->rpos[i] = ++g->nready;
  } else if (!r && at) {
    uint32_t last = g->ready[--g->nready];
    g->ready[at - 1] = last, g->rpos[last] = at;
    g->rpos[i] = 0;
  }
}

static void mark_around(tg_graph *g, uint32_t i) {
  const Node *n = &g->nodes[i];
  mark(g, i);
  for (uint32_t p = 0; p < n->nin; p++)
    if (!n->cin[p].buf && n->in_edge[p] >= 0) /* a counted port's producers never wait for room */
      mark(g, (uint32_t)g->edges[n->in_edge[p]].from);
  for (uint32_t p = 0; p < n->nout; p++)
    for (uint32_t k = 0; k < n->nout_edges[p]; k++)
      mark(g, (uint32_t)g->edges[n->out_edges[p][k]].to);
}

/* The set from scratch (nodes, edges, states may have changed since the last run). */
static int ready_init(tg_graph *g) {
  free(g->ready), free(g->rpos);
  g->ready = zalloc(g->nn, sizeof(uint32_t)), g->rpos = zalloc(g->nn, sizeof(uint32_t)), g->nready = 0;
  if (!g->ready || !g->rpos)
    return fail(g, "out of memory (the set of nodes that can run, %u nodes)", g->nn);
  for (uint32_t i = 0; i < g->nn; i++)
    mark(g, i);
  return 0;
}

static int next_node(tg_graph *g) {
  if (!g->seed)
    return pick(g);
  return g->nready ? (int)g->ready[next_random(g) % g->nready] : -1;
}

/* Nothing can run: done, or why not. */
static int quiescent(tg_graph *g) {
  for (uint32_t i = 0; i < g->nn; i++) {
    const Node *n = &g->nodes[i];
    if (n->run == TG_INVALID)
      return fail(g, "deadlock: node %s is in the invalid run state", n->name);
    if (n->coroutine && n->run == TG_ACTIVE && n->want)
      for (uint32_t p = 0; p < n->nin; p++)
        if (n->cin[p].buf ? ss_event_waiting(&n->cin[p].ev) : g->edges[n->in_edge[p]].n == 0)
          return fail(g, "deadlock: coroutine %s is active and asked for input, but its input port %u gets no more "
                         "items", n->name, p);
    if (n->coroutine && n->run == TG_ACTIVE)
      for (uint32_t p = 0; p < n->nout; p++)
        for (uint32_t k = 0; k < n->nout_edges[p]; k++) {
          const Edge *e = &g->edges[n->out_edges[p][k]];
          if (e->n == e->cap)
            return fail(g, "deadlock: coroutine %s is active, but its edge to %s.in%u is full (%u items)", n->name,
                        g->nodes[e->to].name, e->to_port, e->cap);
        }
  }
  for (uint32_t i = 0; i < g->ne; i++) {
    const Edge *e = &g->edges[i];
    if (e->n)
      return fail(g, "deadlock: edge %s.out%u -> %s.in%u holds %u items that %s cannot take", g->nodes[e->from].name,
                  e->from_port, g->nodes[e->to].name, e->to_port, e->n, g->nodes[e->to].name);
  }
  for (uint32_t i = 0; i < g->nn; i++) {
    const Node *n = &g->nodes[i];
    for (uint32_t p = 0; p < n->nin; p++) {
      const Counted *c = &n->cin[p];
      if (!c->buf || (ss_event_waiting(&c->ev) && !ss_event_count(&c->ev))) /* armed, no posts: at rest */
        continue;
      if (!ss_event_waiting(&c->ev))
        return fail(g, "deadlock: counted port %s.in%u holds %u items (its EVENT WAIT for %u is complete) that %s "
                       "cannot take", n->name, p, c->n, n->in[p].count, n->name);
      return fail(g, "counted port %s.in%u: %u posts at the end, and its EVENT WAIT waits for %u (missing posts, or "
                     "excess posts after a firing took %u)", n->name, p, ss_event_count(&c->ev), n->in[p].count,
                  n->in[p].count);
    }
  }
  return 0;
}

int tg_run(tg_graph *g, uint64_t max_firings) {
  g->err[0] = 0;
  if (check_connected(g) || (g->seed && ready_init(g)))
    return -1;
  for (uint64_t f = 0; f < max_firings; f++) {
    int i = next_node(g);
    if (i < 0)
      return quiescent(g);
    if (fire(g, &g->nodes[i]))
      return -1;
    if (g->seed)
      mark_around(g, (uint32_t)i);
  }
  return next_node(g) < 0 ? quiescent(g) : 1;
}

int tg_sync_wait(tg_graph *g) { return tg_run(g, UINT64_MAX); }

int tg_resume(tg_graph *g, int node) {
  if (node < 0 || (uint32_t)node >= g->nn)
    return fail(g, "resume: no node %d", node);
  Node *n = &g->nodes[node];
  if (!n->coroutine)
    return fail(g, "resume %s: a function, not a coroutine", n->name);
  if (n->run == TG_FINAL || n->run == TG_INVALID) {
    n->run = TG_INVALID;
    return fail(g, "resume %s: the coroutine is in its final state: it may be invoked again, not resumed "
                   "(now in the invalid run state)", n->name);
  }
  if (n->run == TG_INITIAL)
    return fail(g, "resume %s: the coroutine has not been invoked", n->name);
  if (!outputs_have_room(g, n))
    return fail(g, "resume %s: an output edge is full", n->name);
  if (n->want && !inputs_there(g, n))
    return fail(g, "resume %s: the coroutine asked for input, and an input port has none", n->name);
  if (n->want && take_inputs(g, n))
    return -1;
  n->want = 0;
  return step(g, n) ? -1 : (int)n->run;
}

tg_run_state tg_node_run_state(const tg_graph *g, int node) { return g->nodes[node].run; }
const void *tg_node_state(const tg_graph *g, int node) { return g->nodes[node].state; }
uint64_t tg_node_firings(const tg_graph *g, int node) { return g->nodes[node].firings; }
uint32_t tg_edge_items(const tg_graph *g, int edge) { return g->edges[edge].n; }
uint64_t tg_firings(const tg_graph *g) { return g->firings; }

/* ---------------------------------------------------------- checkpoints */
/* Format (little-endian): "TGCK", u32 version 1, u32 shape (a hash of the
 * graph's nodes, ports, state sizes and edges), u32 nodes, u32 edges, u64
 * firings; per node: u32 run state, u32 flags (1: a function ran, 2: a
 * coroutine waits for input), u64 firings, u64 invocations,
 * the computation state (state_bytes), the current invocation's inputs
 * (its input items, in port order; a counted port's N); per edge: u32 items,
 * then the items from the oldest. Nothing follows. Version 2, for graphs
 * with counted ports (version 1 otherwise, so older checkpoints stay
 * valid): after a node's inputs, per counted port, its event (u32 count, u32
 * target: ss_counted.h's fields) and u32 items, then the items from the
 * oldest. */

#define TGCK_VERSION 1u
#define TGCK_VERSION_COUNTED 2u

static int has_counted(const tg_graph *g) {
  for (uint32_t i = 0; i < g->nn; i++)
    for (uint32_t p = 0; p < g->nodes[i].nin; p++)
      if (g->nodes[i].in[p].count)
        return 1;
  return 0;
}

static uint32_t fnv(uint32_t h, uint32_t v) {
  for (int i = 0; i < 4; i++)
    h = (h ^ (v >> (8 * i) & 0xffu)) * 16777619u;
  return h;
}

static uint32_t shape(const tg_graph *g) {
  uint32_t h = fnv(2166136261u, g->nn);
  for (uint32_t i = 0; i < g->nn; i++) {
    const Node *n = &g->nodes[i];
    h = fnv(fnv(fnv(fnv(h, (uint32_t)n->coroutine), n->nin), n->nout), n->state_bytes);
    for (uint32_t p = 0; p < n->nin; p++)
      h = n->in[p].count ? fnv(fnv(fnv(h, n->in[p].type), n->in[p].bytes), n->in[p].count)
                         : fnv(fnv(h, n->in[p].type), n->in[p].bytes);
    for (uint32_t p = 0; p < n->nout; p++)
      h = fnv(fnv(h, n->out[p].type), n->out[p].bytes);
  }
  h = fnv(h, g->ne);
  for (uint32_t i = 0; i < g->ne; i++) {
    const Edge *e = &g->edges[i];
    h = fnv(fnv(fnv(fnv(fnv(h, (uint32_t)e->from), e->from_port), (uint32_t)e->to), e->to_port), e->cap);
  }
  return h;
}

typedef struct {
  uint8_t *b;
  size_t n, cap;
  int oom;
} Out;

static void put(Out *o, const void *p, size_t len) {
  if (o->oom)
    return;
  if (o->n + len > o->cap) {
    size_t cap = o->cap ? o->cap : 256;
    while (cap < o->n + len)
      cap *= 2;
    uint8_t *nb = realloc(o->b, cap);
    if (!nb) {
      o->oom = 1;
      return;
    }
    o->b = nb, o->cap = cap;
  }
  if (len)
    memcpy(o->b + o->n, p, len);
  o->n += len;
}
static void put32(Out *o, uint32_t v) {
  uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  put(o, b, 4);
}
static void put64(Out *o, uint64_t v) { put32(o, (uint32_t)v), put32(o, (uint32_t)(v >> 32)); }

uint8_t *tg_checkpoint_mem(const tg_graph *g, size_t *len) {
  Out o = {0};
  put(&o, "TGCK", 4), put32(&o, has_counted(g) ? TGCK_VERSION_COUNTED : TGCK_VERSION), put32(&o, shape(g));
  put32(&o, g->nn), put32(&o, g->ne);
  put64(&o, g->firings);
  for (uint32_t i = 0; i < g->nn; i++) {
    const Node *n = &g->nodes[i];
    put32(&o, (uint32_t)n->run), put32(&o, n->ran | n->want << 1), put64(&o, n->firings), put64(&o, n->invocations);
    put(&o, n->state, n->state_bytes);
    for (uint32_t p = 0; p < n->nin; p++)
      put(&o, n->inbuf + n->in_off[p], port_bytes(&n->in[p]));
    for (uint32_t p = 0; p < n->nin; p++) {
      const Counted *c = &n->cin[p];
      if (!c->buf)
        continue;
      put32(&o, c->ev.count), put32(&o, c->ev.target), put32(&o, c->n);
      for (uint32_t k = 0; k < c->n; k++)
        put(&o, c->buf + (size_t)((c->head + k) % c->size) * n->in[p].bytes, n->in[p].bytes);
    }
  }
  for (uint32_t i = 0; i < g->ne; i++) {
    const Edge *e = &g->edges[i];
    put32(&o, e->n);
    for (uint32_t k = 0; k < e->n; k++)
      put(&o, e->buf + (size_t)((e->head + k) % e->cap) * e->bytes, e->bytes);
  }
  if (o.oom) {
    free(o.b);
    fail(g, "checkpoint: out of memory");
    return NULL;
  }
  *len = o.n;
  return o.b;
}

int tg_checkpoint(const tg_graph *g, const char *path) {
  size_t len;
  uint8_t *b = tg_checkpoint_mem(g, &len);
  if (!b)
    return -1;
  FILE *f = fopen(path, "wb");
  int ok = f && fwrite(b, 1, len, f) == len;
  if (f && fclose(f) != 0)
    ok = 0;
  free(b);
  return ok ? 0 : fail(g, "%s: cannot write the checkpoint", path);
}

typedef struct {
  const uint8_t *b;
  size_t n, at;
  const char *name;
  tg_graph *g;
  int bad;
} In;

static int need(In *in, size_t len, const char *what) {
  if (in->bad)
    return 0;
  if (in->n - in->at < len) {
    in->bad = 1;
    fail(in->g, "%s: offset %zu: error: the checkpoint ends inside %s (%zu bytes left, %zu needed)", in->name, in->at,
         what, in->n - in->at, len);
    return 0;
  }
  return 1;
}
static uint32_t get32(In *in, const char *what) {
  if (!need(in, 4, what))
    return 0;
  const uint8_t *p = in->b + in->at;
  in->at += 4;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get64(In *in, const char *what) {
  uint64_t lo = get32(in, what);
  return lo | (uint64_t)get32(in, what) << 32;
}
static const uint8_t *get(In *in, size_t len, const char *what) {
  if (!need(in, len, what))
    return NULL;
  in->at += len;
  return in->b + in->at - len;
}
static int bad(In *in, const char *fmt, uint32_t v, uint32_t limit) {
  if (in->bad)
    return 1;
  in->bad = 1;
  char what[160];
  snprintf(what, sizeof(what), fmt, v, limit);
  return fail(in->g, "%s: offset %zu: error: %s", in->name, in->at, what), 1;
}

/* A node's run state and flags (1: a function ran, 2: an active coroutine
 * with inputs waits for them), as a checkpoint or a back end gives them. */
static int bad_run_state(const Node *n, uint32_t run) {
  return run > TG_INVALID || (!n->coroutine && run != TG_INITIAL);
}
static int bad_flags(const Node *n, uint32_t run, uint32_t flags) {
  return flags > 3 || (flags > 1 && (!n->coroutine || run != TG_ACTIVE || !n->nin));
}

/* A counted port's event and items: a wait for N armed with fewer than N
 * posts (all held), or a completed wait (N held) and at most N posts more. */
static int restore_counted(In *in, Node *n, uint32_t p, int apply) {
  Counted *c = &n->cin[p];
  uint32_t N = n->in[p].count, count = get32(in, "a counted port's count"), target = get32(in, "a counted port's wait");
  uint32_t items = get32(in, "a counted port's item count");
  if (in->bad)
    return -1;
  int waiting = target == (N << 2 | SS_EVENT_WAITING);
  if (!waiting && target != 0)
    return bad(in, "a counted port's wait %08x (0, or its count %u armed)", target, N), -1;
  if (count > N - (uint32_t)waiting || (waiting && count == N))
    return bad(in, "a counted port's count %u (at most %u)", count, N - (uint32_t)waiting), -1;
  if (items != count + (waiting ? 0 : N))
    return bad(in, "a counted port holds %u items for a count of %u", items, count), -1;
  const uint8_t *data = get(in, (size_t)items * n->in[p].bytes, "a counted port's items");
  if (apply && data) {
    c->ev.count = count, c->ev.target = target, c->head = 0, c->n = items;
    if (items)
      memcpy(c->buf, data, (size_t)items * n->in[p].bytes);
  }
  return in->bad ? -1 : 0;
}

/* One pass over the checkpoint: checks everything, and writes into the
 * graph only when APPLY (the second pass, after a clean first). */
static int restore_pass(In *in, int apply) {
  tg_graph *g = in->g;
  const uint8_t *magic = get(in, 4, "the magic");
  if (magic && memcmp(magic, "TGCK", 4))
    return fail(g, "%s: offset 0: error: not a task-graph checkpoint (it must begin with \"TGCK\")", in->name);
  uint32_t v = get32(in, "the version");
  uint32_t want = has_counted(g) ? TGCK_VERSION_COUNTED : TGCK_VERSION;
  if (!in->bad && v != want && bad(in, "version %u, and this graph's checkpoints are version %u", v, want))
    return -1;
  uint32_t sh = get32(in, "the graph's shape");
  if (!in->bad && sh != shape(g) && bad(in, "the checkpoint's graph (shape %08x) is not this graph (%08x)", sh, shape(g)))
    return -1;
  uint32_t nn = get32(in, "the node count"), ne = get32(in, "the edge count");
  if (!in->bad && nn != g->nn && bad(in, "%u nodes, the graph has %u", nn, g->nn))
    return -1;
  if (!in->bad && ne != g->ne && bad(in, "%u edges, the graph has %u", ne, g->ne))
    return -1;
  uint64_t firings = get64(in, "the firing count");
  for (uint32_t i = 0; i < g->nn && !in->bad; i++) {
    Node *n = &g->nodes[i];
    uint32_t run = get32(in, "a run state"), ran = get32(in, "a node's flag");
    if (!in->bad && bad_run_state(n, run) &&
        bad(in, "run state %u (a function is 0, a coroutine 0..%u)", run, TG_INVALID))
      return -1;
    if (!in->bad && bad_flags(n, run, ran) &&
        bad(in, "flags %u (bit 1 only for an active coroutine with inputs), at most %u", ran, 3))
      return -1;
    uint64_t nf = get64(in, "a node's firings"), ni = get64(in, "a node's invocations");
    const uint8_t *st = get(in, n->state_bytes, "a computation state");
    if (apply && !in->bad) {
      n->run = (tg_run_state)run, n->ran = ran & 1u, n->want = ran >> 1, n->firings = nf, n->invocations = ni;
      if (n->state_bytes)
        memcpy(n->state, st, n->state_bytes);
    }
    for (uint32_t p = 0; p < n->nin && !in->bad; p++) {
      const uint8_t *item = get(in, port_bytes(&n->in[p]), "an invocation's input");
      if (apply && item)
        memcpy(n->inbuf + n->in_off[p], item, port_bytes(&n->in[p]));
    }
    for (uint32_t p = 0; p < n->nin && !in->bad; p++)
      if (n->cin[p].buf && restore_counted(in, n, p, apply))
        return -1;
  }
  for (uint32_t i = 0; i < g->ne && !in->bad; i++) {
    Edge *e = &g->edges[i];
    uint32_t items = get32(in, "an edge's item count");
    if (!in->bad && items > e->cap && bad(in, "%u items on an edge of capacity %u", items, e->cap))
      return -1;
    if (!in->bad && items && g->nodes[e->to].cin[e->to_port].buf &&
        bad(in, "%u items on edge %u, which goes into a counted port (its items are the port's)", items, i))
      return -1;
    const uint8_t *data = get(in, (size_t)items * e->bytes, "an edge's items");
    if (apply && data) {
      e->head = 0, e->n = items;
      if (items)
        memcpy(e->buf, data, (size_t)items * e->bytes);
    }
  }
  if (in->bad)
    return -1;
  if (in->at != in->n)
    return bad(in, "%u bytes after the end of the checkpoint (of %u)", (uint32_t)(in->n - in->at), (uint32_t)in->at), -1;
  if (apply)
    g->firings = firings;
  return 0;
}

int tg_restore_mem(tg_graph *g, const uint8_t *buf, size_t len, const char *name) {
  In in = {buf, len, 0, name ? name : "checkpoint", g, 0};
  if (restore_pass(&in, 0))
    return -1;
  in.at = 0;
  return restore_pass(&in, 1);
}

int tg_restore(tg_graph *g, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return fail(g, "%s: cannot open the checkpoint", path);
  Out o = {0};
  uint8_t chunk[65536];
  size_t k;
  while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
    put(&o, chunk, k);
  int err = ferror(f);
  fclose(f);
  if (err || o.oom) {
    free(o.b);
    return fail(g, "%s: cannot read the checkpoint", path);
  }
  int r = tg_restore_mem(g, o.b, o.n, path);
  free(o.b);
  return r;
}

/* ------------------------------------------------------ for back ends */

uint32_t tg_num_nodes(const tg_graph *g) { return g->nn; }
uint32_t tg_num_edges(const tg_graph *g) { return g->ne; }

void tg_node_describe(const tg_graph *g, int node, tg_node_info *info) {
  const Node *n = &g->nodes[node];
  *info = (tg_node_info){n->name, n->coroutine, n->fn, n->co, n->ctx, n->nin, n->nout, n->in, n->out,
                         n->state_bytes, n->init, n->invocations};
}

void tg_edge_describe(const tg_graph *g, int edge, tg_edge_info *info) {
  const Edge *e = &g->edges[edge];
  *info = (tg_edge_info){e->from, e->to, e->from_port, e->to_port, e->cap};
}

int tg_node_load(tg_graph *g, int node, tg_run_state run, uint32_t flags, uint64_t firings, uint64_t invocations,
                 const void *state, const void *const *inputs) {
  if (node < 0 || (uint32_t)node >= g->nn)
    return fail(g, "load: no node %d (the graph has %u)", node, g->nn);
  Node *n = &g->nodes[node];
  if (bad_run_state(n, (uint32_t)run))
    return fail(g, "load %s: run state %d (a function is 0, a coroutine 0..%d)", n->name, (int)run, TG_INVALID);
  if (bad_flags(n, (uint32_t)run, flags))
    return fail(g, "load %s: flags %u (bit 1 only for an active coroutine with inputs)", n->name, flags);
  for (uint32_t p = 0; p < n->nin; p++)
    if (n->cin[p].buf)
      return fail(g, "load %s: input port %u is counted (tg_node_load takes plain ports only)", n->name, p);
  g->firings += firings - n->firings;
  n->run = run, n->ran = flags & 1u, n->want = flags >> 1, n->firings = firings, n->invocations = invocations;
  if (n->state_bytes && state)
    memcpy(n->state, state, n->state_bytes);
  for (uint32_t p = 0; p < n->nin; p++) {
    if (inputs && inputs[p])
      memcpy(n->inbuf + n->in_off[p], inputs[p], n->in[p].bytes);
    else
      memset(n->inbuf + n->in_off[p], 0, n->in[p].bytes);
  }
  return 0;
}

int tg_edge_load(tg_graph *g, int edge, uint32_t items, const void *data) {
  if (edge < 0 || (uint32_t)edge >= g->ne)
    return fail(g, "load: no edge %d (the graph has %u)", edge, g->ne);
  Edge *e = &g->edges[edge];
  if (items > e->cap)
    return fail(g, "load: %u items on edge %s.out%u -> %s.in%u of capacity %u", items, g->nodes[e->from].name,
                e->from_port, g->nodes[e->to].name, e->to_port, e->cap);
  if (g->nodes[e->to].cin[e->to_port].buf)
    return fail(g, "load: edge %d goes into a counted port (tg_edge_load takes plain ports only)", edge);
  e->head = 0, e->n = items;
  if (items)
    memcpy(e->buf, data, (size_t)items * e->bytes);
  return 0;
}

uint32_t tg_node_flags(const tg_graph *g, int node) {
  const Node *n = &g->nodes[node];
  return n->ran | n->want << 1;
}

const void *tg_node_input(const tg_graph *g, int node, uint32_t port) {
  const Node *n = &g->nodes[node];
  return n->inbuf + n->in_off[port];
}

void tg_edge_read(const tg_graph *g, int edge, void *data) {
  const Edge *e = &g->edges[edge];
  for (uint32_t k = 0, at = e->head; k < e->n; k++, at = at + 1 == e->cap ? 0 : at + 1)
    memcpy((uint8_t *)data + (size_t)k * e->bytes, e->buf + (size_t)at * e->bytes, e->bytes);
}
