/*
 * tree.c: the multifrontal tree app (seeds/002, issue 20 item 2) on the
 * host. Makes a random tree (seeded), computes the root's result with the
 * host oracle, and runs the same tree as softswitch devices (apps/tree/
 * tree_dev.c), one device per node, placed by METIS (libop2_place) on a
 * tile, a board or a box:
 *
 *   tree --nodes N [--seed S] [--engine oracle|softswitch|sim] [--config tile|board|box]
 *        [--delay-seed D] [--extra-post] [--fw FILE.elf] [--tsim PATH] [--keep-preload FILE]
 *
 *   oracle      only the oracle;
 *   place       the oracle, then placement and the thread images (their sizes);
 *   softswitch  the real softswitch compiled into this program, one
 *               simulated mailbox per thread, messages and thread steps
 *               interleaved at random (seeded by --delay-seed, default 1);
 *   sim         thread images written as a tsim --preload file, tsim runs
 *               the firmware (--fw: tree.elf of the configuration's layout)
 *               on the cycle model with --all-threads; the root prints its
 *               result on the debug link.
 *
 * The run PASSES when the root's result (hash, size, height) equals the
 * oracle's and no node reported an error; it prints PASSED or FAILED and
 * exits 0 or 1 (2 for bad arguments or a failed placement or run).
 * --extra-post makes one node post to its parent twice (a test of the
 * test: the counted event must catch it, so the run must FAIL).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "place.h"
#include "softswitch.h"
#include "ss_hw.h"
#include "tree.h"
#include "tsim_preload_write.h"

/* The softswitch itself, compiled for the host against the ss_hw_* below. */
#include "../../firmware/softswitch/softswitch.c"

#define MAX_NODES 10000000u

static void die(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "tree: ");
  fprintf(stderr, fmt, a, b);
  fprintf(stderr, "\n");
  exit(2);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    die("out of memory (%s%s)", "calloc", "");
  return p;
}

/* ------------------------------------------------------------ the tree */

typedef struct {
  uint32_t n, seed;
  uint32_t *parent;  /* [n]; parent[0] unused (the root) */
  uint32_t *nc;      /* [n] children */
  uint32_t extra;    /* --extra-post: this node posts twice (n: none) */
} Tree;

static uint64_t rng_state;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

/* A random tree of N nodes: node i > 0 hangs under a node before it, half
 * the time a uniformly random one (a random recursive tree: wide, shallow)
 * and half the time one of the 8 before it (long chains): depths and
 * fan-ins of both kinds. */
static void tree_make(Tree *t, uint32_t n, uint32_t seed) {
  t->n = n, t->seed = seed, t->extra = n;
  t->parent = xcalloc(n, sizeof(uint32_t));
  t->nc = xcalloc(n, sizeof(uint32_t));
  rng_state = 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 17 | 1);
  for (uint32_t i = 1; i < n; i++) {
    uint32_t p = rnd(2) ? rnd(i) : i - 1 - rnd(i < 8 ? i : 8);
    t->parent[i] = p;
    t->nc[p]++;
  }
}

static tree_props props_of(const Tree *t, uint32_t i) {
  return (tree_props){.id = i, .value = tree_value(t->seed, i), .nc = t->nc[i], .root = i == 0, .extra = i == t->extra};
}

/* The oracle: children before parents (every parent is numbered before its
 * children), the same fold and result as the devices. */
static tree_msg oracle(const Tree *t) {
  tree_state *s = xcalloc(t->n, sizeof(tree_state));
  tree_msg root = {0, 0, 0};
  for (uint32_t i = t->n; i-- > 0;) {
    tree_props p = props_of(t, i);
    tree_msg m = tree_result(&p, &s[i]);
    if (i)
      tree_fold(&s[t->parent[i]], &m);
    else
      root = m;
  }
  free(s);
  return root;
}

/* ------------------------------------------------ placement and images */

typedef struct {
  PlaceMachine m;
  PlaceGraph *g;
  PlacePlacement p;
  PlaceRoutes r;
  uint8_t **image;   /* [m.nthreads] (all threads: every thread takes part in the idle barrier) */
  uint32_t *bytes;
  uint32_t max_devices, max_bytes;
} Placed;

static void fill(void *ctx, int type, uint32_t index, void *state, void *props) {
  (void)type, (void)state;
  *(tree_props *)props = props_of(ctx, index);
}

static void place_tree(Placed *pl, Tree *t, const char *config, uint32_t seed) {
  char err[512];
  if (place_machine_load(&pl->m, config, err, sizeof(err)) != 0)
    die("configuration %s: %s", config, err);
  pl->g = place_graph_new();
  int ty = place_add_type(pl->g, "node", t->n, sizeof(tree_state), sizeof(tree_props), 1, 0);
  int pin = ty < 0 ? -1 : place_add_pin(pl->g, ty, 0, ty, 0, sizeof(tree_msg), 0);
  if (pin < 0)
    die("the graph: %s%s", place_error(pl->g), "");
  for (uint32_t i = 1; i < t->n; i++)
    if (place_add_edge(pl->g, pin, i, t->parent[i], 0) != 0)
      die("the graph: %s%s", place_error(pl->g), "");
  PlaceOptions opt = {.seed = seed};
  if (place_run(pl->g, &pl->m, &opt, &pl->p) != 0)
    die("placing the tree on %s: %s", config, place_error(pl->g));
  if (place_route(pl->g, &pl->m, &pl->p, &pl->r) != 0)
    die("routing the tree on %s: %s", config, place_error(pl->g));
  uint32_t nt = (uint32_t)pl->m.nthreads;
  pl->image = xcalloc(nt, sizeof(uint8_t *));
  pl->bytes = xcalloc(nt, sizeof(uint32_t));
  for (uint32_t th = 0; th < nt; th++) {
    if (place_image(pl->g, &pl->m, &pl->p, &pl->r, th, NULL, 0, SS_FLAG_EXIT_ON_IDLE, fill, t, &pl->image[th],
                    &pl->bytes[th]) != 0)
      die("the image of a thread: %s%s", place_error(pl->g), "");
    uint32_t d = pl->p.thread_first[th + 1] - pl->p.thread_first[th];
    if (d > pl->max_devices)
      pl->max_devices = d;
    if (pl->bytes[th] > pl->max_bytes)
      pl->max_bytes = pl->bytes[th];
  }
}

static void placed_free(Placed *pl) {
  for (int th = 0; th < pl->m.nthreads; th++)
    free(pl->image[th]);
  free(pl->image), free(pl->bytes);
  place_routes_free(&pl->r);
  place_placement_free(&pl->p);
  place_graph_free(pl->g);
}

/* What the devices reported (both engines fill it: the softswitch engine
 * through these functions, the sim engine from tsim's output). */
static struct {
  int roots, errors;
  tree_msg root;
  uint32_t first_bad, first_err;
} rep;

void tree_report_root(const tree_props *p, const tree_msg *m) {
  (void)p;
  rep.roots++;
  rep.root = *m;
}

void tree_report_error(const tree_props *p, const tree_state *s) {
  if (!rep.errors++)
    rep.first_bad = p->id, rep.first_err = s->errors & 0xffu;
}

/* ------------------------------------------- the host softswitch engine */

typedef struct {
  _Alignas(8) uint8_t b[TinselBytesPerMsg];
} Msg;

static struct {
  const Placed *pl;
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
      die("out of memory (%s%s)", "messages in flight", "");
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

uint32_t ss_hw_id(void) { return place_thread_addr(&es.pl->m, es.cur); }
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
  const PlaceMachine *m = &es.pl->m;
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
  const PlaceMachine *m = &es.pl->m;
  if (mbox == m->mailbox_routing_key) {
    KeyCtx kc = {msg};
    if (place_router_follow(m, &es.pl->r, place_thread_board(m, es.cur), lo, key_deliver, &kc) != 0)
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

static uint64_t next_random(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 7, rng_state ^= rng_state << 17;
  return rng_state;
}

/* Runs every thread's softswitch to the end: 0, or 1 with a message. */
static int run_softswitch(const Placed *pl, uint32_t seed) {
  uint32_t n = (uint32_t)pl->m.nthreads;
  memset(&es, 0, sizeof(es));
  es.pl = pl, es.nthreads = n;
  es.ss = xcalloc(n, sizeof(ss_thread));
  es.slot = xcalloc(n, sizeof(Msg));
  es.box = xcalloc(n, sizeof(Msg *));
  es.head = xcalloc(n, sizeof(uint32_t)), es.count = xcalloc(n, sizeof(uint32_t)), es.cap = xcalloc(n, sizeof(uint32_t));
  es.active = xcalloc(n, 1), es.idle_wait = xcalloc(n, 1), es.vote = xcalloc(n, 1), es.done = xcalloc(n, 1);
  es.act = xcalloc(n, sizeof(uint32_t)), es.act_pos = xcalloc(n, sizeof(uint32_t));
  uint32_t maxaddr = 0;
  for (uint32_t t = 0; t < n; t++)
    if (place_thread_addr(&pl->m, t) > maxaddr)
      maxaddr = place_thread_addr(&pl->m, t);
  while ((1u << es.addr_bits) <= maxaddr)
    es.addr_bits++;
  es.by_addr = xcalloc((size_t)1 << es.addr_bits, sizeof(uint32_t));
  for (uint32_t t = 0; t < n; t++)
    es.by_addr[place_thread_addr(&pl->m, t)] = t + 1;
  rng_state = 0x2545f4914f6cdd1dull ^ ((uint64_t)seed << 21 | 1);
  int rc = 0;
  for (es.cur = 0; es.cur < n; es.cur++) {
    if (ss_init(&es.ss[es.cur], (ss_thread_image *)pl->image[es.cur])) {
      fprintf(stderr, "tree: the softswitch refuses the image of thread %u\n", es.cur);
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
    errors += ((ss_thread_image *)pl->image[t])->stats.errors;
  if (es.steps >= max_steps)
    fprintf(stderr, "tree: the softswitch engine ran out of steps (%llu)\n", (unsigned long long)max_steps), rc = 1;
  if (es.bad_send)
    fprintf(stderr, "tree: the softswitch engine met a send to no thread\n"), rc = 1;
  if (errors)
    fprintf(stderr, "tree: %u softswitch errors (bad keys or devices)\n", errors), rc = 1;
  printf("tree: softswitch engine: %llu steps, %llu network messages, %u idle barriers\n",
         (unsigned long long)es.steps, (unsigned long long)es.msgs, barriers);
  for (uint32_t t = 0; t < n; t++)
    free(es.box[t]);
  free(es.ss), free(es.slot), free(es.box), free(es.head), free(es.count), free(es.cap), free(es.active);
  free(es.idle_wait), free(es.vote), free(es.done), free(es.act), free(es.act_pos), free(es.fl), free(es.fl_to);
  free(es.by_addr);
  return rc;
}

/* ------------------------------------------------------ the cycle model */

/* The images (and a box's routing tables) as a tsim --preload file. */
static void write_preload(const Placed *pl, const char *path) {
  const PlaceMachine *m = &pl->m;
  op2t_preload p;
  if (op2t_preload_open(&p, path) != 0)
    die("cannot create the preload file %s: %s", path, strerror(errno));
  int cores_per_board = m->mboxes_per_board * m->cores_per_mbox;
  for (uint32_t b = 0; b < pl->r.nboards; b++)
    for (int ram = 0; ram < 4; ram++)
      if (pl->r.boards[b].len[ram])
        op2t_preload_data(&p, b * (uint32_t)cores_per_board + (uint32_t)(ram * (cores_per_board / m->drams_per_board)),
                          m->router_base, pl->r.boards[b].bytes[ram], (uint32_t)pl->r.boards[b].len[ram]);
  uint32_t per_dram = (uint32_t)(m->threads_per_board / m->drams_per_board);
  for (uint32_t th = 0; th < (uint32_t)m->nthreads; th++) {
    uint32_t part = place_thread_addr(m, th) & (per_dram - 1);
    uint32_t load = TinselDRAMInterleavedBase + (per_dram - 1 - part) * m->thread_bytes;
    op2t_preload_data(&p, th / (uint32_t)m->threads_per_core, load, pl->image[th], pl->bytes[th]);
  }
  if (op2t_preload_close(&p) != 0)
    die("writing the preload file %s: %s", path, strerror(errno));
}

/* Runs tsim; reads the devices' reports from its output. */
static int run_sim(const Placed *pl, const char *config, const char *tsim, const char *fw, const char *preload,
                   const char *delay_seed) {
  char cmd[4096];
  snprintf(cmd, sizeof(cmd), "'%s' --config %s --elf '%s' --all-threads --preload '%s' --max-cycles 4000000000%s%s 2>&1",
           tsim, config, fw, preload, delay_seed ? " --delay-seed " : "", delay_seed ? delay_seed : "");
  fflush(stdout);
  FILE *f = popen(cmd, "r");
  if (!f)
    die("cannot run %s: %s", tsim, strerror(errno));
  char line[1024];
  int softswitch_errors = 0;
  while (fgets(line, sizeof(line), f)) {
    unsigned id, hash, size, height, cycle, err, count;
    if (sscanf(line, "tree: root %x: hash %x size %x height %x cycle %x", &id, &hash, &size, &height, &cycle) == 5) {
      rep.roots++;
      rep.root = (tree_msg){hash, size, height};
      printf("tree: the root reported at cycle %u\n", cycle);
    } else if (sscanf(line, "tree: node %x: error %x count %x", &id, &err, &count) == 3) {
      if (!rep.errors++)
        rep.first_bad = id, rep.first_err = err & 0xffu;
    } else if (strstr(line, "softswitch error")) {
      softswitch_errors++;
      fputs(line, stdout);
    } else if (!strncmp(line, "tsim: cycles", 12) || !strncmp(line, "tsim: total", 11) ||
               !strncmp(line, "tsim: messages", 14) || strstr(line, "every thread killed") ||
               strstr(line, "tsim: idle") || strstr(line, "error") || strstr(line, "deadlock") ||
               strstr(line, "warning")) {
      fputs(line, stdout);  // the run's end and totals; not the per-core and per-tile lines
    }
  }
  int st = pclose(f);
  (void)pl;
  if (st != 0) {
    printf("tree: tsim exited with status %d\n", st);
    return 1;
  }
  return softswitch_errors != 0;
}

/* ---------------------------------------------------------------- main */

static uint32_t number(const char *opt, const char *s, uint32_t max) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || end == s || *end || v > max || s[0] == '-')
    die("%s: not a number up to the limit: %s", opt, s);
  return (uint32_t)v;
}

int main(int argc, char **argv) {
  uint32_t nodes = 1000, seed = 1, extra = 0;
  const char *engine = "softswitch", *config = "board", *delay_seed = NULL, *fw = NULL, *tsim = "build/bin/tsim",
             *keep = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    int takes = 1;
    if (!strcmp(a, "--extra-post"))
      extra = 1, takes = 0;
    else if (strcmp(a, "--nodes") && strcmp(a, "--seed") && strcmp(a, "--engine") && strcmp(a, "--config") &&
             strcmp(a, "--delay-seed") && strcmp(a, "--fw") && strcmp(a, "--tsim") && strcmp(a, "--keep-preload"))
      die("unknown option %s%s (see the top of apps/tree/tree.c)", a, "");
    else if (!v)
      die("%s: needs a value (see the top of apps/tree/tree.c)%s", a, "");
    else if (!strcmp(a, "--nodes"))
      nodes = number(a, v, MAX_NODES);
    else if (!strcmp(a, "--seed"))
      seed = number(a, v, 0xffffffffu);
    else if (!strcmp(a, "--engine"))
      engine = v;
    else if (!strcmp(a, "--config"))
      config = v;
    else if (!strcmp(a, "--delay-seed"))
      delay_seed = v, number(a, v, 0xffffffffu);
    else if (!strcmp(a, "--fw"))
      fw = v;
    else if (!strcmp(a, "--tsim"))
      tsim = v;
    else if (!strcmp(a, "--keep-preload"))
      keep = v;
    i += takes;
  }
  if (nodes < 1)
    die("--nodes: at least 1%s%s", "", "");
  if (strcmp(engine, "oracle") && strcmp(engine, "place") && strcmp(engine, "softswitch") && strcmp(engine, "sim"))
    die("--engine %s: oracle, place, softswitch or sim%s", engine, "");
  if (!strcmp(engine, "sim") && !fw)
    die("--engine sim needs --fw FILE.elf (build/fw/tree.elf; a tile: build/fw/boards/tile/tree.elf)%s%s", "", "");
  Tree t;
  tree_make(&t, nodes, seed);
  if (extra && nodes > 1)
    t.extra = nodes - 1;
  tree_msg want = oracle(&t);
  printf("tree: %u nodes, seed %u: oracle hash %08x size %u height %u\n", nodes, seed, want.hash, want.size,
         want.height);
  if (!strcmp(engine, "oracle")) {
    free(t.parent), free(t.nc);
    return 0;
  }
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  Placed pl;
  memset(&pl, 0, sizeof(pl));
  place_tree(&pl, &t, config, seed);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  PlaceCutStats cs;
  place_cut_stats(pl.g, &pl.m, &pl.p, &cs);
  printf("tree: placed on %s (%d threads, %u used) in %.1f s: at most %u devices and %u image bytes per thread "
         "(limit %u), %llu of %llu edges between threads\n",
         config, pl.m.nthreads, cs.threads_used, (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
         pl.max_devices, pl.max_bytes, pl.m.thread_bytes - SS_STACK_RESERVE, (unsigned long long)cs.cut,
         (unsigned long long)cs.edges);
  int rc;
  if (!strcmp(engine, "place")) {
    placed_free(&pl);
    free(t.parent), free(t.nc);
    return 0;
  }
  if (!strcmp(engine, "softswitch")) {
    rc = run_softswitch(&pl, delay_seed ? number("--delay-seed", delay_seed, 0xffffffffu) : 1);
  } else {
    char tmpl[] = "/tmp/tree-preload-XXXXXX";
    const char *path = keep;
    if (!path) {
      int fd = mkstemp(tmpl);
      if (fd < 0)
        die("cannot create a temporary file: %s%s", strerror(errno), "");
      path = tmpl;
    }
    write_preload(&pl, path);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = run_sim(&pl, config, tsim, fw, path, delay_seed);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("tree: tsim ran %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (!keep)
      remove(path);
  }
  placed_free(&pl);
  free(t.parent), free(t.nc);
  if (rc) {
    printf("FAILED (the run did not complete)\n");
    return 1;
  }
  printf("tree: %s: root hash %08x size %u height %u, %d root reports, %d nodes reported errors", engine,
         rep.root.hash, rep.root.size, rep.root.height, rep.roots, rep.errors);
  if (rep.errors)
    printf(" (first: node %u, %s%s%s)", rep.first_bad, rep.first_err & TREE_ERR_OVER ? "over-count " : "",
           rep.first_err & TREE_ERR_EXCESS ? "excess posts " : "", rep.first_err & TREE_ERR_SHORT ? "missing posts" : "");
  printf("\n");
  int ok = rep.roots == 1 && !rep.errors && rep.root.hash == want.hash && rep.root.size == want.size &&
           rep.root.height == want.height;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  return !ok;
}
