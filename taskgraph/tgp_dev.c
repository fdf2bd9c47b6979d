/*
 * tgp_dev.c: the "tg node" device type of tg.h's POETS back end
 * (tg_poets.h), for the softswitch: linked into the firmware (tgp_fw.c) and
 * into the host's softswitch engine (tg_poets.c). The firing rules are
 * tg.c's, item for item, with credits in place of looking at the
 * consumer's queue.
 */
#include <string.h>

#include "softswitch.h"
#include "tg_poets.h"

// Called from two places: not inlined (the image's code budget).
__attribute__((noinline)) static uint32_t hash(const uint8_t *b, uint32_t n) { return tgp_hash(b, n); }

static int ready(const tgp_props *p, const tgp_state *s) {
  if (s->pending || s->run == TG_INVALID)
    return 0;
#ifdef TGP_HOST
  if (!tgp_host_budget) /* tg_poets --stop-after: the nodes are frozen */
    return 0;
#endif
  for (uint32_t k = 0; k < p->nslots; k++)
    if (!s->credit[k])
      return 0; // an edge without room
  int inputs = 1;
  for (uint32_t i = 0; i < p->nin; i++) // a counted port: its EVENT WAIT complete; else bit 0: the oldest item is there
    inputs &= i == 0 && p->cn ? !ss_event_waiting(&s->ev) : s->have[i];
  if (p->coroutine && s->run == TG_ACTIVE)
    return !s->want || inputs;
  if (p->nin == 0)
    return p->coroutine ? s->run == TG_INITIAL : !s->ran;
  return inputs;
}

/* A counted input 0: the completed wait's N items become the firing's (the
 * head of cq), the posts kept after them move up, and the port waits again
 * (complete at once if N were kept). */
static void take_counted(const tgp_props *p, tgp_state *s) {
  uint32_t b = p->cn * p->in_bytes[0];
  memcpy(s->cq, s->cq + b, b);
  s->cheld -= p->cn;
  memcpy(s->cq + b, s->cq + 2 * b, s->cheld * p->in_bytes[0]); // at most N: no overlap
  ss_event_wait(&s->ev, p->cn);
}

static void take_inputs(const tgp_props *p, tgp_state *s) {
  for (uint32_t i = 0; i < p->nin; i++) {
    if (i == 0 && p->cn) {
      take_counted(p, s);
      continue;
    }
    memcpy(s->inbuf[i], s->q[i][s->head[i]], p->in_bytes[i]);
    if (++s->head[i] == p->in_cap[i]) // (no modulo: Tinsel divides in software)
      s->head[i] = 0;
    s->have[i] >>= 1;
    s->taken[i]++;
    s->owed[i]++; /* a credit back to the producer */
  }
}

static void outputs(const tgp_props *p, tgp_state *s, uint32_t produced) {
  for (uint32_t j = 0; j < p->nout; j++)
    if (produced >> j & 1u) {
      s->pending |= 1u << j;
      for (uint32_t k = 0; k < p->out_count[j]; k++)
        s->credit[p->out_first[j] + k]--;
    }
}

/* One firing (tg.c's fire). */
static void fire(const tgp_props *p, tgp_state *s) {
  const void *in[TGP_PORTS];
  void *out[TGP_PORTS];
  for (uint32_t i = 0; i < TGP_PORTS; i++)
    in[i] = s->inbuf[i], out[i] = s->outbuf[i];
  if (p->cn)
    in[0] = s->cq;
  const tgp_kernel *k = &tgp_kernels[p->kernel];
  if (!p->coroutine || s->run != TG_ACTIVE || s->want) // a call, an invocation, or the inputs it asked for
    take_inputs(p, s);
  memset(s->outbuf, 0, sizeof(s->outbuf));
  uint32_t produced = (1u << p->nout) - 1u;
  if (!p->coroutine) {
    k->fn(s->ctx, in, out);
    s->ran = 1;
  } else {
    if (s->run != TG_ACTIVE) { // a new invocation: the initial computation state
      memcpy(s->state, p->init, p->state_bytes);
      s->invocations++;
    }
    produced = 0;
    tg_run_state r = k->co(s->ctx, s->state, in, out, &produced);
    if (r != TG_ACTIVE && r != TG_FINAL) {
      s->run = TG_INVALID;
      s->errors |= TGP_ERR_KERNEL;
      return;
    }
    s->want = (produced & TG_WANT_INPUT) && r == TG_ACTIVE;
    s->run = r;
  }
  outputs(p, s, produced & ((1u << p->nout) - 1u));
  s->firings++;
#ifdef TGP_HOST
  tgp_host_budget--;
#endif
}

/* Fires while the node can (a step without outputs is followed at once by the next). */
__attribute__((noinline)) static void advance(const tgp_props *p, tgp_state *s) {
  while (!s->errors && ready(p, s))
    fire(p, s);
}

static void node_init(const void *gp, const void *props, void *state) {
  (void)gp;
  const tgp_props *p = props;
  tgp_state *s = state;
  // The host wrote the first state (tg_poets.c describe: credits, ctx, a counted
  // port's armed wait; or a checkpoint's, --resume): the node only starts.
  if (p->kernel >= tgp_num_kernels || !(p->coroutine ? (void *)tgp_kernels[p->kernel].co : (void *)tgp_kernels[p->kernel].fn))
    s->errors |= TGP_ERR_KERNEL;
  advance(p, s);
}

static uint32_t node_rts(const void *gp, const void *props, const void *state) {
  (void)gp, (void)props;
  const tgp_state *s = state;
  uint32_t r = s->pending;
  for (uint32_t i = 0; i < TGP_PORTS; i++)
    r |= (s->owed[i] != 0) << (TGP_PORTS + i);
  return r;
}

__attribute__((noinline)) static int send_item(uint32_t j, const void *props, void *state, void *payload) {
  tgp_state *s = state;
  memcpy(payload, s->outbuf[j], TGP_ITEM);
  memcpy((uint8_t *)payload + TGP_ITEM, &s->sent[j], 4);
  s->sent[j]++;
  s->pending &= ~(1u << j);
  advance(props, s);
  return 1;
}
__attribute__((noinline)) static int send_credit(uint32_t i, void *state, void *payload) {
  tgp_state *s = state;
  memset(payload, 0, 4);
  s->owed[i]--;
  return 1;
}
static int send0(const void *gp, const void *pr, void *st, void *pl) { (void)gp; return send_item(0, pr, st, pl); }
static int send1(const void *gp, const void *pr, void *st, void *pl) { (void)gp; return send_item(1, pr, st, pl); }
static int credit0(const void *gp, const void *pr, void *st, void *pl) { (void)gp, (void)pr; return send_credit(0, st, pl); }
static int credit1(const void *gp, const void *pr, void *st, void *pl) { (void)gp, (void)pr; return send_credit(1, st, pl); }

/* An item for input port LABEL: at its place in the window by its sequence
 * number (tg_poets.h, "Order"), whatever order the network kept. */
static void recv_item(const void *gp, const void *props, void *state, const void *edge_props, const void *payload) {
  (void)gp;
  const tgp_props *p = props;
  tgp_state *s = state;
  uint32_t i, seq;
  memcpy(&i, edge_props, 4);
  if (i == 0 && p->cn) { // an EVENT POST: unordered, no credits
    if (!ss_event_waiting(&s->ev) && ss_event_count(&s->ev) >= p->cn) {
      s->errors |= TGP_ERR_OVER; // the count would exceed the threshold of a complete wait
      return;
    }
    memcpy(s->cq + (p->cn + s->cheld++) * p->in_bytes[0], payload, p->in_bytes[0]);
    ss_event_post(&s->ev);
    advance(p, s);
    return;
  }
  memcpy(&seq, (const uint8_t *)payload + TGP_ITEM, 4);
  uint32_t d = seq - s->taken[i]; // its distance from the oldest not taken
  if (i >= p->nin || d >= p->in_cap[i] || (s->have[i] >> d & 1u)) {
    s->errors |= TGP_ERR_OVERFLOW; // outside the window, or twice: credits broken
    return;
  }
  uint32_t at = s->head[i] + d;
  memcpy(s->q[i][at >= p->in_cap[i] ? at - p->in_cap[i] : at], payload, p->in_bytes[i]);
  s->have[i] |= 1u << d;
  advance(p, s);
}

/* A credit for out edge slot LABEL. */
static void recv_credit(const void *gp, const void *props, void *state, const void *edge_props, const void *payload) {
  (void)gp, (void)payload;
  const tgp_props *p = props;
  tgp_state *s = state;
  uint32_t k;
  memcpy(&k, edge_props, 4);
  if (k >= TGP_SLOTS || s->credit[k] == p->slot_cap[k]) {
    s->errors |= TGP_ERR_CREDIT;
    return;
  }
  s->credit[k]++;
  advance(p, s);
}

/* The end: report once. */
static int node_idle(const void *gp, const void *props, void *state) {
  (void)gp;
  const tgp_props *p = props;
  tgp_state *s = state;
  if (s->reported)
    return 0;
  if (s->have[0] | s->have[1] || (p->coroutine && s->run == TG_ACTIVE)) // (have is 0 for ports a node lacks)
    s->errors |= TGP_ERR_LEFT;
  if (p->cn && !(ss_event_waiting(&s->ev) && !ss_event_count(&s->ev)))
    s->errors |= TGP_ERR_LEFT; // posts no wait took: missing, or in excess
  tgp_report r = {p->id, s->run, s->firings, s->invocations, hash(s->state, p->state_bytes), s->errors,
                  {0, hash(s->ctx, p->ctx_bytes)}};
  memcpy(r.ctx, s->ctx, 4);
  tgp_report_node(&r);
  s->reported = 1;
  return 0;
}

static const ss_send_fn node_sends[2 * TGP_PORTS] = {send0, send1, credit0, credit1};
static const uint8_t node_out_bytes[2 * TGP_PORTS] = {TGP_MSG, TGP_MSG, 4, 4};
static const ss_recv_fn node_recvs[] = {recv_item, recv_credit};
const ss_dev_type ss_dev_types[] = {
    {.num_in_pins = 2, .num_out_pins = 2 * TGP_PORTS, .init = node_init, .rts = node_rts, .idle = node_idle,
     .send = node_sends, .out_bytes = node_out_bytes, .recv = node_recvs},
};
const uint32_t ss_num_dev_types = 1;
