/*
 * tg_poets.c: tg.h's POETS back end (tg_poets.h), run on the worked example
 * (tg_example.h) and checked node by node against the host scheduler:
 *
 *   tg_poets --n N [--cap C] [--engine softswitch|sim] [--config tile|board|box]
 *            [--seed S] [--delay-seed D] [--fw FILE.elf] [--tsim PATH] [--poets-n M]
 *            [--stop-after K --checkpoint FILE | --resume FILE]
 *   tg_poets --graph tree --n N [--tree-seed S] [--extra-post 1|2] [...]
 *   --load preload|hostlink (--engine sim): tsim --preload (the model's
 *   backdoor, the default) or through the boot loader over the host link,
 *   as on a box (ssrun_hl.c)
 *
 * The graph's nodes become "tg node" devices (tgp_dev.c) placed by METIS
 * (libop2_place) on the configuration's threads; each tg edge becomes an
 * item edge on the producer's out pin for its port and a credit edge back.
 * The run (taskgraph/ssrun.c: the host softswitch engine with random
 * interleaving, or tsim with random delays) ends at the idle barrier, where
 * every node reports its run state, firings, invocations, a hash of its
 * computation state, errors and ctx. PASSED when every node's report equals
 * the oracle's (tg_sync_wait on the same graph on the host); exit 0, 1
 * FAILED, 2 bad arguments or limits. --poets-n M gives the devices another
 * n than the oracle (a test of the test: the run must FAIL).
 *
 * --stop-after K --checkpoint FILE (the host softswitch engine): after K
 * firings in all every node stops firing (tgp_host_budget), the messages
 * still in flight are delivered (items to their consumers' queues, credits
 * back), the idle barrier ends the run, and the devices' states are read
 * back from the thread images into tg.h's checkpoint format (tg_node_load,
 * tg_edge_load, tg_checkpoint): tg_demo --resume FILE goes on from there on
 * the host scheduler.
 *
 * --graph tree: the multifrontal tree's graph (apps/tree/tree_tg.h, counted
 * ports) instead of the worked example, with the firmware tgp_tree.elf;
 * --extra-post 1|2 makes the devices' last node post twice or never (host
 * engine only), --poets-n M gives the devices the first M nodes: tests of
 * the test, which must FAIL.
 *
 * --resume FILE (either engine): a checkpoint of tg_demo's or of
 * --checkpoint's goes on on POETS: its states are written into the thread
 * images as the devices' first states (load_resume), and the run is
 * checked against the oracle as a straight run is.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "place.h"
#include "softswitch.h"
#include "ssrun.h"
#include "tg.h"
#include "tg_example.h"
#include "tg_poets.h"

/* The kernel tables, compiled into this file: the graphs' functions are
 * static (tg_example.h, apps/tree/tree_tg.h), and the nodes are matched to
 * kernels by function address. Each table is its firmware image's
 * (tgp_example.elf, tgp_tree.elf); tgp_kernels points at the graph's. */
#define tgp_kernels tgp_example_kernels
#define tgp_num_kernels tgp_example_num_kernels
#include "tgp_example.c"
#undef tgp_kernels
#undef tgp_num_kernels
#include "tree_tg.h"
#define tgp_kernels tgp_tree_kernels
#define tgp_num_kernels tgp_tree_num_kernels
#include "tgp_tree.c"
#undef tgp_kernels
#undef tgp_num_kernels
const tgp_kernel *tgp_kernels = tgp_example_kernels;
uint32_t tgp_num_kernels;

static void die(const char *what, const char *why) {
  fprintf(stderr, "tg_poets: %s%s\n", what, why);
  exit(2);
}

/* -------------------------------------------- the graph as devices */

typedef struct {
  uint32_t nn;
  tgp_props *props;
  uint32_t *slot;     /* [edges]: each edge's out edge slot at its producer */
  tgp_state *first;   /* every device's first state (fill writes it into the images) */
  int resumed;        /* first holds a checkpoint's states (--resume) */
  uint32_t cq;        /* bytes of the largest counted port (tgp_state.cq) */
} Build;
_Static_assert(TGP_PORTS == 2, "describe() numbers the slots of two output ports");

static void fill(void *ctx, int type, uint32_t index, void *state, void *props) {
  (void)type;
  const Build *b = ctx;
  *(tgp_props *)props = b->props[index];
  memcpy(state, &b->first[index], sizeof(tgp_state));
}

/* Properties of every node; checks the back end's limits. -1 with ERR. */
static int describe(const tg_graph *g, Build *b, char *err, size_t errlen) {
  b->nn = tg_num_nodes(g);
  b->props = calloc(b->nn + 1, sizeof(tgp_props));
  b->first = calloc(b->nn + 1, sizeof(tgp_state));
  if (!b->props || !b->first)
    die("out of memory", "");
  for (uint32_t i = 0; i < b->nn; i++) {
    tg_node_info ni;
    tg_node_describe(g, (int)i, &ni);
    tgp_props *p = &b->props[i];
    p->id = i, p->coroutine = (uint32_t)ni.coroutine, p->nin = ni.nin, p->nout = ni.nout;
    p->state_bytes = ni.state_bytes;
    p->kernel = tgp_num_kernels;
    for (uint32_t k = 0; k < tgp_num_kernels; k++)
      if (tgp_kernels[k].fn == ni.fn && tgp_kernels[k].co == ni.co)
        p->kernel = k;
    if (p->kernel == tgp_num_kernels)
      return snprintf(err, errlen, "node %s: its function is not in the firmware's kernel table (tgp_kernels)",
                      ni.name), -1;
    if (ni.nin > TGP_PORTS || ni.nout > TGP_PORTS || ni.state_bytes > TGP_STATE)
      return snprintf(err, errlen, "node %s: %u inputs, %u outputs, %u bytes of state; the POETS back end takes at "
                      "most %u, %u and %u", ni.name, ni.nin, ni.nout, ni.state_bytes, TGP_PORTS, TGP_PORTS,
                      TGP_STATE), -1;
    for (uint32_t q = 1; q < ni.nin; q++)
      if (ni.in[q].count)
        return snprintf(err, errlen, "node %s: input port %u is counted (%u): on POETS only input 0 can be "
                        "(docs/taskgraph.md)", ni.name, q, ni.in[q].count), -1;
    if (ni.nin && ni.in[0].count) { /* its items: the firing's N, and up to 2N posts */
      uint64_t bytes = 3ull * ni.in[0].count * ni.in[0].bytes;
      if (bytes > TGP_CQ)
        return snprintf(err, errlen, "node %s: a counted port of %u items of %u bytes needs %llu bytes on POETS (3N "
                        "items), over its limit of %u", ni.name, ni.in[0].count, ni.in[0].bytes,
                        (unsigned long long)bytes, TGP_CQ), -1;
      p->cn = ni.in[0].count;
      b->cq = bytes > b->cq ? (uint32_t)bytes : b->cq;
    }
    p->ctx_bytes = tgp_kernels[p->kernel].ctx_bytes;
    if (p->ctx_bytes && ni.ctx)
      memcpy(b->first[i].ctx, ni.ctx, p->ctx_bytes);
    for (uint32_t q = 0; q < ni.nin; q++)
      p->in_bytes[q] = ni.in[q].bytes;
    for (uint32_t q = 0; q < ni.nout; q++)
      p->out_bytes[q] = ni.out[q].bytes;
    for (uint32_t q = 0; q < ni.nin + ni.nout; q++)
      if ((q < ni.nin ? ni.in[q].bytes : ni.out[q - ni.nin].bytes) > TGP_ITEM)
        return snprintf(err, errlen, "node %s: items over %u bytes (the POETS back end's limit)", ni.name, TGP_ITEM), -1;
    if (ni.state_bytes)
      memcpy(p->init, ni.initial_state, ni.state_bytes);
  }
  /* Out edge slots: port by port, each port's edges in the order they were
   * added; two passes over the edges (count, then number). */
  uint32_t ne = tg_num_edges(g);
  b->slot = calloc(ne + 1, sizeof(uint32_t));
  if (!b->slot)
    die("out of memory", "");
  for (uint32_t e = 0; e < ne; e++) {
    tg_edge_info ei;
    tg_edge_describe(g, (int)e, &ei);
    if (ei.capacity > TGP_CAP)
      return snprintf(err, errlen, "edge %u: capacity %u, the POETS back end holds at most %u", e, ei.capacity,
                      TGP_CAP), -1;
    int counted = ei.to_port == 0 && b->props[ei.to].cn; /* posts: no credits, no room */
    if (!counted)
      b->props[ei.to].in_cap[ei.to_port] = ei.capacity;
    tgp_props *p = &b->props[ei.from];
    if (p->out_count[0] + p->out_count[1] == TGP_SLOTS) {
      tg_node_info ni;
      tg_node_describe(g, ei.from, &ni);
      return snprintf(err, errlen, "node %s: more than %u out edges (the POETS back end's limit)", ni.name,
                      TGP_SLOTS), -1;
    }
    p->out_count[ei.from_port]++;
  }
  for (uint32_t i = 0; i < b->nn; i++) {
    tgp_props *p = &b->props[i];
    p->out_first[1] = p->out_count[0];
    p->out_count[0] = p->out_count[1] = 0; /* counted again below, as each edge gets its slot */
  }
  for (uint32_t e = 0; e < ne; e++) {
    tg_edge_info ei;
    tg_edge_describe(g, (int)e, &ei);
    tgp_props *p = &b->props[ei.from];
    b->slot[e] = p->out_first[ei.from_port] + p->out_count[ei.from_port]++;
    p->slot_cap[b->slot[e]] = ei.to_port == 0 && b->props[ei.to].cn ? TGP_NO_CREDIT : ei.capacity;
  }
  for (uint32_t i = 0; i < b->nn; i++) { /* the first state: credits, and a counted port's EVENT WAIT armed */
    tgp_props *p = &b->props[i];
    p->nslots = p->out_count[0] + p->out_count[1];
    memcpy(b->first[i].credit, p->slot_cap, sizeof(p->slot_cap));
    if (p->cn)
      ss_event_wait(&b->first[i].ev, p->cn);
  }
  return 0;
}

typedef ssrun_placed Placed;

static void place_tg(Placed *pl, const tg_graph *g, Build *b, const char *config, uint32_t seed) {
  char err[512];
  if (place_machine_load(&pl->m, config, err, sizeof(err)) != 0)
    die("configuration: ", err);
  pl->g = place_graph_new();
  uint32_t state_bytes = (uint32_t)sizeof(tgp_state) + b->cq; /* and the largest counted port's items */
  int ty = place_add_type(pl->g, "tg node", b->nn, state_bytes, sizeof(tgp_props), 2 * TGP_PORTS, 0);
  int item[TGP_PORTS], credit[TGP_PORTS];
  for (uint32_t q = 0; q < TGP_PORTS; q++) {
    item[q] = place_add_pin(pl->g, ty, (int)q, ty, 0, TGP_MSG, 4);
    credit[q] = place_add_pin(pl->g, ty, (int)(TGP_PORTS + q), ty, 1, 4, 4);
    if (item[q] < 0 || credit[q] < 0)
      die("the graph: ", place_error(pl->g));
  }
  for (uint32_t e = 0; e < tg_num_edges(g); e++) {
    tg_edge_info ei;
    tg_edge_describe(g, (int)e, &ei);
    uint32_t slot = b->slot[e];
    if (place_add_edge(pl->g, item[ei.from_port], (uint32_t)ei.from, (uint32_t)ei.to, ei.to_port) != 0 ||
        (!(ei.to_port == 0 && b->props[ei.to].cn) &&
         place_add_edge(pl->g, credit[ei.to_port], (uint32_t)ei.to, (uint32_t)ei.from, slot) != 0))
      die("the graph: ", place_error(pl->g));
  }
  if (ssrun_place(pl, seed, fill, b, err, sizeof(err)) != 0)
    die(err, "");
}

/* ----------------------------------------- checkpoint of a POETS run */

uint64_t tgp_host_budget = UINT64_MAX;

/* Device I's state in its thread's image (the host engine runs the images in place). */
static const tgp_state *device_state(const Placed *pl, uint32_t i) {
  const uint8_t *image = pl->image[pl->p.thread[i]];
  ss_thread_image h;
  ss_device d;
  memcpy(&h, image, sizeof(h));
  memcpy(&d, image + h.devices_off + (size_t)pl->p.local[i] * sizeof(d), sizeof(d));
  return (const tgp_state *)(image + d.state_off);
}

/* After a run stopped by --stop-after and drained: every node's state and
 * every edge's items (its consumer's queue: a plain port has one edge) into
 * G, which tg_checkpoint then writes. 0, or -1 with ERR. */
static int read_back(const Placed *pl, const Build *b, tg_graph *g, uint64_t *firings, char *err, size_t errlen) {
  *firings = 0;
  for (uint32_t i = 0; i < b->nn; i++) {
    const tgp_state *s = device_state(pl, i);
    if (s->pending || s->owed[0] || s->owed[1] || (s->errors & ~TGP_ERR_LEFT))
      return snprintf(err, errlen, "node %u: not drained (items to send %x, credits owed %u and %u, errors %u)", i,
                      s->pending, s->owed[0], s->owed[1], s->errors), -1;
    const void *inputs[TGP_PORTS] = {s->inbuf[0], s->inbuf[1]};
    if (tg_node_load(g, (int)i, (tg_run_state)s->run, s->ran | s->want << 1, s->firings, s->invocations, s->state,
                     inputs) != 0)
      return snprintf(err, errlen, "%s", tg_error(g)), -1;
    *firings += s->firings;
  }
  for (uint32_t e = 0; e < tg_num_edges(g); e++) {
    tg_edge_info ei;
    tg_edge_describe(g, (int)e, &ei);
    const tgp_props *p = &b->props[ei.to];
    const tgp_state *s = device_state(pl, (uint32_t)ei.to);
    uint32_t q = ei.to_port, bytes = p->in_bytes[q];
    uint8_t items[TGP_CAP * TGP_ITEM];
    uint32_t n = 0; // drained: the window holds its items from the oldest, without gaps
    for (uint32_t at = s->head[q]; s->have[q] >> n & 1u; n++, at = at + 1 == p->in_cap[q] ? 0 : at + 1)
      memcpy(items + n * bytes, s->q[q][at], bytes);
    if (s->have[q] >> n)
      return snprintf(err, errlen, "node %u: input %u: not drained (window %x)", (uint32_t)ei.to, q, s->have[q]), -1;
    if (tg_edge_load(g, (int)e, n, items) != 0)
      return snprintf(err, errlen, "%s", tg_error(g)), -1;
  }
  return 0;
}

/* The other way (tg_poets --resume): G restored from a checkpoint, every
 * device's first state, which fill() writes into the thread images (and so
 * into tsim's preload) as for a fresh start. A
 * checkpoint lies between firings: nothing waits to be sent and no credit
 * is owed. An edge's items sit in its consumer's window from slot 0; its
 * producer's port starts at sequence number 0, so the consumer has taken
 * "minus the items" (mod 2^32), and the edge's credits are its capacity
 * less its items. */
static void load_resume(const tg_graph *g, Build *b) {
  b->resumed = 1;
  for (uint32_t i = 0; i < b->nn; i++) {
    const tgp_props *p = &b->props[i];
    tgp_state *s = &b->first[i]; /* its credits and ctx are there already */
    tg_node_info ni;
    tg_node_describe(g, (int)i, &ni);
    uint32_t flags = tg_node_flags(g, (int)i);
    s->run = (uint32_t)tg_node_run_state(g, (int)i), s->ran = flags & 1u, s->want = flags >> 1;
    s->firings = (uint32_t)tg_node_firings(g, (int)i), s->invocations = (uint32_t)ni.invocations;
    if (p->state_bytes)
      memcpy(s->state, tg_node_state(g, (int)i), p->state_bytes);
    for (uint32_t q = 0; q < p->nin; q++)
      memcpy(s->inbuf[q], tg_node_input(g, (int)i, q), p->in_bytes[q]);
  }
  for (uint32_t e = 0; e < tg_num_edges(g); e++) {
    tg_edge_info ei;
    tg_edge_describe(g, (int)e, &ei);
    uint32_t n = tg_edge_items(g, (int)e), q = ei.to_port, bytes = b->props[ei.to].in_bytes[q];
    uint8_t items[TGP_CAP * TGP_ITEM];
    tg_edge_read(g, (int)e, items); /* n <= capacity <= TGP_CAP (describe checked) */
    tgp_state *c = &b->first[ei.to];
    for (uint32_t k = 0; k < n; k++)
      memcpy(c->q[q][k], items + k * bytes, bytes);
    c->head[q] = 0, c->have[q] = (1u << n) - 1u, c->taken[q] = 0u - n;
    b->first[ei.from].credit[b->slot[e]] -= n;
  }
}

/* ------------------------------------------------------ the reports */

static tgp_report *got;
static uint32_t nodes, reports;

void tgp_report_node(const tgp_report *r) {
  if (r->id < nodes) {
    got[r->id] = *r;
  }
  reports++;
}

static void tsim_line(void *ctx, const char *line) {
  int *softswitch_errors = ctx;
  tgp_report r;
  if (sscanf(line, "tgp: node %x %x %x %x %x %x %x %x", &r.id, &r.run,
             &r.firings, &r.invocations, &r.state_hash, &r.errors, &r.ctx[0], &r.ctx[1]) == 8)
    tgp_report_node(&r);
  else if (strstr(line, "softswitch error"))
    ++*softswitch_errors, fputs(line, stdout);
}

static uint64_t number(const char *opt, const char *s, uint64_t min, uint64_t max) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || end == s || *end || s[0] == '-' || v < min || v > max) {
    fprintf(stderr, "tg_poets: %s %s: a number from %llu to %llu\n", opt, s, (unsigned long long)min,
            (unsigned long long)max);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  uint64_t n = 100, seed = 1, poets_n = 0, stop_after = UINT64_MAX, tree_seed = 1, extra = 0;
  uint32_t cap = 2;
  const char *engine = "softswitch", *config = "board", *delay_seed = NULL, *fw = NULL, *tsim = "build/bin/tsim",
             *checkpoint = NULL, *resume = NULL, *graph = "example", *load = "preload";
  for (int i = 1; i < argc; i += 2) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--n") && strcmp(a, "--cap") && strcmp(a, "--engine") && strcmp(a, "--config") &&
        strcmp(a, "--seed") && strcmp(a, "--delay-seed") && strcmp(a, "--fw") && strcmp(a, "--tsim") &&
        strcmp(a, "--poets-n") && strcmp(a, "--stop-after") && strcmp(a, "--checkpoint") &&
        strcmp(a, "--resume") && strcmp(a, "--graph") && strcmp(a, "--tree-seed") && strcmp(a, "--extra-post") &&
        strcmp(a, "--load"))
      die(a, ": unknown option (see the top of taskgraph/tg_poets.c)");
    if (!v)
      die(a, ": needs a value");
    if (!strcmp(a, "--n")) n = number(a, v, 1, 100000);
    else if (!strcmp(a, "--cap")) cap = (uint32_t)number(a, v, 1, TG_MAX_CAPACITY);
    else if (!strcmp(a, "--engine")) engine = v;
    else if (!strcmp(a, "--config")) config = v;
    else if (!strcmp(a, "--seed")) seed = number(a, v, 0, 0xffffffffu);
    else if (!strcmp(a, "--delay-seed")) delay_seed = v, number(a, v, 0, 0xffffffffu);
    else if (!strcmp(a, "--fw")) fw = v;
    else if (!strcmp(a, "--poets-n")) poets_n = number(a, v, 1, 100000);
    else if (!strcmp(a, "--stop-after")) stop_after = number(a, v, 0, UINT64_MAX - 1);
    else if (!strcmp(a, "--checkpoint")) checkpoint = v;
    else if (!strcmp(a, "--resume")) resume = v;
    else if (!strcmp(a, "--graph")) graph = v;
    else if (!strcmp(a, "--load")) load = v;
    else if (!strcmp(a, "--tree-seed")) tree_seed = number(a, v, 0, 0xffffffffu);
    else if (!strcmp(a, "--extra-post")) extra = number(a, v, 0, 2);
    else tsim = v;
  }
  if (strcmp(load, "preload") && strcmp(load, "hostlink"))
    die(load, ": --load is preload (tsim --preload, the model only) or hostlink (the boot loader, as on a box)");
  if (strcmp(graph, "example") && strcmp(graph, "tree"))
    die(graph, ": --graph is example or tree");
  if (!strcmp(graph, "tree") && (resume || checkpoint))
    die("--graph tree: no --resume or --checkpoint (counted ports: tg_node_load takes plain ports)", "");
  if (!strcmp(graph, "tree") && poets_n >= n)
    die("--graph tree --poets-n M: M below --n", "");
  if (extra && strcmp(graph, "tree"))
    die("--extra-post: --graph tree only", "");
  if (strcmp(engine, "softswitch") && strcmp(engine, "sim"))
    die(engine, ": --engine is softswitch or sim");
  if (!strcmp(engine, "sim") && !fw)
    die("--engine sim needs --fw FILE.elf", " (build/fw/tgp_example.elf; a tile: build/fw/boards/tile/tgp_example.elf)");
  if ((stop_after != UINT64_MAX) != (checkpoint != NULL))
    die("--stop-after and --checkpoint go together", "");
  if (checkpoint && strcmp(engine, "softswitch"))
    die("--checkpoint: the host softswitch engine only", " (--engine softswitch)");
  if (checkpoint && resume)
    die("--resume and --checkpoint: one at a time", "");
  /* The oracle, and the graph the devices run (built the same way). */
  uint32_t result = 0, unused = 0;
  tg_graph *oracle, *g;
  Tree tree;
  TgNode *tn_oracle = NULL, *tn_dev = NULL;
  tgp_kernels = tgp_example_kernels, tgp_num_kernels = tgp_example_num_kernels;
  if (!strcmp(graph, "example")) {
    oracle = tg_example((uint32_t)n, cap, &result), g = tg_example((uint32_t)(poets_n ? poets_n : n), cap, &unused);
    if (!oracle || !g)
      die("cannot build the example graph", "");
  } else {
    tgp_kernels = tgp_tree_kernels, tgp_num_kernels = tgp_tree_num_kernels;
    char gerr[600];
    tn_oracle = calloc(n, sizeof(TgNode)), tn_dev = calloc(n, sizeof(TgNode));
    if (!tn_oracle || !tn_dev || tree_make(&tree, (uint32_t)n, (uint32_t)tree_seed) != 0)
      die("out of memory", "");
    if (!(oracle = tree_tg_graph(&tree, tn_oracle, gerr, sizeof(gerr))))
      die(gerr, "");
    if (poets_n) { /* the devices' tree: its first M nodes (a test of the test) */
      free(tree.parent), free(tree.nc);
      if (tree_make(&tree, (uint32_t)poets_n, (uint32_t)tree_seed) != 0)
        die("out of memory", "");
    }
    if (extra) /* the devices' last node posts twice or never (a test of the test) */
      tree.extra = tree.n - 1, tree.extra_kind = extra;
    if (!(g = tree_tg_graph(&tree, tn_dev, gerr, sizeof(gerr))))
      die(gerr, "");
    free(tree.parent), free(tree.nc);
  }
  tg_set_seed(oracle, seed);
  if (tg_sync_wait(oracle) != 0)
    die("the oracle: ", tg_error(oracle));
  if (tn_oracle)
    printf("tg_poets: multifrontal tree of %llu nodes, seed %llu: oracle %llu firings, root hash %08x size %u height %u\n",
           (unsigned long long)n, (unsigned long long)tree_seed, (unsigned long long)tg_firings(oracle),
           tn_oracle[0].result.hash, tn_oracle[0].result.size, tn_oracle[0].result.height);
  else
    printf("tg_poets: worked example n %llu, capacity %u: oracle %llu firings, total %llu\n", (unsigned long long)n,
           cap, (unsigned long long)tg_firings(oracle), (unsigned long long)result);
  /* The back end. */
  char err[512];
  Build b;
  memset(&b, 0, sizeof(b));
  if (resume && tg_restore(g, resume) != 0) { /* the checkpoint (tg_demo's or tg_poets's), into the devices' graph */
    fprintf(stderr, "tg_poets: %s\n", tg_error(g));
    return 1;
  }
  if (describe(g, &b, err, sizeof(err)) != 0)
    die(err, "");
  if (resume) {
    load_resume(g, &b);
    printf("tg_poets: resuming %s on %s: %llu firings before it\n", resume, engine, (unsigned long long)tg_firings(g));
  }
  Placed pl;
  memset(&pl, 0, sizeof(pl));
  place_tg(&pl, g, &b, config, (uint32_t)seed);
  nodes = b.nn;
  got = calloc(nodes, sizeof(tgp_report));
  for (uint32_t i = 0; i < nodes; i++)
    got[i].run = 0xffffffffu; /* no report */
  ssrun_images im = ssrun_images_of(&pl);
  int rc;
  if (!strcmp(engine, "softswitch")) {
    tgp_host_budget = stop_after;
    rc = ssrun_softswitch(&im, delay_seed ? (uint32_t)number("--delay-seed", delay_seed, 0, 0xffffffffu) : 1);
  } else if (!strcmp(load, "hostlink")) { /* as on a POETS box: through the boot loader */
    int softswitch_errors = 0;
    int st = ssrun_tsim_hostlink(tsim, config, fw, &im, delay_seed, "tgp: node", nodes, tsim_line, &softswitch_errors,
                                 err, sizeof(err));
    rc = st != 0 || softswitch_errors;
    if (st != 0)
      printf("tg_poets: tsim over the host link: %s\n", err);
  } else {
    char path[] = "/tmp/tg-poets-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
      die("cannot create a temporary file: ", strerror(errno));
    close(fd);
    if (ssrun_preload(&im, path, err, sizeof(err)) != 0)
      die(err, "");
    int softswitch_errors = 0;
    int st = ssrun_tsim(tsim, config, NULL, fw, path, delay_seed, tsim_line, &softswitch_errors);
    remove(path);
    rc = st != 0 || softswitch_errors;
    if (st != 0)
      printf("tg_poets: tsim %s (status %d)\n", st < 0 ? "could not be started" : "failed", st);
  }
  if (checkpoint) {
    uint64_t firings = 0;
    err[0] = 0;
    int ok = rc == 0 && read_back(&pl, &b, g, &firings, err, sizeof(err)) == 0 && tg_checkpoint(g, checkpoint) == 0;
    if (!ok)
      printf("tg_poets: no checkpoint: %s\n", rc ? "the run failed" : err[0] ? err : tg_error(g));
    else
      printf("tg_poets: stopped after %llu firings on %s (%s); every device's state read back; checkpoint %s\n",
             (unsigned long long)firings, config, tgp_host_budget ? "the run ended first" : "drained", checkpoint);
    ssrun_placed_free(&pl);
    free(b.props), free(b.slot), free(b.first), free(got);
    tg_graph_free(oracle), tg_graph_free(g);
    return !ok;
  }
  /* Node by node against the oracle. */
  int bad = rc != 0;
  for (uint32_t i = 0; i < nodes; i++) {
    tg_node_info ni;
    tg_node_describe(oracle, (int)i, &ni);
    tgp_report want = {i, (uint32_t)tg_node_run_state(oracle, (int)i), (uint32_t)tg_node_firings(oracle, (int)i),
                       (uint32_t)ni.invocations, tgp_hash(tg_node_state(oracle, (int)i), ni.state_bytes), 0, {0, 0}};
    uint32_t cb = b.props[i].ctx_bytes; /* the kernel's ctx: its first word and a hash */
    if (ni.ctx && cb >= 4)
      memcpy(&want.ctx[0], ni.ctx, 4);
    want.ctx[1] = tgp_hash(ni.ctx, ni.ctx ? cb : 0);
    /* Resumed: a node that fired only before the checkpoint set its ctx on the
     * host, and a checkpoint holds no ctx (the devices start with the graph's). */
    int ctx_before = b.resumed && b.first[i].firings == want.firings;
    if (ctx_before)
      memcpy(want.ctx, got[i].ctx, sizeof(want.ctx));
    const tgp_report *r = &got[i];
    int same = !memcmp(&want, r, sizeof(want));
    if (nodes <= 16 || (!same && bad < 20)) /* a big graph: the first nodes that differ */
      printf("tg_poets: node %u %s: run %u firings %u invocations %u state %08x errors %u ctx %08x%08x%s\n", i, ni.name,
           r->run, r->firings, r->invocations, r->state_hash, r->errors, r->ctx[1], r->ctx[0],
           same ? (ctx_before ? " (ctx: set before the checkpoint, which holds none)" : "") : " (oracle differs)");
    if (!same && bad < 20)
      printf("tg_poets:   oracle: run %u firings %u invocations %u state %08x ctx %08x%08x\n", want.run, want.firings,
             want.invocations, want.state_hash, want.ctx[1], want.ctx[0]);
    bad += !same;
  }
  if (bad >= 20)
    printf("tg_poets: %d nodes differ from the oracle (the first 20 shown with the oracle's)\n", bad);
  bad |= reports != nodes;
  printf("tg_poets: %s on %s: %u reports from %u nodes\n%s\n", engine, config, reports, nodes, bad ? "FAILED" : "PASSED");
  ssrun_placed_free(&pl);
  free(b.props), free(b.slot), free(b.first), free(got), free(tn_oracle), free(tn_dev);
  tg_graph_free(oracle), tg_graph_free(g);
  return bad != 0;
}
