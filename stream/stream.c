// stream.c: MERCATOR's scheduling protocol (seed 001); see stream.h and
// docs/stream.md. No library calls: it builds for the firmware as is.
#include <string.h>
#include "stream.h"

#define LOCAL(g, i) ((g)->place[i] == (g)->me)

void stream_init(stream_graph *g, uint32_t me) {
  memset(g, 0, sizeof *g);
  g->me = me;
}

uint32_t stream_add(stream_graph *g, const char *name, uint32_t producer, uint32_t region,
                    uint32_t heads, uint32_t width, uint32_t max_out, stream_fn fn, stream_sig_fn sig,
                    uint32_t qcap, uint32_t scap) {
  if (g->nnodes >= STREAM_MAX_NODES) { g->errors++; return STREAM_NONE; }
  uint32_t i = g->nnodes++;
  stream_node *n = &g->nodes[i];
  for (uint32_t k = 0; k < sizeof n->name - 1 && name && name[k]; k++) n->name[k] = name[k];
  n->region = (uint8_t)region;
  n->heads = (uint8_t)heads;
  n->flush = STREAM_NO_FLUSH;
  n->producer = (uint8_t)producer;
  n->releases = STREAM_NONE;
  n->source = producer == STREAM_NONE;
  n->active = n->source;  // initially only the source is active
  n->width = width ? width : 1;
  n->max_out = max_out;
  n->kind = (uint8_t)i;
  g->fns[i] = (stream_fns){fn, sig};
  n->in.cap = qcap;
  n->in.scap = scap;
  if (producer < g->nnodes - 1) {
    stream_node *p = &g->nodes[producer];
    if (p->nout < STREAM_MAX_OUT) p->out[p->nout++] = (uint8_t)i;
    else g->errors++;
  }
  return i;
}

const char *stream_check(const stream_graph *g) {
  if (g->errors) return "too many nodes or successors";
  for (uint32_t i = 0; i < g->nnodes; i++) {
    const stream_node *n = &g->nodes[i];
    if (n->width > STREAM_MAX_WIDTH) return "a node's width is over STREAM_MAX_WIDTH";
    if (!n->source && n->heads != STREAM_NONE && n->heads <= n->region) return "a head's region must be below the region it heads";
    if (n->source) continue;
    if (n->producer >= i) return "a node's producer must come before it";
    const stream_node *p = &g->nodes[n->producer];
    if (n->in.cap > STREAM_QCAP || n->in.scap > STREAM_SCAP) return "a queue is over STREAM_QCAP or STREAM_SCAP";
    if (n->in.cap < p->max_out + n->width - 1)
      return "a data queue is smaller than its producer's max_out + its width - 1";
    if (n->in.scap < STREAM_SIGNALS_PER_RUN) return "a signal queue is smaller than STREAM_SIGNALS_PER_RUN";
    if (g->place[i] >= STREAM_MAX_PARTS) return "a node's partition is over STREAM_MAX_PARTS";
  }
  return 0;
}

// ---------------------------------------------------------------- queues

// Ring positions without a division (Tinsel has no divide instruction).
static uint32_t wrap(uint32_t i, uint32_t cap) { return i >= cap ? i - cap : i; }

static int push_item(stream_queue *q, uint32_t v) {
  if (q->n == q->cap) return 0;
  q->items[wrap(q->head + q->n, q->cap)] = v;
  q->n++;
  q->since_sig++;
  if (q->n > q->hw) q->hw = q->n;
  return 1;
}

// The signal's credit: the items ahead of it since the previous signal (all
// of the queue when no signal is pending).
static int push_signal(stream_queue *q, uint32_t tag, uint32_t arg) {
  if (q->sn == q->scap) return 0;
  stream_signal *s = &q->sigs[wrap(q->shead + q->sn, q->scap)];
  s->tag = tag;
  s->arg = arg;
  s->credit = q->sn ? q->since_sig : q->n;
  q->since_sig = 0;
  q->sn++;
  if (q->sn > q->shw) q->shw = q->sn;
  return 1;
}

// Free space of node c's input as its producer sees it: room[0] items,
// room[1] signals (indexed by STREAM_E_ITEM and STREAM_E_SIG).
static void space(const stream_graph *g, uint32_t c, uint32_t room[2]) {
  const stream_queue *q = &g->nodes[c].in;
  const stream_proxy *x = &g->proxy[c];
  int local = LOCAL(g, c);
  room[0] = q->cap - (local ? q->n : x->sent_items - x->freed_items);
  room[1] = q->scap - (local ? q->sn : x->sent_sigs - x->freed_sigs);
}

int stream_full(const stream_graph *g, uint32_t i) {
  uint32_t room[2];
  space(g, i, room);
  return room[0] < g->nodes[g->nodes[i].producer].max_out || room[1] < STREAM_SIGNALS_PER_RUN;
}

static int flushing(const stream_node *n) { return n->flush <= n->region; }

int stream_empty(const stream_graph *g, uint32_t i) {
  const stream_node *n = &g->nodes[i];
  uint32_t thresh = flushing(n) ? 1 : n->width;
  return n->in.n < thresh && n->in.sn == 0;
}

static void activate(stream_node *n) {
  if (!n->active) n->st.activations++;
  n->active = 1;
}

// ------------------------------------------------------------- outboxes

// (The proxy by pointer: its fields at small offsets, so one base register
// reaches them all.)
static void outbox_put(stream_proxy *x, uint32_t kind, uint32_t word, uint32_t *lost) {
  uint32_t n = x->ob_n, last = wrap(x->ob_head + n - 1, STREAM_OUTBOX);
  if (kind == STREAM_E_FLUSH && n && x->ob_kind[last] == STREAM_E_FLUSH) {
    // flushes in a row: the lowest region covers them
    if (word < x->ob_word[last]) x->ob_word[last] = word;
    return;
  }
  if (n == STREAM_OUTBOX) { ++*lost; return; }
  uint32_t at = wrap(x->ob_head + n, STREAM_OUTBOX);
  x->ob_kind[at] = (uint8_t)kind;
  x->ob_word[at] = word;
  x->ob_n = n + 1;
  if (kind == STREAM_E_ITEM) x->sent_items++;
  if (kind == STREAM_E_SIG) x->sent_sigs++;
  uint32_t used = (x->sent_items - x->freed_items) + (x->sent_sigs - x->freed_sigs);
  if (used > x->hw) x->hw = used;
}

// ------------------------------------------------------------- emitting

// One entry (an item, or a signal as its wire word) to successor `out`.
__attribute__((noinline)) static void emit(stream_graph *g, stream_node *n, uint32_t out, uint32_t kind, uint32_t word) {
  if (out >= n->nout) { g->errors++; return; }
  uint32_t c = n->out[out], room[2];
  if (kind == STREAM_E_ITEM && ++n->run_out > n->max_out) g->errors++;  // more than the node promised
  if (kind == STREAM_E_ITEM) n->st.items_out++;
  else n->st.sigs_out++;
  space(g, c, room);
  if (!room[kind]) { g->lost++; return; }
  if (!LOCAL(g, c)) outbox_put(&g->proxy[c], kind, word, &g->lost);
  else if (kind == STREAM_E_ITEM) push_item(&g->nodes[c].in, word);
  else push_signal(&g->nodes[c].in, word >> 24, word & 0xffffffu);
}

void stream_emit(stream_graph *g, stream_node *n, uint32_t out, uint32_t item) {
  emit(g, n, out, STREAM_E_ITEM, item);
}

void stream_emit_signal(stream_graph *g, stream_node *n, uint32_t out, uint32_t tag, uint32_t arg) {
  emit(g, n, out, STREAM_E_SIG, (tag & 0xffu) << 24 | (arg & 0xffffffu));
}

static void take_flush(stream_node *c, uint32_t region) {
  if (region < c->flush) c->flush = (uint8_t)region;
  activate(c);
}

void stream_flush_from(stream_graph *g, stream_node *n, uint32_t region) {
  for (uint32_t k = 0; k < n->nout; k++) {
    uint32_t c = n->out[k];
    if (g->nodes[c].region < region) continue;  // the flush stays in its region
    if (LOCAL(g, c)) take_flush(&g->nodes[c], region);
    else outbox_put(&g->proxy[c], STREAM_E_FLUSH, region, &g->lost);
  }
}

void stream_source_end(stream_graph *g, stream_node *n) {
  stream_flush_from(g, n, n->heads);
  n->active = 0;
}

int stream_pb_open(stream_graph *g, stream_node *n) {
  if (n->pb_used < n->pb_cap) {
    n->pb_used++;
    return 1;
  }
  // BLOCKED: make sure it will be unblocked: flush the region so the open
  // parents downstream are finished and released.
  n->blocked = 1;
  n->st.blocks++;
  stream_flush_from(g, n, n->heads);
  return 0;
}

static void pb_released(stream_node *e, uint32_t count) {
  e->pb_used = count > e->pb_used ? 0 : e->pb_used - count;
  e->blocked = 0;  // rescheduled: fireable again once its children allow
}

void stream_pb_release(stream_graph *g, uint32_t e) {
  if (e >= g->nnodes) { g->errors++; return; }
  if (LOCAL(g, e)) pb_released(&g->nodes[e], 1);
  else g->released[e]++;
}

// ------------------------------------------------------------- firing

static int child_active(const stream_graph *g, const stream_node *n) {
  for (uint32_t k = 0; k < n->nout; k++) {
    uint32_t c = n->out[k];
    if (LOCAL(g, c) ? g->nodes[c].active : stream_full(g, c)) return 1;
  }
  return 0;
}

int stream_fireable(const stream_graph *g, uint32_t i) {
  const stream_node *n = &g->nodes[i];
  return LOCAL(g, i) && n->active && !n->blocked && !child_active(g, n);
}

// After a run: activate every local child whose queue became FULL; 1 if
// any child is active (child_active: a remote one while FULL).
static int check_children(stream_graph *g, stream_node *n) {
  for (uint32_t k = 0; k < n->nout; k++) {
    uint32_t c = n->out[k];
    if (LOCAL(g, c) && stream_full(g, c)) activate(&g->nodes[c]);
  }
  return child_active(g, n);
}

static void fire_source(stream_graph *g, stream_node *n, stream_fn fn) {
  for (;;) {
    n->st.runs++;
    n->run_out = 0;
    fn(g, n, 0, 0);
    int kids = check_children(g, n);
    if (!n->active || kids || n->blocked) break;
  }
}

void stream_fire(stream_graph *g, uint32_t i) {
  stream_node *n = &g->nodes[i];
  stream_queue *q = &n->in;
  n->st.firings++;
  g->firings++;
  if (n->source) { fire_source(g, n, g->fns[i].fn); return; }
  int fl = flushing(n);
  uint32_t thresh = fl ? 1 : n->width;
  uint32_t items0 = n->st.items_in, sigs0 = n->st.sigs_in;
  int kids = 0;
  while (!(q->n < thresh && q->sn == 0) && !kids && !n->blocked) {
    n->st.runs++;
    n->run_out = 0;
    int sig = q->sn > 0;
    stream_signal *head = &q->sigs[q->shead];
    uint32_t limit = q->n;
    if (sig && limit > head->credit) limit = head->credit;
    if (limit > n->width) limit = n->width;
    else if (!sig && !fl && limit < n->width) limit = 0;  // rounded down to a multiple of width (one run: one width)
    uint32_t x = 0;
    if (limit) {
      uint32_t buf[STREAM_MAX_WIDTH];
      for (uint32_t k = 0; k < limit; k++) buf[k] = q->items[wrap(q->head + k, q->cap)];
      x = g->fns[i].fn(g, n, buf, limit);
      if (x > limit) { g->errors++; x = limit; }
      q->head = wrap(q->head + x, q->cap);
      q->n -= x;
      n->st.items_in += x;
      if (sig) head->credit -= x;
    }
    int handled = 0;
    if (sig && head->credit == 0) {
      stream_signal s = *head;
      q->shead = wrap(q->shead + 1, q->scap);
      q->sn--;
      n->st.sigs_in++;
      if (g->fns[i].sig) g->fns[i].sig(g, n, s.tag, s.arg);
      handled = 1;
    }
    kids = check_children(g, n);
    if (!x && !handled && !n->blocked) { g->errors++; break; }  // a node function that makes no progress
  }
  // Credit left on the head signal stays there (it was decremented in place).
  if (!LOCAL(g, n->producer)) {
    g->freed_items[i] += n->st.items_in - items0;
    g->freed_sigs[i] += n->st.sigs_in - sigs0;
  }
  if (n->blocked) return;
  if (q->n < thresh && q->sn == 0) {
    n->active = 0;
    if (fl) {  // a flush completed: pass it on, then clear it
      uint32_t status = n->flush;
      n->flush = STREAM_NO_FLUSH;
      n->st.flushes++;
      stream_flush_from(g, n, status);
    }
  }
}

uint32_t stream_schedule(stream_graph *g) {
  uint32_t fired = 0;
  for (;;) {
    uint32_t i = g->nnodes;
    while (i-- > 0)  // downstream first: drain before filling
      if (stream_fireable(g, i)) break;
    if (i >= g->nnodes) return fired;
    stream_fire(g, i);
    fired++;
  }
}

// ------------------------------------------------- between partitions

uint32_t stream_pins(const stream_graph *g, stream_pin *pins, uint32_t max) {
  uint32_t np = 0;
  for (uint32_t c = 0; c < g->nnodes; c++) {
    const stream_node *n = &g->nodes[c];
    stream_pin p = {0, (uint8_t)c, 0};
    if (!n->source && g->place[n->producer] != g->place[c]) {
      if (g->place[n->producer] == g->me) p.kind = STREAM_MSG_DATA, p.dest = g->place[c];
      else if (g->place[c] == g->me) p.kind = STREAM_MSG_CREDIT, p.dest = g->place[n->producer];
      if (p.kind && np < max) pins[np++] = p;
    }
  }
  for (uint32_t a = 0; a < g->nnodes; a++) {
    uint32_t e = g->nodes[a].releases;
    if (e < g->nnodes && g->place[a] == g->me && g->place[e] != g->me && np < max)
      pins[np++] = (stream_pin){STREAM_MSG_RELEASE, (uint8_t)e, g->place[e]};
  }
  return np;
}

int stream_pending(const stream_graph *g, const stream_pin *p) {
  uint32_t c = p->node;
  switch (p->kind) {
  case STREAM_MSG_DATA: return g->proxy[c].ob_n > 0;
  case STREAM_MSG_CREDIT: return g->freed_items[c] + g->freed_sigs[c] != g->credit_sent[c];
  case STREAM_MSG_RELEASE: return g->released[c] != g->release_sent[c];
  default: return 0;
  }
}

// (Each kind checks what stream_pending checks, once.)
int stream_pack(stream_graph *g, const stream_pin *p, uint32_t *w) {
  uint32_t c = p->node, n = 0, kind = p->kind;
  if (kind == STREAM_MSG_DATA) {
    stream_proxy *x = &g->proxy[c];
    if (!x->ob_n) return 0;
    w[1] = 0;  // (the words after the last entry are left as they are)
    while (x->ob_n && n < STREAM_MSG_ENTRIES) {
      w[1] |= (uint32_t)x->ob_kind[x->ob_head] << (2 * n);
      w[2 + n++] = x->ob_word[x->ob_head];
      x->ob_head = wrap(x->ob_head + 1, STREAM_OUTBOX);
      x->ob_n--;
    }
  } else if (kind == STREAM_MSG_CREDIT) {  // cumulative: a lost or repeated report cannot skew it
    uint32_t freed = g->freed_items[c] + g->freed_sigs[c];
    if (freed == g->credit_sent[c]) return 0;
    w[1] = g->freed_items[c];
    w[2] = g->freed_sigs[c];
    g->credit_sent[c] = freed;
  } else if (kind == STREAM_MSG_RELEASE) {
    if (g->released[c] == g->release_sent[c]) return 0;
    w[1] = g->released[c];
    g->release_sent[c] = g->released[c];
  } else {
    return 0;
  }
  w[0] = kind | c << 8 | n << 16;
  return 1;
}

void stream_apply(stream_graph *g, const uint32_t *w) {
  uint32_t kind = w[0] & 0xffu, c = (w[0] >> 8) & 0xffu, n = (w[0] >> 16) & 0xffu;
  if (c >= g->nnodes || n > STREAM_MSG_ENTRIES) { g->errors++; return; }
  stream_node *node = &g->nodes[c];
  // data and credit are about a node's input (the source has none); releases about a parent buffer
  if (kind == STREAM_MSG_RELEASE ? !node->pb_cap : node->source) { g->errors++; return; }
  if (kind == STREAM_MSG_DATA && LOCAL(g, c)) {
    for (uint32_t k = 0; k < n; k++) {
      uint32_t e = (w[1] >> (2 * k)) & 3u, v = w[2 + k];
      if (e == STREAM_E_ITEM) { if (!push_item(&node->in, v)) g->lost++; }
      else if (e == STREAM_E_SIG) { if (!push_signal(&node->in, v >> 24, v & 0xffffffu)) g->lost++; }
      else if (e == STREAM_E_FLUSH) take_flush(node, v);
      else g->errors++;  // no such entry kind
    }
    if (stream_full(g, c)) activate(node);
  } else if (kind == STREAM_MSG_CREDIT && !LOCAL(g, c)) {
    stream_proxy *x = &g->proxy[c];
    if ((int32_t)(w[1] - x->freed_items) > 0) x->freed_items = w[1];
    if ((int32_t)(w[2] - x->freed_sigs) > 0) x->freed_sigs = w[2];
  } else if (kind == STREAM_MSG_RELEASE && LOCAL(g, c)) {
    uint32_t d = w[1] - g->release_seen[c];
    if ((int32_t)d > 0) {
      g->release_seen[c] = w[1];
      pb_released(node, d);
    }
  } else {
    g->errors++;
  }
}
