/*
 * engine_functional.c: runs an invocation by calling the generated device
 * handlers (the softswitch's table, ss_dev_types, compiled for the host)
 * with messages delivered in a seeded random order.
 *
 * Each step picks uniformly among every message in flight and every
 * device that is ready to send, so a read or write may overtake its begin,
 * ends may come back in any order, and a ready device may wait while others
 * run: the orders Tinsel's network and softswitch can produce, and more.
 * A device that is ready sends from one of its ready pins, chosen at
 * random too (the softswitch takes the lowest; the protocol must not care).
 * OP2_TINSEL_ORDER=begin-last holds every begin back until nothing else
 * can happen, so as much as possible arrives before it.
 *
 * With a placement (op2t_run.thread) begin and end are per thread: the
 * host's one begin per involved thread is handed by the thread (as the
 * softswitch's system handler would) to each of its involved devices, and
 * each device end is posted into its thread's ss_tree_node, which sends one
 * end to its parent thread, or the host, when its counted event fires.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "images.h"
#include "op2t_engine.h"
#include "op2t_internal.h"
#include "softswitch.h"

typedef struct {
  /* Handlers read payloads as structs: aligned as in a Tinsel message
   * (after the 8-byte header). */
  _Alignas(8) uint8_t payload[SS_MAX_PAYLOAD];
  int dev;
  int16_t type;          /* >= 0: a device; else MSG_* */
  uint8_t pin, slot, has_props;
  uint32_t devices;      /* MSG_HOST, MSG_TREE: devices whose ends it carries */
} Msg;

/* Messages that are not for a device's pin. */
enum { MSG_HOST = -1, MSG_BEGIN = -2, MSG_TREE = -3 };

/* Thread granularity: the involved threads as tree nodes (ss_tree.h),
 * node i holding devices dev[first[i] .. first[i+1]). */
typedef struct {
  int type, dev;
  uint32_t thread;
} Placed;

typedef struct {
  int n;
  int *first;
  Placed *dev;
  ss_tree_node *node;
  int **node_of;         /* [type][dev] */
} Tree;

typedef struct {
  Msg *m;
  size_t n, cap;
} Queue;

typedef struct {
  op2t_run *r;
  Queue q, begins;       /* messages in flight; begins apart, for begin-last */
  int begin_last;
  uint8_t **begun;       /* [type][dev]: its begin has arrived */
  int *ready;            /* (type << 24 | dev) of devices whose rts is non-zero */
  int nready;
  int **pos;             /* [type][dev]: index in ready, or -1 */
  uint32_t **rts;        /* [type][dev] */
  Tree tree;             /* tree.n == 0: per-device begin and end */
  uint64_t rng;
} Engine;

static uint64_t next_random(Engine *e) {
  e->rng ^= e->rng << 13;
  e->rng ^= e->rng >> 7;
  e->rng ^= e->rng << 17;
  return e->rng;
}

static void *xmalloc(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (!p) {
    fprintf(stderr, "op2 tinsel: out of memory (%zu bytes)\n", n);
    exit(1);
  }
  return p;
}

static Msg *push(Queue *q) {
  if (q->n == q->cap) {
    q->cap = q->cap ? 2 * q->cap : 1024;
    q->m = realloc(q->m, q->cap * sizeof(Msg));
    if (!q->m) {
      fprintf(stderr, "op2 tinsel: out of memory for messages in flight\n");
      exit(1);
    }
  }
  Msg *m = &q->m[q->n++];
  memset(m, 0, sizeof(*m));
  return m;
}

static char *props_of(op2t_run *r, int t, int d) { return r->devs[t].props + (size_t)d * r->devs[t].props_bytes; }
static char *state_of(op2t_run *r, int t, int d) { return r->devs[t].state + (size_t)d * r->devs[t].state_bytes; }

/* Device output (devout.c) is the thread's that device T D is placed on,
 * or the device's own when devices are not placed (begin and end per device). */
static void device_at(op2t_run *r, int t, int d) {
  const uint32_t *const *th = r->thread;
  if (th && th[t])
    op2t_devout_at(place_thread_addr(op2t_machine(), th[t][d]));
  else
    op2t_devout_at_device(r->graph->types[t].name, t, d);
}

/* Re-evaluates a device's ReadyToSend and its place in the ready list. */
static void update_rts(Engine *e, int t, int d) {
  const ss_dev_type *dt = &ss_dev_types[t];
  device_at(e->r, t, d);
  uint32_t w = dt->rts ? dt->rts(e->r->graph_props, props_of(e->r, t, d), state_of(e->r, t, d)) : 0;
  e->rts[t][d] = w;
  int *p = &e->pos[t][d];
  if (w && *p < 0) {
    *p = e->nready;
    e->ready[e->nready++] = t << 24 | d;
  } else if (!w && *p >= 0) {
    int last = e->ready[--e->nready];
    e->ready[*p] = last;
    e->pos[last >> 24][last & 0xffffff] = *p;
    *p = -1;
  }
}

static const op2t_fanout *fanout_of(op2t_run *r, int t, int pin) {
  for (int i = 0; i < r->nfanouts; i++)
    if (r->fanouts[i].type == t && r->fanouts[i].pin == pin)
      return &r->fanouts[i];
  return NULL;
}

static const op2t_involved *involved_of(op2t_run *r, int t) {
  for (int i = 0; i < r->inv->ninvolved; i++)
    if (r->inv->involved[i].type == t)
      return &r->inv->involved[i];
  return NULL;
}
static int end_pin_of(op2t_run *r, int t) { return involved_of(r, t) ? involved_of(r, t)->end_pin : -1; }
static int begin_pin_of(op2t_run *r, int t) { return involved_of(r, t) ? involved_of(r, t)->begin_pin : -1; }
/* Device D of involved type T gets the begin and ends (op2t_takes_part). */
static int takes_part(const op2t_run *r, int t, int d) { return !r->part || !r->part[t] || r->part[t][d]; }

/* A device's end, or a child thread's combined end, reaches thread node
 * NODE; when its count reaches its target it sends one end up the tree. */
static void post_end(Engine *e, int node, const void *payload, uint32_t devices) {
  op2t_run *r = e->r;
  ss_tree_node *t = &e->tree.node[node];
  if (!ss_tree_post(t, payload, (uint32_t)r->inv->end_bytes, r->combine, devices))
    return;
  if (t->bad_round) {
    fprintf(stderr, "op2 tinsel: %s: thread %u folded ends of different rounds\n", r->inv->name,
            e->tree.dev[e->tree.first[node]].thread);
    exit(1);
  }
  Msg *m = push(&e->q);
  m->type = node ? MSG_TREE : MSG_HOST;
  m->dev = node ? (int)ss_tree_parent((uint32_t)node, (uint32_t)r->fanin) : 0;
  m->devices = t->devices;
  memcpy(m->payload, t->acc, sizeof(m->payload));
  r->counts->end++;
  if (node)
    r->counts->tree_msgs++;
  else
    r->counts->host_ends++;
  ss_tree_reset(t);
}

static void run_recv(Engine *e, const Msg *m);

static void deliver(Engine *e, Queue *q, size_t i) {
  Msg m = q->m[i];
  q->m[i] = q->m[--q->n];
  op2t_run *r = e->r;
  if (m.type == MSG_HOST) {
    r->on_end(r, e->tree.n ? -1 : m.pin, e->tree.n ? -1 : m.dev, m.devices, m.payload);
    return;
  }
  if (m.type == MSG_TREE) {
    post_end(e, m.dev, m.payload, m.devices);
    return;
  }
  if (m.type == MSG_BEGIN) {
    /* The softswitch's system handler: the thread's one begin goes to
     * each of its devices in the invocation, no message each. */
    for (int k = e->tree.first[m.dev]; k < e->tree.first[m.dev + 1]; k++) {
      const Placed *p = &e->tree.dev[k];
      Msg one = m;
      one.type = (int16_t)p->type;
      one.dev = p->dev;
      one.pin = (uint8_t)begin_pin_of(r, p->type);
      e->begun[p->type][p->dev] = 1;
      run_recv(e, &one);
    }
    return;
  }
  if (q == &e->begins)
    e->begun[m.type][m.dev] = 1;
  else if (!e->begun[m.type][m.dev])
    r->counts->early++;
  run_recv(e, &m);
}

static void run_recv(Engine *e, const Msg *mp) {
  op2t_run *r = e->r;
  Msg m = *mp;
  const ss_dev_type *dt = &ss_dev_types[m.type];
  if (m.pin >= dt->num_in_pins || !dt->recv[m.pin]) {
    fprintf(stderr, "op2 tinsel: %s: message for input pin %d of %s %d, which has no handler\n",
            r->inv->name, m.pin, r->graph->types[m.type].name, m.dev);
    exit(1);
  }
  uint8_t edge_props = m.slot;
  device_at(r, m.type, m.dev);
  dt->recv[m.pin](r->graph_props, props_of(r, m.type, m.dev), state_of(r, m.type, m.dev),
                  m.has_props ? &edge_props : NULL, m.payload);
  r->counts->handlers++;
  update_rts(e, m.type, m.dev);
}

static int pick_bit(Engine *e, uint32_t w) {
  int bits[32], n = 0;
  for (int b = 0; b < 32; b++)
    if (w >> b & 1)
      bits[n++] = b;
  return bits[next_random(e) % (uint64_t)n];
}

static void send_from(Engine *e, int t, int d) {
  op2t_run *r = e->r;
  const ss_dev_type *dt = &ss_dev_types[t];
  int pin = pick_bit(e, e->rts[t][d]);
  if (pin >= dt->num_out_pins || !dt->send[pin]) {
    fprintf(stderr, "op2 tinsel: %s: %s %d is ready on output pin %d, which has no handler\n", r->inv->name,
            r->graph->types[t].name, d, pin);
    exit(1);
  }
  _Alignas(8) uint8_t payload[SS_MAX_PAYLOAD] = {0};
  device_at(r, t, d);
  int send = dt->send[pin](r->graph_props, props_of(r, t, d), state_of(r, t, d), payload);
  r->counts->handlers++;
  update_rts(e, t, d);
  if (!send)
    return;
  if (pin == end_pin_of(r, t)) {
    if (e->tree.n) {
      post_end(e, e->tree.node_of[t][d], payload, 1);
      return;
    }
    Msg *m = push(&e->q);
    m->type = MSG_HOST;
    m->devices = 1;
    r->counts->host_ends++;
    m->pin = (uint8_t)t;
    m->dev = d;
    memcpy(m->payload, payload, sizeof(payload));
    r->counts->end++;
    return;
  }
  const op2t_fanout *f = fanout_of(r, t, pin);
  if (!f)
    return; /* a pin without edges in this invocation */
  int n = f->start[d + 1] - f->start[d];
  if (n == 0)
    return; /* nobody reads this device's value: no message */
  if (f->kind == OP2T_EDGE_READ) {
    r->counts->read_sends++;
    r->counts->read_edges += n;
  } else {
    r->counts->write_sends++;
    r->counts->write_edges += n;
  }
  for (int k = f->start[d]; k < f->start[d + 1]; k++) {
    const op2t_edge *ed = &f->edges[k];
    Msg *m = push(&e->q);
    m->type = ed->type;
    m->dev = ed->dev;
    m->pin = ed->pin;
    m->slot = ed->slot;
    m->has_props = ed->has_props;
    memcpy(m->payload, payload, sizeof(payload));
  }
}

static int by_thread(const void *a, const void *b) {
  const Placed *x = a, *y = b;
  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->type != y->type ? x->type - y->type : x->dev - y->dev;
}

/* The involved threads in thread order, as nodes of a FANIN-ary tree, each
 * armed for its own devices and its children. */
static void build_tree(Engine *e) {
  op2t_run *r = e->r;
  Tree *t = &e->tree;
  long n = 0;
  for (int i = 0; i < r->inv->ninvolved; i++)
    for (int d = 0; d < r->devs[r->inv->involved[i].type].n; d++)
      n += takes_part(r, r->inv->involved[i].type, d);
  t->dev = xmalloc(sizeof(Placed) * (size_t)n);
  t->node_of = xmalloc(sizeof(int *) * (size_t)r->graph->ntypes);
  long k = 0;
  for (int i = 0; i < r->inv->ninvolved; i++) {
    int ty = r->inv->involved[i].type;
    t->node_of[ty] = xmalloc(sizeof(int) * (size_t)r->devs[ty].n);
    for (int d = 0; d < r->devs[ty].n; d++)
      if (takes_part(r, ty, d))
        t->dev[k++] = (Placed){ty, d, r->thread[ty][d]};
  }
  qsort(t->dev, (size_t)n, sizeof(Placed), by_thread);
  t->first = xmalloc(sizeof(int) * (size_t)(n + 1));
  long mboxes = 0;
  for (long j = 0; j < n; j++) {
    if (j == 0 || t->dev[j].thread != t->dev[j - 1].thread) {
      t->first[t->n++] = (int)j;
      mboxes += j == 0 || t->dev[j].thread / (uint32_t)r->threads_per_mbox !=
                               t->dev[j - 1].thread / (uint32_t)r->threads_per_mbox;
    }
    t->node_of[t->dev[j].type][t->dev[j].dev] = t->n - 1;
  }
  t->first[t->n] = (int)n;
  t->node = xmalloc(sizeof(ss_tree_node) * (size_t)(t->n + 1));
  for (int j = 0; j < t->n; j++)
    ss_tree_init(&t->node[j], (uint32_t)(t->first[j + 1] - t->first[j]),
                 ss_tree_children((uint32_t)j, (uint32_t)t->n, (uint32_t)r->fanin));
  r->counts->threads += t->n;
  r->counts->mboxes += mboxes;
}

static void free_tree(Tree *t, int ntypes) {
  for (int i = 0; t->node_of && i < ntypes; i++)
    free(t->node_of[i]);
  free(t->node_of);
  free(t->dev);
  free(t->first);
  free(t->node);
}

static int run(op2t_run *r) {
  const char *order = getenv("OP2_TINSEL_ORDER");
  Engine e = {.r = r, .rng = r->seed * 2654435761u + 88172645463325252ull};
  if (order && *order && strcmp(order, "random") != 0) {
    if (strcmp(order, "begin-last") != 0) {
      fprintf(stderr, "op2 tinsel: OP2_TINSEL_ORDER=%s: expected random or begin-last\n", order);
      return 1;
    }
    e.begin_last = 1;
  }
  int ntypes = r->graph->ntypes;
  e.pos = xmalloc(sizeof(int *) * (size_t)ntypes);
  e.rts = xmalloc(sizeof(uint32_t *) * (size_t)ntypes);
  e.begun = xmalloc(sizeof(uint8_t *) * (size_t)ntypes);
  long total = 0;
  for (int t = 0; t < ntypes; t++) {
    int n = r->devs[t].n;
    e.pos[t] = xmalloc(sizeof(int) * (size_t)n);
    e.rts[t] = xmalloc(sizeof(uint32_t) * (size_t)n);
    e.begun[t] = xmalloc((size_t)n);
    for (int d = 0; d < n; d++)
      e.pos[t][d] = -1;
    total += n;
  }
  e.ready = xmalloc(sizeof(int) * (size_t)(total + 1));
  if (r->thread)
    build_tree(&e);
  /* The host's begin: to every involved thread (its system handler gives
   * it to the thread's devices), or to every involved device. */
  for (int i = 0; !r->thread && i < r->inv->ninvolved; i++) {
    const op2t_involved *iv = &r->inv->involved[i];
    for (int d = 0; d < r->devs[iv->type].n; d++) {
      if (!takes_part(r, iv->type, d))
        continue;
      Msg *m = push(&e.begins);
      m->type = (int16_t)iv->type;
      m->dev = d;
      m->pin = (uint8_t)iv->begin_pin;
      memcpy(m->payload, r->begin, (size_t)r->inv->begin_bytes);
      r->counts->begin++;
    }
  }
  for (int k = 0; k < e.tree.n; k++) {
    Msg *m = push(&e.begins);
    m->type = MSG_BEGIN;
    m->dev = k;
    memcpy(m->payload, r->begin, (size_t)r->inv->begin_bytes);
    r->counts->begin++;
  }
  for (int i = 0; i < r->inv->ninvolved; i++)
    for (int d = 0; d < r->devs[r->inv->involved[i].type].n; d++)
      update_rts(&e, r->inv->involved[i].type, d);
  /* Every step delivers a message or runs a send handler; a correct
   * protocol needs a few per device and edge. More means a livelock. */
  long edges = 0;
  for (int i = 0; i < r->nfanouts; i++)
    edges += r->fanouts[i].start[r->devs[r->fanouts[i].type].n];
  long steps = 0, max_steps = 1000000 + 64 * (total + edges);
  for (;;) {
    uint64_t others = e.q.n + (uint64_t)e.nready, all = others + e.begins.n;
    if (all == 0)
      break;
    if (++steps > max_steps) {
      fprintf(stderr, "op2 tinsel: %s: no end after %ld steps, %d devices still ready to send (a livelock)\n",
              r->inv->name, steps, e.nready);
      return 1;
    }
    uint64_t k = next_random(&e) % (e.begin_last && others ? others : all);
    if (k < e.q.n)
      deliver(&e, &e.q, (size_t)k);
    else if (k < others) {
      int who = e.ready[k - e.q.n];
      send_from(&e, who >> 24, who & 0xffffff);
    } else {
      deliver(&e, &e.begins, (size_t)(k - others));
    }
  }
  for (int t = 0; t < ntypes; t++) {
    free(e.pos[t]);
    free(e.rts[t]);
    free(e.begun[t]);
  }
  free_tree(&e.tree, ntypes);
  free(e.pos);
  free(e.rts);
  free(e.begun);
  free(e.ready);
  free(e.q.m);
  free(e.begins.m);
  return 0;
}

const op2t_engine op2t_engine_functional = {
    .name = "functional",
    .what = "the generated handlers run natively on the host, seeded random delivery order",
    .run = run,
};
