// pipeline_ss.c: the pipeline across threads on the real softswitch
// (firmware/softswitch/softswitch.c compiled for the host), one thread per
// partition, with simulated mailboxes: each step picks at random (seeded by
// --order-seed) either the oldest message of some (sender, receiver) pair
// in flight, delivered into the receiver's mailbox, or a thread with work
// (one ss_poll). Messages of one pair stay in order, as on Tinsel (unicast,
// tinsel.md); messages of different pairs and the threads' steps
// interleave arbitrarily. Checked against pipeline_reference. docs/stream.md.
//
//   pipeline_ss [--threads T] [--order-seed R] [--lazy] [--functional] [--items N] [--seed S] [--qcap Q] [--scap S] [--pb1 P] [--pb2 P] [--quiet]
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"
#include "pipeline_args.h"
#include "ss_hw.h"
#include "ss_stream.h"
#include "stream_func.h"
#include "stream_report.h"

#define MAXT PL_NODES
#define PAIR_CAP 4096   // messages in flight per pair (credit bounds them far below)

typedef struct { uint32_t w[TinselBytesPerMsg / 4]; } Msg;
typedef struct { Msg m[PAIR_CAP]; uint32_t head, n; } Ring;

static struct {
  uint32_t nt, cur;
  uint32_t addr[MAXT];
  stream_ss_image img[MAXT];
  ss_thread ss[MAXT];
  Ring pair[MAXT][MAXT];   // in flight, sender -> receiver
  Ring box[MAXT];          // arrived, not yet received
  Msg slot[MAXT];
  int busy[MAXT];          // may have work (not known to be waiting)
  uint64_t rng, msgs;
  uint32_t pair_max, bad;
} e;

static void ring_push(Ring *r, const Msg *m) {
  if (r->n == PAIR_CAP) { e.bad = 1; return; }
  r->m[(r->head + r->n++) % PAIR_CAP] = *m;
}
static Msg *ring_head(Ring *r) { return r->n ? &r->m[r->head] : NULL; }
static void ring_pop(Ring *r) { r->head = (r->head + 1) % PAIR_CAP, r->n--; }

uint32_t ss_hw_id(void) { return e.addr[e.cur]; }
uint32_t ss_hw_cycles(void) { return 0; }
uint32_t ss_hw_cycles_hi(void) { return 0; }
int ss_hw_can_send(void) { return 1; }
int ss_hw_can_recv(void) { return e.box[e.cur].n > 0; }
void *ss_hw_send_slot(void) { return e.slot[e.cur].w; }
void ss_hw_set_len(uint32_t flits_minus_1) { (void)flits_minus_1; }
void *ss_hw_recv(void) { Msg *m = ring_head(&e.box[e.cur]); return m ? m->w : NULL; }
void ss_hw_free(void *msg) { if (msg == ring_head(&e.box[e.cur])->w) ring_pop(&e.box[e.cur]); }
void ss_hw_wait_send_or_recv(void) {}
void ss_hw_wait_recv(void) {}
int ss_hw_idle(int vote) { (void)vote; return e.box[e.cur].n ? 0 : 1; }
void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg) {
  for (uint32_t t = 0; t < e.nt; t++) {
    uint32_t a = e.addr[t], bit = a & 63u;
    if (a >> 6 != mbox || !((bit < 32 ? lo >> bit : hi >> (bit - 32)) & 1u)) continue;
    Ring *r = &e.pair[e.cur][t];
    ring_push(r, (const Msg *)msg);
    if (r->n > e.pair_max) e.pair_max = r->n;
    e.msgs++;
    return;
  }
  e.bad = 2;  // no thread there
}

static uint64_t next_random(void) {
  e.rng ^= e.rng << 13, e.rng ^= e.rng >> 7, e.rng ^= e.rng << 17;
  return e.rng;
}

// The real softswitch on every thread's image; 0, or 1 (with a message).
static int run_softswitch(const pipeline_cfg *cfg, const pipeline_opts *o, const uint8_t *place,
                          const stream_graph **gp, long *steps) {
  for (uint32_t t = 0; t < e.nt; t++) e.addr[t] = t * 65u;  // thread t of mailbox t
  for (uint32_t t = 0; t < e.nt; t++) {
    pipeline_build(&e.img[t].state.g, cfg, place, t);
    gp[t] = &e.img[t].state.g;
    if (stream_ss_build(&e.img[t], e.addr, 0)) { fprintf(stderr, "pipeline_ss: a partition needs more than 8 pins\n"); return 1; }
  }
  e.rng = o->order_seed * 2654435761ull + 88172645463325252ull;
  for (e.cur = 0; e.cur < e.nt; e.cur++) {
    if (ss_init(&e.ss[e.cur], &e.img[e.cur].hdr)) { fprintf(stderr, "pipeline_ss: image refused\n"); return 1; }
    e.busy[e.cur] = 1;
  }
  long max_steps = 200000000;
  for (*steps = 0; *steps < max_steps && !e.bad; ++*steps) {
    uint32_t cand[MAXT * MAXT + MAXT], nc = 0;
    for (uint32_t a = 0; a < e.nt; a++)
      for (uint32_t b = 0; b < e.nt; b++)
        if (e.pair[a][b].n) cand[nc++] = a * MAXT + b;
    uint32_t nmsg = nc;
    for (uint32_t t = 0; t < e.nt; t++)
      if (e.busy[t]) cand[nc++] = MAXT * MAXT + t;
    if (o->lazy && nc > nmsg) {  // threads first: messages pile up in flight
      for (uint32_t k = nmsg; k < nc; k++) cand[k - nmsg] = cand[k];
      nc -= nmsg;
    }
    if (!nc) break;
    uint32_t c = cand[next_random() % nc];
    if (c < MAXT * MAXT) {
      Ring *r = &e.pair[c / MAXT][c % MAXT];
      ring_push(&e.box[c % MAXT], ring_head(r));
      ring_pop(r);
      e.busy[c % MAXT] = 1;
    } else {
      e.cur = c - MAXT * MAXT;
      if (ss_poll(&e.ss[e.cur]) == SS_WAITED && !e.box[e.cur].n) e.busy[e.cur] = 0;
    }
  }
  uint32_t ss_errors = 0;
  for (uint32_t t = 0; t < e.nt; t++) ss_errors += e.img[t].hdr.stats.errors;
  if (e.bad) fprintf(stderr, "pipeline_ss: %s\n", e.bad == 1 ? "a pair's ring overflowed" : "a send to no thread");
  if (*steps >= max_steps) fprintf(stderr, "pipeline_ss: no end after %ld steps (a livelock)\n", max_steps);
  if (ss_errors) fprintf(stderr, "pipeline_ss: %u softswitch errors\n", (unsigned)ss_errors);
  return e.bad || *steps >= max_steps || ss_errors;
}

int main(int argc, char **argv) {
  pipeline_cfg cfg;
  pipeline_opts o;
  if (pipeline_args(argc, argv, &cfg, &o, 1)) return 2;
  if (o.functional && o.lazy) { fprintf(stderr, "%s: --lazy is for the softswitch engine, not --functional\n", argv[0]); return 2; }
  e.nt = o.threads;
  uint8_t place[PL_NODES];
  for (uint32_t i = 0; i < PL_NODES; i++) place[i] = (uint8_t)(i * e.nt / PL_NODES);
  static stream_graph fg[MAXT];
  const stream_graph *gp[MAXT];
  for (uint32_t t = 0; t < e.nt; t++) {
    pipeline_build(&fg[t], &cfg, place, t);
    gp[t] = &fg[t];
  }
  const char *check = stream_check(&fg[0]);
  if (check) { fprintf(stderr, "pipeline_ss: %s\n", check); return 2; }
  long steps = 0;
  int failed;
  if (o.functional) {
    stream_func_stats st;
    failed = stream_func_run(fg, e.nt, o.order_seed, &st);
    if (failed) fprintf(stderr, "pipeline_ss: the functional engine did not finish\n");
    e.msgs = st.msgs, e.pair_max = st.pair_max, steps = st.steps;
  } else {
    failed = run_softswitch(&cfg, &o, place, gp, &steps);
  }
  pipeline_verdict v;
  pipeline_judge(gp, e.nt, place, &cfg, &v);
  printf("pipeline: %u items in, %u out, hash 0x%08x\n", (unsigned)cfg.items, (unsigned)v.out, (unsigned)v.hash);
  if (!o.quiet) {
    stream_report_header();
    for (uint32_t t = 0; t < e.nt; t++) stream_report(gp[t]);
  }
  int ok = !failed && v.ok;
  printf("%s: %u threads, order seed %u%s, %llu messages, at most %u in flight per pair, at most %u items and "
         "signals in flight or unsent on an edge (its queue holds %u), %u edges over; %ld steps; lost %u, "
         "errors %u, nodes not drained %u; reference %u out, hash 0x%08x: %s\n",
         o.functional ? "functional" : "softswitch", (unsigned)e.nt, (unsigned)o.order_seed,
         o.lazy ? " (lazy network)" : "", (unsigned long long)e.msgs, (unsigned)e.pair_max, (unsigned)v.edge_hw,
         (unsigned)v.edge_cap, (unsigned)v.over, steps, (unsigned)v.lost, (unsigned)v.errors, (unsigned)v.left,
         (unsigned)v.want_out, (unsigned)v.want_hash, ok ? "agrees" : "DIFFERS");
  return ok ? 0 : 1;
}
