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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2t_engine.h"
#include "softswitch.h"

typedef struct {
  /* Handlers read payloads as structs: aligned as in a Tinsel message
   * (after the 8-byte header). */
  _Alignas(8) uint8_t payload[SS_MAX_PAYLOAD];
  int dev;
  int16_t type;          /* -1: to the controller */
  uint8_t pin, slot, has_props;
} Msg;

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

/* Re-evaluates a device's ReadyToSend and its place in the ready list. */
static void update_rts(Engine *e, int t, int d) {
  const ss_dev_type *dt = &ss_dev_types[t];
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

static int end_pin_of(op2t_run *r, int t) {
  for (int i = 0; i < r->inv->ninvolved; i++)
    if (r->inv->involved[i].type == t)
      return r->inv->involved[i].end_pin;
  return -1;
}

static void deliver(Engine *e, Queue *q, size_t i) {
  Msg m = q->m[i];
  q->m[i] = q->m[--q->n];
  op2t_run *r = e->r;
  if (m.type < 0) {
    r->on_end(r, m.pin, m.dev, m.payload);
    return;
  }
  if (q == &e->begins)
    e->begun[m.type][m.dev] = 1;
  else if (!e->begun[m.type][m.dev])
    r->counts->early++;
  const ss_dev_type *dt = &ss_dev_types[m.type];
  if (m.pin >= dt->num_in_pins || !dt->recv[m.pin]) {
    fprintf(stderr, "op2 tinsel: %s: message for input pin %d of %s %d, which has no handler\n",
            r->inv->name, m.pin, r->graph->types[m.type].name, m.dev);
    exit(1);
  }
  uint8_t edge_props = m.slot;
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
  int send = dt->send[pin](r->graph_props, props_of(r, t, d), state_of(r, t, d), payload);
  r->counts->handlers++;
  update_rts(e, t, d);
  if (!send)
    return;
  if (pin == end_pin_of(r, t)) {
    Msg *m = push(&e->q);
    m->type = -1;
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
  /* The host's begin to every involved device. */
  for (int i = 0; i < r->inv->ninvolved; i++) {
    const op2t_involved *iv = &r->inv->involved[i];
    for (int d = 0; d < r->devs[iv->type].n; d++) {
      Msg *m = push(&e.begins);
      m->type = (int16_t)iv->type;
      m->dev = d;
      m->pin = (uint8_t)iv->begin_pin;
      memcpy(m->payload, r->begin, (size_t)r->inv->begin_bytes);
      r->counts->begin++;
    }
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
  free(e.pos);
  free(e.rts);
  free(e.begun);
  free(e.ready);
  free(e.q.m);
  free(e.begins.m);
  return 0;
}

const op2t_engine op2t_engine_functional = {"functional", run};
