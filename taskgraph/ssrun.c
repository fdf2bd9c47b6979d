/*
 * ssrun.c: see ssrun.h. The host engine follows host/tinsel/
 * engine_softswitch.c (the OP2 instance's), without the runtime: mailboxes
 * are FIFOs, a send goes "in flight" and is delivered at a random later
 * step, routing keys (other boards) follow the boards' router records.
 */
#define _POSIX_C_SOURCE 200809L
#include "ssrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "softswitch.h"
#include "ss_hw.h"
#include "tsim_preload_write.h"

/* The softswitch itself, compiled for the host against the ss_hw_* below. */
#include "../firmware/softswitch/softswitch.c"

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "ssrun: out of memory\n");
    exit(2);
  }
  return p;
}

typedef struct {
  _Alignas(8) uint8_t b[TinselBytesPerMsg];
} Msg;

static struct {
  const ssrun_images *im;
  uint32_t nthreads, cur;
  ss_thread *ss;
  Msg *slot;
  Msg **box;          /* per thread: a FIFO of received messages */
  uint32_t *head, *count, *cap;
  Msg *fl;            /* in flight */
  uint32_t *fl_to;
  size_t nfl, capfl;
  uint8_t *active, *idle_wait, *vote, *done;
  uint32_t *act, *act_pos, nact;
  int barrier;        /* during a barrier: what ss_hw_idle answers */
  uint64_t steps, msgs;
  int bad_send;
  uint32_t *by_addr;  /* hardware address -> thread index + 1 (0: none) */
  uint32_t addr_bits;
} es;

static void activate(uint32_t t) {
  if (es.active[t] || es.done[t])
    return;
  es.active[t] = 1, es.act_pos[t] = es.nact, es.act[es.nact++] = t;
}

static void deactivate(uint32_t t) {
  if (!es.active[t])
    return;
  es.active[t] = 0;
  uint32_t last = es.act[--es.nact];
  es.act[es.act_pos[t]] = last, es.act_pos[last] = es.act_pos[t];
}

static void in_flight(uint32_t to, const void *msg) {
  if (es.nfl == es.capfl) {
    es.capfl = es.capfl ? 2 * es.capfl : 1024;
    es.fl = realloc(es.fl, es.capfl * sizeof(Msg));
    es.fl_to = realloc(es.fl_to, es.capfl * sizeof(uint32_t));
    if (!es.fl || !es.fl_to)
      fprintf(stderr, "ssrun: out of memory (messages in flight)\n"), exit(2);
  }
  memcpy(es.fl[es.nfl].b, msg, TinselBytesPerMsg);
  es.fl_to[es.nfl++] = to;
  es.msgs++;
}

static void box_push(uint32_t t, const Msg *m) {
  if (es.count[t] == es.cap[t]) {
    uint32_t cap = es.cap[t] ? 2 * es.cap[t] : 8;
    Msg *nm = xcalloc(cap, sizeof(Msg));
    for (uint32_t i = 0; i < es.count[t]; i++)
      nm[i] = es.box[t][(es.head[t] + i) % es.cap[t]];
    free(es.box[t]);
    es.box[t] = nm, es.cap[t] = cap, es.head[t] = 0;
  }
  es.box[t][(es.head[t] + es.count[t]++) % es.cap[t]] = *m;
}

uint32_t ss_hw_id(void) { return place_thread_addr(&es.im->m[0], es.cur); }
uint32_t ss_hw_cycles(void) { return (uint32_t)es.steps; }
uint32_t ss_hw_cycles_hi(void) { return (uint32_t)(es.steps >> 32); }
int ss_hw_can_send(void) { return 1; }
int ss_hw_can_recv(void) { return es.count[es.cur] > 0; }
void *ss_hw_send_slot(void) { return es.slot[es.cur].b; }
void ss_hw_set_len(uint32_t flits_minus_1) { (void)flits_minus_1; }
void *ss_hw_recv(void) { return es.count[es.cur] ? es.box[es.cur][es.head[es.cur]].b : NULL; }
void ss_hw_free(void *msg) {
  uint32_t t = es.cur;
  if (es.count[t] && msg == es.box[t][es.head[t]].b)
    es.head[t] = (es.head[t] + 1) % es.cap[t], es.count[t]--;
}
void ss_hw_wait_send_or_recv(void) {}
void ss_hw_wait_recv(void) {}
/* The idle barrier: outside a barrier the thread waits (answer 0, as if a
 * message woke it, and it sleeps until one comes or the barrier); the host
 * runs a barrier when no message is in flight and every thread sleeps. */
int ss_hw_idle(int vote) {
  if (es.barrier)
    return es.barrier;
  es.vote[es.cur] = (uint8_t)(vote != 0);
  es.idle_wait[es.cur] = 1;
  return 0;
}

static void deliver_thread(uint32_t thread, const void *msg) {
  if (thread >= es.nthreads) {
    es.bad_send = 1;
    return;
  }
  in_flight(thread, msg);
}

typedef struct {
  const void *msg;
} KeyCtx;

static void key_deliver(void *ctx, int board, int board_mbox, uint64_t mask, uint32_t local_key) {
  const PlaceMachine *m = &es.im->m[0];
  Msg copy;
  memcpy(copy.b, ((KeyCtx *)ctx)->msg, sizeof(copy.b));
  uint16_t k16 = (uint16_t)local_key;
  memcpy(copy.b, &k16, sizeof(k16));
  int mx = board_mbox & ((1 << m->mbox_x_bits) - 1), my = board_mbox >> m->mbox_x_bits;
  uint32_t first = (uint32_t)board * (uint32_t)m->threads_per_board +
                   (uint32_t)(my * m->mbox_x + mx) * (uint32_t)m->threads_per_mbox;
  for (int bit = 0; bit < 64; bit++)
    if (mask >> bit & 1)
      deliver_thread(first + (uint32_t)bit, copy.b);
}

void ss_hw_multicast(uint32_t mbox, uint32_t hi, uint32_t lo, void *msg) {
  const PlaceMachine *m = &es.im->m[0];
  if (mbox == m->mailbox_routing_key) {
    KeyCtx kc = {msg};
    if (place_router_follow(m, es.im->r, place_thread_board(m, es.cur), lo, key_deliver, &kc) != 0)
      es.bad_send = 1;
    return;
  }
  for (uint32_t bit = 0; bit < 64; bit++) {
    if (!((bit < 32 ? lo >> bit : hi >> (bit - 32)) & 1u))
      continue;
    uint32_t addr = mbox << m->log_threads_per_mbox | bit;
    uint32_t t = addr < (1u << es.addr_bits) ? es.by_addr[addr] : 0;
    if (!t) {
      es.bad_send = 1;
      continue;
    }
    in_flight(t - 1, msg);
  }
}

static uint64_t rng_state;
static uint64_t next_random(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}

int ssrun_softswitch(const ssrun_images *im, uint32_t seed) {
  const PlaceMachine *m = im->m;
  uint32_t n = (uint32_t)m->nthreads;
  memset(&es, 0, sizeof(es));
  es.im = im, es.nthreads = n;
  es.ss = xcalloc(n, sizeof(ss_thread));
  es.slot = xcalloc(n, sizeof(Msg));
  es.box = xcalloc(n, sizeof(Msg *));
  es.head = xcalloc(n, sizeof(uint32_t)), es.count = xcalloc(n, sizeof(uint32_t)), es.cap = xcalloc(n, sizeof(uint32_t));
  es.active = xcalloc(n, 1), es.idle_wait = xcalloc(n, 1), es.vote = xcalloc(n, 1), es.done = xcalloc(n, 1);
  es.act = xcalloc(n, sizeof(uint32_t)), es.act_pos = xcalloc(n, sizeof(uint32_t));
  uint32_t maxaddr = 0;
  for (uint32_t t = 0; t < n; t++)
    if (place_thread_addr(m, t) > maxaddr)
      maxaddr = place_thread_addr(m, t);
  while ((1u << es.addr_bits) <= maxaddr)
    es.addr_bits++;
  es.by_addr = xcalloc((size_t)1 << es.addr_bits, sizeof(uint32_t));
  for (uint32_t t = 0; t < n; t++)
    es.by_addr[place_thread_addr(m, t)] = t + 1;
  rng_state = 0x2545f4914f6cdd1dull ^ ((uint64_t)seed << 21 | 1);
  int rc = 0;
  for (es.cur = 0; es.cur < n; es.cur++) {
    if (ss_init(&es.ss[es.cur], (ss_thread_image *)im->image[es.cur])) {
      fprintf(stderr, "ssrun: the softswitch refuses the image of thread %u\n", es.cur);
      rc = 1;
    }
    activate(es.cur);
  }
  uint32_t ndone = 0, barriers = 0;
  const uint64_t max_steps = 4000000000ull;
  while (!rc && ndone < n && es.steps < max_steps) {
    if (es.nfl + es.nact == 0) { /* quiet: the idle barrier */
      int all = 1;
      for (uint32_t t = 0; t < n; t++)
        all &= es.done[t] || es.vote[t];
      es.barrier = all ? 2 : 1;
      barriers++;
      for (es.cur = 0; es.cur < n; es.cur++) {
        if (es.done[es.cur])
          continue;
        es.idle_wait[es.cur] = 0;
        if (ss_poll(&es.ss[es.cur]) == SS_DONE)
          es.done[es.cur] = 1, ndone++;
        else
          activate(es.cur);
      }
      es.barrier = 0;
      continue;
    }
    es.steps++;
    uint64_t pick = next_random() % (es.nfl + es.nact);
    if (pick < es.nfl) {
      uint32_t to = es.fl_to[pick];
      Msg m = es.fl[pick];
      es.fl[pick] = es.fl[--es.nfl], es.fl_to[pick] = es.fl_to[es.nfl];
      box_push(to, &m);
      es.idle_wait[to] = 0;
      activate(to);
    } else {
      es.cur = es.act[pick - es.nfl];
      es.idle_wait[es.cur] = 0;
      int r = ss_poll(&es.ss[es.cur]);
      if (r == SS_DONE)
        es.done[es.cur] = 1, ndone++, deactivate(es.cur);
      else if (es.idle_wait[es.cur] && !es.count[es.cur])
        deactivate(es.cur);
    }
  }
  uint32_t errors = 0;
  for (uint32_t t = 0; t < n; t++)
    errors += ((ss_thread_image *)im->image[t])->stats.errors;
  if (es.steps >= max_steps)
    fprintf(stderr, "ssrun: the softswitch engine ran out of steps (%llu)\n", (unsigned long long)max_steps), rc = 1;
  if (es.bad_send)
    fprintf(stderr, "ssrun: the softswitch engine met a send to no thread\n"), rc = 1;
  if (errors)
    fprintf(stderr, "ssrun: %u softswitch errors (bad keys or devices)\n", errors), rc = 1;
  printf("ssrun: softswitch engine: %llu steps, %llu network messages, %u idle barriers\n",
         (unsigned long long)es.steps, (unsigned long long)es.msgs, barriers);
  for (uint32_t t = 0; t < n; t++)
    free(es.box[t]);
  free(es.ss), free(es.slot), free(es.box), free(es.head), free(es.count), free(es.cap), free(es.active);
  free(es.idle_wait), free(es.vote), free(es.done), free(es.act), free(es.act_pos), free(es.fl), free(es.fl_to);
  free(es.by_addr);
  return rc;
}
/* ------------------------------------------------------ the cycle model */

uint32_t ssrun_heap_base(const PlaceMachine *m, uint32_t thread) {
  /* tinselHeapBaseGeneric in the machine's own layout (host/tinsel/images.c) */
  uint32_t per_dram = (uint32_t)(m->threads_per_board / m->drams_per_board);
  uint32_t part = place_thread_addr(m, thread) & (per_dram - 1);
  return TinselDRAMInterleavedBase + (per_dram - 1 - part) * m->thread_bytes;
}

int ssrun_preload(const ssrun_images *im, const char *path, char *err, size_t errlen) {
  const PlaceMachine *m = im->m;
  op2t_preload p;
  if (op2t_preload_open(&p, path) != 0) {
    snprintf(err, errlen, "cannot create the preload file %s: %s", path, strerror(errno));
    return -1;
  }
  int cores_per_board = m->mboxes_per_board * m->cores_per_mbox;
  for (uint32_t b = 0; b < im->r->nboards; b++)
    for (int ram = 0; ram < 4; ram++)
      if (im->r->boards[b].len[ram])
        op2t_preload_data(&p, b * (uint32_t)cores_per_board + (uint32_t)(ram * (cores_per_board / m->drams_per_board)),
                          m->router_base, im->r->boards[b].bytes[ram], (uint32_t)im->r->boards[b].len[ram]);
  for (uint32_t th = 0; th < (uint32_t)m->nthreads; th++)
    op2t_preload_data(&p, th / (uint32_t)m->threads_per_core, ssrun_heap_base(m, th), im->image[th], im->bytes[th]);
  if (op2t_preload_close(&p) != 0) {
    snprintf(err, errlen, "writing the preload file %s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int ssrun_tsim(const char *tsim, const char *config, const char *imem, const char *fw, const char *preload,
               const char *delay_seed, ssrun_line_fn line_fn, void *ctx) {
  char cmd[4096];
  snprintf(cmd, sizeof(cmd),
           "'%s' --config '%s'%s%s%s --elf '%s' --all-threads --preload '%s' --max-cycles 4000000000%s%s 2>&1", tsim,
           config, imem ? " --imem '" : "", imem ? imem : "", imem ? "'" : "", fw, preload,
           delay_seed ? " --delay-seed " : "", delay_seed ? delay_seed : "");
  fflush(stdout);
  FILE *f = popen(cmd, "r");
  if (!f)
    return -1;
  char line[1024];
  while (fgets(line, sizeof(line), f)) {
    line_fn(ctx, line);
    if (!strncmp(line, "tsim: cycles", 12) || !strncmp(line, "tsim: total", 11) || !strncmp(line, "tsim: messages", 14) ||
        strstr(line, "every thread killed") || strstr(line, "tsim: idle") || strstr(line, "error") ||
        strstr(line, "deadlock") || strstr(line, "warning"))
      fputs(line, stdout); /* the run's end and totals; not the per-core and per-tile lines */
  }
  int st = pclose(f);
  return st == -1 ? -1 : st;
}

/* --------------------------------------------------- placement, images */

int ssrun_place(ssrun_placed *pl, uint32_t seed, PlaceFillFn fill, void *ctx, char *err, size_t errlen) {
  PlaceOptions opt = {.seed = seed};
  if (place_run(pl->g, &pl->m, &opt, &pl->p) != 0 || place_route(pl->g, &pl->m, &pl->p, &pl->r) != 0) {
    snprintf(err, errlen, "placing the graph on %s: %s", pl->m.name, place_error(pl->g));
    return -1;
  }
  uint32_t nt = (uint32_t)pl->m.nthreads;
  pl->image = xcalloc(nt, sizeof(uint8_t *));
  pl->bytes = xcalloc(nt, sizeof(uint32_t));
  for (uint32_t th = 0; th < nt; th++) {
    if (place_image(pl->g, &pl->m, &pl->p, &pl->r, th, NULL, 0, SS_FLAG_EXIT_ON_IDLE, fill, ctx, &pl->image[th],
                    &pl->bytes[th]) != 0) {
      snprintf(err, errlen, "the image of a thread: %s", place_error(pl->g));
      return -1;
    }
    uint32_t d = pl->p.thread_first[th + 1] - pl->p.thread_first[th];
    pl->max_devices = d > pl->max_devices ? d : pl->max_devices;
    pl->max_bytes = pl->bytes[th] > pl->max_bytes ? pl->bytes[th] : pl->max_bytes;
  }
  return 0;
}

void ssrun_placed_free(ssrun_placed *pl) {
  for (int th = 0; pl->image && th < pl->m.nthreads; th++)
    free(pl->image[th]);
  free(pl->image), free(pl->bytes);
  place_routes_free(&pl->r);
  place_placement_free(&pl->p);
  place_graph_free(pl->g);
}
