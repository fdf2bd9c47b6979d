/*
 * engine_softswitch.c: OP2_TINSEL_ENGINE=softswitch. Runs the real
 * softswitch (firmware/softswitch/softswitch.c, compiled for the host) on
 * the thread images of the resident instance (images.h), with a simulated
 * mailbox per thread: the firmware and the images tested end to end
 * without the cycle model.
 *
 * The host side does what a HostLink engine does: build and "load" the
 * images when the binding changes, send the begin (key k) as one
 * routing-key send whose records reach every involved thread, take the one
 * SS_KEY_END of the tree's root; streamed, several invocations are under
 * way at once (start, wait). In between, each
 * step picks at random (seeded by OP2_TINSEL_SEED and the round) among the
 * messages in flight (delivered into the receiving thread's mailbox queue)
 * and the threads with work (one ss_poll), so messages between different
 * pairs overtake each other and threads interleave arbitrarily.
 *
 * Device state lives in the images between invocations; the runtime's
 * op2t_devs is synced before and after each run (the host's dats move as
 * invoke.c moves them). Routing-key sends (other boards, and the host's one
 * begin per invocation) follow the images' router records (images.h
 * op2t_images_route), so every configuration runs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "images.h"
#include "op2t_internal.h"
#include "ss_hw.h"
#include "softswitch.h"

/* The softswitch itself, compiled for the host against the ss_hw_* below. */
#define SS_STEPS 1       // op2c's types all have steps, as on the device
#define SS_CHECK_STEPS 1 // and each step's ready word is checked against the whole ReadyToSend
#include "../../firmware/softswitch/softswitch.c"

typedef struct {
  _Alignas(8) uint8_t b[TinselBytesPerMsg];
} Msg;

typedef struct {
  Msg *m;
  size_t head, n, cap;   /* a ring */
} Fifo;

typedef struct {
  Msg msg;
  uint32_t to;           /* thread (index into images) */
  uint32_t bseq;         /* a host begin: its number among the begins to `to` (from 1); else 0 */
} Flight;

static struct {
  op2t_images *im;
  ss_thread *ss;         /* [nthreads] */
  Fifo *box;             /* [nthreads] receive queues */
  Msg *slot;             /* [nthreads] send slots */
  uint8_t *active;
  uint32_t *act, nact;   /* threads that may have work */
  uint32_t *act_pos;
  Flight *fl;
  size_t nfl, capfl;
  Msg host[4];           /* what reached the host and is not taken yet */
  int nhost, bad_send;
  op2t_run *flight[SS_MAX_INVOCATIONS]; /* started, end not yet taken (streamed: several) */
  int nflight;
  int host_begin;        /* in_flight() is queueing the host's begin */
  uint32_t *bsent, *bgot; /* [nthreads]: host begins sent to each thread, delivered */
  uint32_t cur, len;
  uint64_t cycles, rng;
  unsigned instance;     /* op2t_run.instance the images were built for */
} es;

/* ------------------------------------------------ the simulated mailbox */

static void fifo_push(Fifo *q, const Msg *m) {
  if (q->n == q->cap) {
    size_t cap = q->cap ? 2 * q->cap : 16;
    Msg *nm = op2t_calloc(cap, sizeof(Msg));
    for (size_t i = 0; i < q->n; i++)
      nm[i] = q->m[(q->head + i) % q->cap];
    free(q->m);
    q->m = nm, q->cap = cap, q->head = 0;
  }
  q->m[(q->head + q->n++) % q->cap] = *m;
}

static void activate(uint32_t t) {
  if (es.active[t])
    return;
  es.active[t] = 1;
  es.act_pos[t] = es.nact;
  es.act[es.nact++] = t;
}

static void deactivate(uint32_t t) {
  if (!es.active[t])
    return;
  es.active[t] = 0;
  uint32_t last = es.act[--es.nact];
  es.act[es.act_pos[t]] = last;
  es.act_pos[last] = es.act_pos[t];
}

static int by_addr(const void *key, const void *elem) {
  uint32_t a = *(const uint32_t *)key, b = ((const op2t_image_thread *)elem)->addr;
  return a < b ? -1 : a > b;
}

static void in_flight(uint32_t to, const void *msg) {
  if (es.nfl == es.capfl) {
    es.capfl = es.capfl ? 2 * es.capfl : 1024;
    es.fl = op2t_grow(es.fl, es.capfl, sizeof(Flight));
  }
  memcpy(es.fl[es.nfl].msg.b, msg, TinselBytesPerMsg);
  es.fl[es.nfl].bseq = es.host_begin ? ++es.bsent[to] : 0;
  es.fl[es.nfl++].to = to;
}

uint32_t ss_hw_id(void) { return es.im->threads[es.cur].addr; }
uint32_t ss_hw_cycles(void) { return (uint32_t)(es.cycles += 10); }
uint32_t ss_hw_cycles_hi(void) { return (uint32_t)(es.cycles >> 32); }
int ss_hw_can_send(void) { return 1; }
int ss_hw_can_recv(void) { return es.box[es.cur].n > 0; }
void *ss_hw_send_slot(void) { return es.slot[es.cur].b; }
void ss_hw_set_len(uint32_t flits_minus_1) { es.len = flits_minus_1; }
void *ss_hw_recv(void) {
  Fifo *q = &es.box[es.cur];
  return q->n ? q->m[q->head].b : NULL;
}
void ss_hw_free(void *msg) {
  Fifo *q = &es.box[es.cur];
  if (q->n && msg == q->m[q->head].b)
    q->head = (q->head + 1) % q->cap, q->n--;
}
void ss_hw_wait_send_or_recv(void) {}
void ss_hw_wait_recv(void) {}
int ss_hw_idle(int vote) { return es.box[es.cur].n ? 0 : vote ? 2 : 1; }

/* A record of a routing key delivers to (board, mailbox, mask) with the
 * header key it writes (MRM: the low half-word of the first word). */
typedef struct {
  const void *msg;
  int bad;
} KeySend;

static void key_deliver(void *ctx, int board, int board_mbox, uint64_t mask, uint32_t local_key) {
  KeySend *ks = ctx;
  const PlaceMachine *m = &es.im->machine;
  Msg copy;
  memcpy(copy.b, ks->msg, sizeof(copy.b));
  uint16_t k16 = (uint16_t)local_key;
  memcpy(copy.b, &k16, sizeof(k16));
  int mx = board_mbox & ((1 << m->mbox_x_bits) - 1), my = board_mbox >> m->mbox_x_bits;
  uint32_t first = (uint32_t)board * (uint32_t)m->threads_per_board +
                   (uint32_t)(my * m->mbox_x + mx) * (uint32_t)m->threads_per_mbox;
  for (int bit = 0; bit < 64; bit++) {
    if (!(mask >> bit & 1))
      continue;
    uint32_t addr = place_thread_addr(m, first + (uint32_t)bit);
    const op2t_image_thread *t =
        bsearch(&addr, es.im->threads, es.im->nthreads, sizeof(op2t_image_thread), by_addr);
    if (t)
      in_flight((uint32_t)(t - es.im->threads), copy.b);
    else
      ks->bad = 1;
  }
}

static void key_send(int board, uint32_t key, const void *msg) {
  KeySend ks = {msg, 0};
  if (op2t_images_route(es.im, board, key, key_deliver, &ks) || ks.bad)
    es.bad_send = 1;
}

void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg) {
  const PlaceMachine *m = &es.im->machine;
  if (mbox == m->host_mbox) { /* taken after each step (step()): at most one is waiting */
    if (es.nhost < 4)
      memcpy(es.host[es.nhost].b, msg, TinselBytesPerMsg);
    es.nhost++;
    return;
  }
  if (mbox == m->mailbox_routing_key) { /* the board router: follow the key's records */
    key_send(es.im->threads[es.cur].board, lo, msg);
    return;
  }
  for (uint32_t bit = 0; bit < 64; bit++) {
    if (!((bit < 32 ? lo >> bit : hi >> (bit - 32)) & 1u))
      continue;
    uint32_t addr = mbox << m->log_threads_per_mbox | bit;
    const op2t_image_thread *t =
        bsearch(&addr, es.im->threads, es.im->nthreads, sizeof(op2t_image_thread), by_addr);
    if (!t) {
      es.bad_send = 2;
      continue;
    }
    in_flight((uint32_t)(t - es.im->threads), msg);
  }
}

/* ------------------------------------------------------------ the host */

static uint64_t next_random(void) {
  es.rng ^= es.rng << 13;
  es.rng ^= es.rng >> 7;
  es.rng ^= es.rng << 17;
  return es.rng;
}

static void unload(void) {
  if (!es.im)
    return;
  for (uint32_t i = 0; i < es.im->nthreads; i++)
    free(es.box[i].m);
  free(es.box), free(es.slot), free(es.ss), free(es.active), free(es.act), free(es.act_pos);
  free(es.bsent), free(es.bgot);
  op2t_images_free(es.im);
  es.im = NULL;
}

/* op2c's types have no ReadyToSend on the device (fw_table.c): loaded
 * between invocations, when no device has one in progress (each end
 * resets its invocation's fields), they are not ready. Here, with it, the
 * same must hold for every device. */
static int not_ready(const ss_thread *t) {
  for (uint32_t i = 0; i < t->h->img->num_devices; i++)
    if (t->h->rts[i])
      return 0;
  return 1;
}

/* (Re)builds and "loads" the images when the instance changed (another
 * binding, devices or graph properties: op2t_run.instance). */
static int load(op2t_run *r) {
  if (es.im && es.instance == r->instance)
    return 0;
  unload();
  es.instance = r->instance;
  int nb;
  op2t_bound_inv *b = op2t_bound_invs(&nb);
  /* placed by code groups as on hardware (the host runs img_all's handlers for every group) */
  op2t_images_options opt = {.config = getenv("OP2_TINSEL_CONFIG"), .fanin = r->fanin, .seed = op2t_place_seed(), .one_group = 0};
  if (opt.config && !*opt.config)
    opt.config = NULL;
  char err[1024];
  es.im = op2t_images_build(r->devs, b, nb, r->graph_props, &opt, err, sizeof(err));
  free(b);
  if (!es.im) {
    fprintf(stderr, "op2 tinsel: %s: %s\n", r->inv->name, err);
    return 1;
  }
  uint32_t n = es.im->nthreads;
  es.box = op2t_calloc(n + 1, sizeof(Fifo));
  es.slot = op2t_calloc(n + 1, sizeof(Msg));
  es.ss = op2t_calloc(n + 1, sizeof(ss_thread));
  es.active = op2t_calloc(n + 1, 1);
  es.act = op2t_calloc(n + 1, sizeof(uint32_t));
  es.act_pos = op2t_calloc(n + 1, sizeof(uint32_t));
  es.bsent = op2t_calloc(n + 1, sizeof(uint32_t));
  es.bgot = op2t_calloc(n + 1, sizeof(uint32_t));
  es.nact = 0;
  for (es.cur = 0; es.cur < n; es.cur++)
    if (ss_init(&es.ss[es.cur], (ss_thread_image *)es.im->threads[es.cur].image)) {
      fprintf(stderr, "op2 tinsel: %s: the softswitch refuses the image of thread 0x%x\n", r->inv->name,
              es.im->threads[es.cur].addr);
      return 1;
    } else if (!not_ready(&es.ss[es.cur])) {
      fprintf(stderr, "op2 tinsel: %s: a device of thread 0x%x is ready to send when loaded\n", r->inv->name,
              es.im->threads[es.cur].addr);
      return 1;
    }
  return 0;
}

static uint32_t stats_errors(uint32_t *first_bad) {
  uint32_t errors = 0;
  for (uint32_t i = 0; i < es.im->nthreads; i++) {
    uint32_t e = ((ss_thread_image *)es.im->threads[i].image)->stats.errors;
    if (e && !errors)
      *first_bad = i;
    errors += e;
  }
  return errors;
}

/* Streamed invocations (invoke.c): start sends the begin, wait runs the
 * threads until that invocation's end has come. The host's begins to a
 * thread arrive in the order they were sent, as on Tinsel (one source, one
 * destination); everything else is delivered in any order. The images get
 * the runtime's device states when nothing is under way (invoke.c waits
 * for everything before it moves a dat or the instance changes) and give
 * them back when the last end is in. */
static int start(op2t_run *r) {
  if (!r->thread) {
    fprintf(stderr, "op2 tinsel: the softswitch engine sends begin and end per thread; "
                    "OP2_TINSEL_BEGIN_END=device needs the functional engine\n");
    return 1;
  }
  if (es.nflight && es.instance != r->instance) {
    fprintf(stderr, "op2 tinsel: %s: the instance changed with invocations under way\n", r->inv->name);
    return 1;
  }
  if (load(r))
    return 1;
  if (!es.nflight) { /* the runtime's device state (dats moved in, OnInit of new devices) */
    op2t_images_put_states(es.im, r->devs);
    op2t_images_put_props(es.im, r->devs); /* op_opt_arg flags change write totals */
    es.rng = r->seed * 2654435761u + 88172645463325252ull;
    es.bad_send = 0;
  }
  const op2t_image_inv *iv = &es.im->inv[r->k];
  if (es.flight[r->k]) {
    fprintf(stderr, "op2 tinsel: %s was started again before its end came\n", r->inv->name);
    return 1;
  }
  es.flight[r->k] = r;
  es.nflight++;
  Msg begin = {{0}};
  ss_msg_header h = {iv->begin_key, 0, 0, 0};
  memcpy(begin.b, &h, sizeof(h));
  memcpy(begin.b + SS_HEADER_BYTES, r->begin, (size_t)r->inv->begin_bytes);
  es.host_begin = 1;
  key_send(0, iv->begin_rkey[0], begin.b); /* one key send entering board 0, as from the host link */
  es.host_begin = 0;
  r->counts->threads += iv->nthreads;
  r->counts->mboxes += iv->nbegins;
  r->counts->begin += iv->nthreads;
  return 0;
}

/* The end that reached the host, to its invocation's controller. */
static int take_end(void) {
  ss_msg_header end = {0, 0, 0, 0};
  memcpy(&end, es.host[0].b, sizeof(end));
  op2t_run *r = end.key == SS_KEY_END ? es.flight[end.pin] : NULL;
  const op2t_image_inv *iv = r ? &es.im->inv[r->k] : NULL;
  if (es.nhost != 1 || !r || end.src != (uint32_t)iv->devices) {
    fprintf(stderr, "op2 tinsel: the host got %d messages at once, expected one end of an invocation under way "
                    "for all its devices (got key 0x%x, pin %d, %u devices)\n", es.nhost, end.key, end.pin, end.src);
    return 1;
  }
  es.nhost = 0;
  es.flight[r->k] = NULL;
  es.nflight--;
  r->on_end(r, -1, -1, (long)end.src, es.host[0].b + SS_HEADER_BYTES);
  r->counts->end += iv->nthreads;
  r->counts->tree_msgs += iv->nthreads - 1;
  r->counts->host_ends++;
  return 0;
}

/* One step: a message in flight into its mailbox, or one pass of a thread
 * with work, picked at random. 0: nothing can happen. */
static int step(void) {
  if (es.nfl + es.nact == 0)
    return 0;
  uint64_t pick = next_random() % (es.nfl + es.nact);
  if (pick < es.nfl) {
    Flight f = es.fl[pick];
    if (f.bseq && f.bseq != es.bgot[f.to] + 1)
      return 1; /* an earlier begin to that thread goes first */
    es.bgot[f.to] += f.bseq != 0;
    es.fl[pick] = es.fl[--es.nfl];
    fifo_push(&es.box[f.to], &f.msg);
    activate(f.to);
  } else {
    es.cur = es.act[pick - es.nfl];
    op2t_devout_at(es.im->threads[es.cur].addr);
    if (ss_poll(&es.ss[es.cur]) == SS_WAITED && !es.box[es.cur].n)
      deactivate(es.cur);
  }
  return 1;
}

static int wait(op2t_run *r) {
  long steps = 0, max_steps = 100000000;
  int bad = 0;
  while (es.flight[r->k] == r && !bad) {
    if (!step() || ++steps >= max_steps)
      break;
    if (es.nhost)
      bad = take_end();
  }
  uint32_t first = 0, errors = stats_errors(&first);
  if (es.flight[r->k] == r || es.bad_send || errors || bad) {
    fprintf(stderr, "op2 tinsel: %s: the softswitch engine %s\n", r->inv->name,
            steps >= max_steps      ? "ran out of steps (a livelock)"
            : es.bad_send == 1      ? "met a routing key whose records are bad or reach a thread without an image"
            : es.bad_send           ? "met a send to a thread without an image"
            : es.flight[r->k] == r && !bad ? "ran out of work before the invocation ended (a deadlock)"
                                    : "");
    if (errors)
      fprintf(stderr, "op2 tinsel: %s: %u softswitch errors (bad keys, requests or tree rounds), the first on "
                      "thread 0x%x\n", r->inv->name, errors, es.im->threads[first].addr);
    return 1;
  }
  if (!es.nflight)
    op2t_images_get_states(es.im, r->devs);
  return 0;
}

static int run(op2t_run *r) {
  if (es.nflight) {
    fprintf(stderr, "op2 tinsel: %s: run one at a time with invocations under way\n", r->inv->name);
    return 1;
  }
  return start(r) || wait(r);
}

const op2t_engine op2t_engine_softswitch = {
    .name = "softswitch",
    .what = "the real softswitch on the thread images, natively, simulated mailboxes (seeded order)",
    .run = run,
    .start = start,
    .wait = wait,
};
