/*
 * tree.c: the multifrontal tree app (seeds/002, issue 20 item 2) on the
 * host. Makes a random tree (seeded), computes the root's result with the
 * host oracle, and runs the same tree as softswitch devices (apps/tree/
 * tree_dev.c), one device per node, placed by METIS (libop2_place) on a
 * tile, a board or a box:
 *
 *   tree --nodes N [--seed S] [--engine oracle|place|softswitch|sim|tg] [--config tile|board|box]
 *        [--delay-seed D] [--extra-post | --missing-post] [--fw FILE.elf] [--tsim PATH] [--keep-preload FILE]
 *
 *   oracle      only the oracle;
 *   place       the oracle, then placement and the thread images (their sizes);
 *   softswitch  the real softswitch on the host (taskgraph/ssrun.c), one
 *               simulated mailbox per thread, messages and thread steps
 *               interleaved at random (seeded by --delay-seed, default 1);
 *   sim         thread images written as a tsim --preload file, tsim runs
 *               the firmware (--fw: tree.elf of the configuration's layout)
 *               on the cycle model with --all-threads; the root prints its
 *               result on the debug link.
 *   tg          the tree as a tg.h task graph (taskgraph/tg.h): one function
 *               node per tree node, its children's edges into one counted
 *               input port (UNTIL_COUNT = NC), run by tg.h's host scheduler
 *               (round robin; --delay-seed D: a random order seeded by D);
 *               every node must fire once.
 *
 * The run PASSES when the root's result (hash, size, height) equals the
 * oracle's and no node reported an error; it prints PASSED or FAILED and
 * exits 0 or 1 (2 for bad arguments or a failed placement or run).
 * --extra-post makes one node post to its parent twice (a test of the
 * test: the counted event must catch it, so the run must FAIL). --missing-post
 * makes it never post: its parent waits for ever, and the run must FAIL.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "place.h"
#include "softswitch.h"
#include "ssrun.h"
#include "tg.h"
#include "tree.h"
#include "tree_tg.h"

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

/* Tree, tree_make, props_of and the tg.h graph: tree_tg.h (tg_poets runs the same graph). */

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

typedef ssrun_placed Placed;

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
  if (ssrun_place(pl, seed, fill, t, err, sizeof(err)) != 0)
    die("%s%s", err, "");
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

/* ------------------------------------------------------- the engines */

/* tsim's output: the devices' reports (tree_fw.c prints them in hexadecimal). */
static void tsim_line(void *ctx, const char *line) {
  int *softswitch_errors = ctx;
  unsigned id, hash, size, height, cycle, err, count;
  if (sscanf(line, "tree: root %x: hash %x size %x height %x cycle %x", &id, &hash, &size, &height, &cycle) == 5) {
    rep.roots++;
    rep.root = (tree_msg){hash, size, height};
    printf("tree: the root reported at cycle %u\n", cycle);
  } else if (sscanf(line, "tree: node %x: error %x count %x", &id, &err, &count) == 3) {
    if (!rep.errors++)
      rep.first_bad = id, rep.first_err = err & 0xffu;
  } else if (strstr(line, "softswitch error")) {
    ++*softswitch_errors;
    fputs(line, stdout);
  }
}

static int run_sim(const Placed *pl, const char *config, const char *tsim, const char *fw, const char *preload,
                   const char *delay_seed) {
  char err[512];
  ssrun_images im = ssrun_images_of(pl);
  if (ssrun_preload(&im, preload, err, sizeof(err)) != 0)
    die("%s%s", err, "");
  int softswitch_errors = 0;
  int st = ssrun_tsim(tsim, config, NULL, fw, preload, delay_seed, tsim_line, &softswitch_errors);
  if (st != 0) {
    printf("tree: tsim %s (status %d)\n", st < 0 ? "could not be started" : "failed", st);
    return 1;
  }
  return softswitch_errors != 0;
}

/* ------------------------------------------------ the tree through tg.h */

/* --engine tg: the same tree as a tg.h graph (tree_tg.h) run by its host
 * scheduler. */
static int run_tg(const Tree *t, uint32_t order, tree_msg want) {
  TgNode *nodes = xcalloc(t->n, sizeof(TgNode));
  char err[600];
  tg_graph *g = tree_tg_graph(t, nodes, err, sizeof(err));
  if (!g)
    die("%s%s", err, "");
  int ok;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  tg_set_seed(g, order);
  int r = tg_sync_wait(g);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  uint32_t once = 0, widest = 0;
  for (uint32_t i = 0; i < t->n; i++)
    once += tg_node_firings(g, (int)i) == 1, widest = t->nc[i] > widest ? t->nc[i] : widest;
  tree_msg root = nodes[0].result;
  printf("tree: tg.h graph of %u nodes and %u edges (counted ports up to %u), %s order: %llu firings in %.2f s, %u nodes fired exactly once; "
         "root hash %08x size %u height %u\n",
         tg_num_nodes(g), tg_num_edges(g), widest, order ? "seeded random" : "round-robin", (unsigned long long)tg_firings(g),
         (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9, once, root.hash, root.size, root.height);
  if (r)
    printf("tree: tg_sync_wait: %s\n", tg_error(g));
  ok = r == 0 && once == t->n && root.hash == want.hash && root.size == want.size && root.height == want.height;
  printf("%s\n", ok ? "PASSED" : "FAILED");
  tg_graph_free(g);
  free(nodes);
  return !ok;
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
    else if (!strcmp(a, "--missing-post"))
      extra = 2, takes = 0;
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
  if (strcmp(engine, "oracle") && strcmp(engine, "place") && strcmp(engine, "softswitch") && strcmp(engine, "sim") &&
      strcmp(engine, "tg"))
    die("--engine %s: oracle, place, softswitch, sim or tg%s", engine, "");
  if (!strcmp(engine, "sim") && !fw)
    die("--engine sim needs --fw FILE.elf (build/fw/tree.elf; a tile: build/fw/boards/tile/tree.elf)%s%s", "", "");
  Tree t;
  if (tree_make(&t, nodes, seed) != 0)
    die("out of memory (%s%s)", "the tree", "");
  if (extra && nodes > 1)
    t.extra = nodes - 1, t.extra_kind = extra;
  tree_msg want = oracle(&t);
  printf("tree: %u nodes, seed %u: oracle hash %08x size %u height %u\n", nodes, seed, want.hash, want.size,
         want.height);
  if (!strcmp(engine, "oracle")) {
    free(t.parent), free(t.nc);
    return 0;
  }
  if (!strcmp(engine, "tg")) {
    int bad = run_tg(&t, delay_seed ? number("--delay-seed", delay_seed, 0xffffffffu) : 0, want);
    free(t.parent), free(t.nc);
    return bad;
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
    ssrun_placed_free(&pl);
    free(t.parent), free(t.nc);
    return 0;
  }
  if (!strcmp(engine, "softswitch")) {
    ssrun_images im = ssrun_images_of(&pl);
    rc = ssrun_softswitch(&im, delay_seed ? number("--delay-seed", delay_seed, 0xffffffffu) : 1);
  } else {
    char tmpl[] = "/tmp/tree-preload-XXXXXX";
    const char *path = keep;
    if (!path) {
      int fd = mkstemp(tmpl);
      if (fd < 0)
        die("cannot create a temporary file: %s%s", strerror(errno), "");
      close(fd);
      path = tmpl;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = run_sim(&pl, config, tsim, fw, path, delay_seed);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("tree: tsim ran %.1f s\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    if (!keep)
      remove(path);
  }
  ssrun_placed_free(&pl);
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
