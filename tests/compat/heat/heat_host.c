// tests/compat/heat/heat_host.c: the host side of the POLite-style heat app
// (heat.cpp), speaking only the real protocols through libhostlink:
//   heat_host [--config NAME] [--width W] [--height H] [--steps S] [--sync]
//             [--mailboxes N] [--seed N] [--timeout-s T] HOST DEBUG APP.elf
// A W x H grid of cells, the outer ring held at fixed temperatures, each
// inner cell the mean of its four neighbours at every step. libop2_place
// places the cells on threads with METIS (boards, mailboxes, threads, as
// POLite's mapper) and builds the routes: per cell one multicast per
// destination mailbox of its board and one routing key, with the board
// routers' tables, for the other boards. With --mailboxes N only the first
// N mailboxes of each board take cells (fewer cores to boot on a slow
// model). --sync ends each step by the hardware's idle detection (POLite's
// heat-sync) instead of step counters (heat-gals): every thread of every
// core then takes part, so every core is booted. The tables and each
// thread's devices and tables
// (heat_layout.h) go to the boards through the boot loaders' Store
// commands, the code through hl_load_elf; then Start, go, and one message
// per cell back with its final temperature, compared with the same
// computation in float on the host; last, thread 0 of every started core
// must answer a Load (main returned to the boot loader). Prints "ok ..."
// or "FAILED ..." lines with the figures; exits 0 when all pass.
#define _GNU_SOURCE
#include "heat_layout.h"
#include "hostlink.h"
#include "place.h"
#include "tinsel_config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int failures;

static void verdict(int ok, const char *what, const char *detail) {
  printf("%s %s%s%s\n", ok ? "ok" : "FAILED", what, detail && *detail ? ": " : "", detail ? detail : "");
  failures += !ok;
}

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "heat_host: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) die("out of memory");
  return p;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static long parse_int(const char *opt, const char *s, long lo, long hi) {
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < lo || v > hi) {
    fprintf(stderr, "heat_host: %s %s: expected an integer from %ld to %ld\n", opt, s, lo, hi);
    exit(2);
  }
  return v;
}

// The fixed temperatures of the outer ring; inner cells start at 0.
static float initial(int x, int y, int w, int h) {
  if (y == h - 1) return 100.0f;
  if (y == 0) return 0.0f;
  if (x == 0) return 60.0f;
  if (x == w - 1) return 30.0f;
  return 0.0f;
}

// The same computation on the host, in float, in the same order.
static float *reference(int w, int h, int steps) {
  float *cur = xcalloc((size_t)w * h, sizeof *cur), *next = xcalloc((size_t)w * h, sizeof *next);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) cur[y * w + x] = initial(x, y, w, h);
  for (int s = 0; s < steps; s++) {
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int i = y * w + x;
        if (x == 0 || y == 0 || x == w - 1 || y == h - 1) next[i] = cur[i];
        else next[i] = ((cur[i - 1] + cur[i + 1]) + (cur[i - w] + cur[i + w])) * 0.25f;
      }
    float *t = cur;
    cur = next, next = t;
  }
  free(next);
  return cur;
}

// Distance in units in the last place between two floats.
static long long ulp_diff(float a, float b) {
  int32_t ia, ib;
  memcpy(&ia, &a, 4);
  memcpy(&ib, &b, 4);
  long long oa = ia < 0 ? (long long)INT32_MIN - ia : ia, ob = ib < 0 ? (long long)INT32_MIN - ib : ib;
  return oa > ob ? oa - ob : ob - oa;
}

// A growable byte image of one thread.
typedef struct {
  uint8_t *b;
  size_t len, cap;
} Buf;

static size_t put(Buf *b, const void *p, size_t n) {
  size_t at = (b->len + 3) & ~(size_t)3;
  if (at + n > b->cap) {
    b->cap = 2 * (at + n) + 256;
    b->b = realloc(b->b, b->cap);
    if (!b->b) die("out of memory");
  }
  memset(b->b + b->len, 0, at - b->len);
  memcpy(b->b + at, p, n);
  b->len = at + n;
  return at;
}

int main(int argc, char **argv) {
  const char *config = "board";
  int w = 16, h = 16, steps = 20, mailboxes = 0, timeout_s = 120, sync = 0, a = 1;
  uint32_t seed = 1;
  for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
    const char *o = argv[a], *v = argv[a + 1];
    if (!strcmp(o, "--sync")) {
      sync = 1, a--;
      continue;
    }
    if (!strcmp(o, "--config")) config = v;
    else if (!strcmp(o, "--width")) w = (int)parse_int(o, v, 3, 1024);
    else if (!strcmp(o, "--height")) h = (int)parse_int(o, v, 3, 1024);
    else if (!strcmp(o, "--steps")) steps = (int)parse_int(o, v, 1, 1000000);
    else if (!strcmp(o, "--mailboxes")) mailboxes = (int)parse_int(o, v, 0, 1 << 16);
    else if (!strcmp(o, "--seed")) seed = (uint32_t)parse_int(o, v, 0, 0x7fffffff);
    else if (!strcmp(o, "--timeout-s")) timeout_s = (int)parse_int(o, v, 1, 86400);
    else {
      fprintf(stderr, "heat_host: unknown option %s\n", o);
      return 2;
    }
  }
  if (argc - a != 3) {
    fprintf(stderr, "usage: heat_host [--config NAME] [--width W] [--height H] [--steps S] [--sync] [--mailboxes N] "
                    "[--seed N] [--timeout-s T] HOST DEBUG APP.elf\n");
    return 2;
  }
  const char *host = argv[a], *debug = argv[a + 1], *elf = argv[a + 2];
  char err[1024];
  hl_geometry geo;
  PlaceMachine full, m;
  if (hl_geometry_load(config, &geo, err, sizeof err) || place_machine_load(&full, config, err, sizeof err))
    die("%s", err);
  // The first N mailboxes of each board, as rows of the board's mailbox
  // mesh: thread indices and addresses keep the board's layout (the
  // mailbox fields of an address are MailboxMeshXBits wide whatever the
  // count), so the placement and routes need nothing else.
  m = full;
  if (mailboxes && mailboxes < full.mboxes_per_board) {
    int mx = mailboxes < full.mbox_x ? mailboxes : full.mbox_x, my = mailboxes / mx;
    if (mx * my != mailboxes || my > full.mbox_y) {
      fprintf(stderr, "heat_host: --mailboxes %d: not whole rows of the %d x %d mailbox mesh of '%s'\n", mailboxes,
              full.mbox_x, full.mbox_y, config);
      return 2;
    }
    m.mbox_x = mx, m.mbox_y = my, m.mboxes_per_board = mx * my;
    m.threads_per_board = m.threads_per_mbox * m.mboxes_per_board;
    m.nthreads = m.threads_per_board * m.nboards;
    m.nunits = m.units_per_mbox * m.mboxes_per_board * m.nboards;
  }

  // The graph: every cell sends to its grid neighbours, labelled with the
  // side the sender is on as the receiver sees it.
  uint32_t ncells = (uint32_t)w * (uint32_t)h;
  PlaceGraph *g = place_graph_new();
  int type = place_add_type(g, "cell", ncells, sizeof(HeatState), 0, 1, 0);
  int pin = type < 0 ? -1 : place_add_pin(g, type, 0, type, 0, sizeof(HeatMessage) - 4, 1);
  if (pin < 0) die("%s", place_error(g));
  uint8_t *fan_in = xcalloc(ncells, 1);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint32_t c = (uint32_t)(y * w + x);
      static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      static const uint32_t label[4] = {HEAT_FROM_WEST, HEAT_FROM_EAST, HEAT_FROM_SOUTH, HEAT_FROM_NORTH};
      for (int k = 0; k < 4; k++) {   // c sends to its east neighbour, which hears it from the west, ...
        int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        uint32_t d = (uint32_t)(ny * w + nx);
        if (place_add_edge(g, pin, c, d, label[k])) die("%s", place_error(g));
        fan_in[d]++;
      }
    }
  PlaceOptions opt = {seed, 0, HEAT_MAX_DEVICES};
  PlacePlacement p;
  PlaceRoutes r;
  double t_place = now_s();
  if (place_run(g, &m, &opt, &p) || place_route(g, &m, &p, &r)) die("%s", place_error(g));
  t_place = now_s() - t_place;
  PlaceCutStats cs;
  place_cut_stats(g, &m, &p, &cs);

  // Each used thread's image, and the cores to boot: those of the threads,
  // and the first core of each DRAM holding router tables (its boot loader
  // stores them, and writes them back when it starts); all with --sync.
  int cores_per_board = 1 << geo.log_cores_per_board, ncores_all = cores_per_board * full.nboards;
  char *boot = xcalloc((size_t)ncores_all, 1);
  memset(boot, sync, (size_t)ncores_all);
  for (uint32_t t = 0; t < p.nthreads; t++)
    if (p.thread_first[t + 1] > p.thread_first[t])
      boot[(place_thread_addr(&m, t) >> TinselLogThreadsPerCore) % (uint32_t)cores_per_board +
           (uint32_t)place_thread_board(&m, t) * (uint32_t)cores_per_board] = 1;
  for (int b = 0; b < full.nboards; b++)
    for (int ram = 0; ram < full.drams_per_board; ram++)
      if (r.boards[b].len[ram]) boot[b * cores_per_board + ram * (cores_per_board / full.drams_per_board)] = 1;
  int *cores = xcalloc((size_t)ncores_all, sizeof *cores), ncores = 0;
  for (int c = 0; c < ncores_all; c++)
    if (boot[c]) cores[ncores++] = c;

  float *ref = reference(w, h, steps);
  hostlink *hl = hl_open(host, debug, &geo, err, sizeof err);
  if (!hl) die("%s", err);
  if (hl_set_timeout(hl, timeout_s * 1000)) die("%s", hl_error(hl));
  double t_load = now_s();
  if (hl_load_elf(hl, elf, cores, ncores)) die("loading %s: %s", elf, hl_error(hl));
  for (int b = 0; b < full.nboards; b++)
    for (int ram = 0; ram < full.drams_per_board; ram++) {
      size_t len = r.boards[b].len[ram];
      if (!len) continue;
      int core = ram * (cores_per_board / full.drams_per_board);
      if (hl_store(hl, b % full.boards_x, b / full.boards_x, core, full.router_base,
                   (const uint32_t *)r.boards[b].bytes[ram], len / 4))
        die("router tables of board %d DRAM %d: %s", b, ram, hl_error(hl));
    }
  // Heap bases in the configuration's own layout (tinselHeapBaseGeneric:
  // a tile's one DRAM has fewer, larger partitions than a board's two).
  uint32_t per_dram = (uint32_t)(full.threads_per_board / full.drams_per_board);
  uint32_t image_bytes = 0, used_threads = 0;
  for (uint32_t t = 0; t < p.nthreads; t++) {
    uint32_t addr = place_thread_addr(&m, t);
    int bx, by, core, th;
    hl_from_addr(hl, addr, &bx, &by, &core, &th);
    if (!boot[(bx + by * full.boards_x) * cores_per_board + core]) continue;
    uint32_t heap = TinselDRAMInterleavedBase + (per_dram - 1 - (addr & (per_dram - 1))) * full.thread_bytes;
    uint32_t n = p.thread_first[t + 1] - p.thread_first[t];
    if (!n) {   // a started thread without cells: no header (memory may hold an old one), or with --sync an empty one
      HeatThreadHeader empty = {.magic = sync ? HEAT_MAGIC : 0, .sync = (uint32_t)sync};
      empty.devOff = empty.outOff = empty.inHeaderOff = empty.inEdgeOff = empty.bytes = sizeof empty;
      if (hl_store(hl, bx, by, core, heap, (const uint32_t *)&empty, sync ? sizeof empty / 4 : 1))
        die("%s", hl_error(hl));
      continue;
    }
    used_threads++;
    Buf out = {0}, in = {0}, edges = {0};
    HeatState *st = xcalloc(n, sizeof *st);
    uint32_t nout = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t d = p.thread_dev[p.thread_first[t] + i], o = r.out_first[d];
      int x = (int)(d % (uint32_t)w), y = (int)(d / (uint32_t)w);
      st[i] = (HeatState){.id = d, .time = (uint32_t)steps, .val = initial(x, y, w, h), .fanIn = fan_in[d],
                          .isConstant = x == 0 || y == 0 || x == w - 1 || y == h - 1,
                          .outBase = (uint16_t)nout, .localKey = (uint16_t)r.local_key[o]};
      for (uint32_t s = r.send_first[o]; s < r.send_first[o + 1]; s++) {
        const PlaceSend *ps = &r.sends[s];
        HeatOutEdge e = {(uint16_t)ps->mbox, ps->key, (uint32_t)ps->mask, (uint32_t)(ps->mask >> 32)};
        if (ps->kind == PLACE_TO_KEY) e.key = 0, e.maskHi = 0;
        if (ps->kind == PLACE_TO_HOST || ps->mbox > 0xffff) die("cell %u: a send to the host or to mailbox 0x%x, beyond 16 bits", d, ps->mbox);
        put(&out, &e, sizeof e), nout++;
      }
      HeatOutEdge end = {0, HEAT_NO_KEY, 0, 0};
      put(&out, &end, sizeof end), nout++;
    }
    uint32_t g0 = r.group_first[t], nkeys = r.group_first[t + 1] - g0, nedges = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
      uint32_t f = r.group_recv_first[g0 + k], l = r.group_recv_first[g0 + k + 1];
      HeatInHeader ih = {(uint16_t)nedges, (uint16_t)(l - f)};
      put(&in, &ih, sizeof ih);
      for (uint32_t e = f; e < l; e++) {
        HeatInEdge ie = {r.recvs[e].local, (uint16_t)r.recvs[e].label};
        put(&edges, &ie, sizeof ie), nedges++;
      }
    }
    if (nout > 0xffff || nedges > 0xffff) die("thread %u: %u out-edges, %u in-edges: over the 16-bit indices", t, nout, nedges);
    Buf img = {0};
    HeatThreadHeader hd = {.magic = HEAT_MAGIC, .numDevices = n, .numKeys = nkeys, .sync = (uint32_t)sync};
    put(&img, &hd, sizeof hd);
    hd.devOff = (uint32_t)put(&img, st, n * sizeof *st);
    hd.outOff = (uint32_t)put(&img, out.b, out.len);
    hd.inHeaderOff = (uint32_t)put(&img, in.b, in.len);
    hd.inEdgeOff = (uint32_t)put(&img, edges.b, edges.len);
    hd.bytes = (uint32_t)((img.len + 3) & ~(size_t)3);
    put(&img, "\0\0\0", (size_t)(hd.bytes - img.len));
    memcpy(img.b, &hd, sizeof hd);
    if (hd.bytes + (64u << 10) > full.thread_bytes)
      die("thread %u: an image of %u bytes does not fit its DRAM partition of %u bytes less 64 KiB of stack", t, hd.bytes, full.thread_bytes);
    if (hl_store(hl, bx, by, core, heap, (const uint32_t *)img.b, hd.bytes / 4)) die("%s", hl_error(hl));
    image_bytes += hd.bytes;
    free(img.b), free(out.b), free(in.b), free(edges.b), free(st);
  }
  if (hl_start(hl, cores, ncores, TinselThreadsPerCore - 1) || hl_go(hl)) die("starting %d cores: %s", ncores, hl_error(hl));
  t_load = now_s() - t_load;

  // One message per cell: {from, cycles its thread ran, temperature}.
  double t_run = now_s();
  float *got = xcalloc(ncells, sizeof *got);
  char *seen = xcalloc(ncells, 1);
  uint32_t received = 0, bad = 0, max_cycles = 0;
  char *text = NULL;
  size_t text_len = 0;
  FILE *dev_out = open_memstream(&text, &text_len);
  while (received < ncells && now_s() - t_run < timeout_s) {
    uint8_t msg[64];
    int rc = hl_recv(hl, msg, 200);
    if (rc < 0) die("receiving: %s", hl_error(hl));
    if (rc == 0) {
      if (hl_poll_stdout(hl, dev_out) < 0) die("%s", hl_error(hl));
      continue;
    }
    HeatMessage hm;
    memcpy(&hm, msg, sizeof hm);
    if (hm.from >= ncells || seen[hm.from]) {
      bad++;
      continue;
    }
    seen[hm.from] = 1, got[hm.from] = hm.val, received++;
    if (hm.time > max_cycles) max_cycles = hm.time;
  }
  t_run = now_s() - t_run;
  if (hl_sync_stdout(hl, dev_out) < 0) fprintf(stderr, "heat_host: %s\n", hl_error(hl));
  hl_end_stdout(hl, dev_out);
  fclose(dev_out);
  if (text_len) fprintf(stderr, "heat_host: the threads printed:\n%s", text);
  free(text);

  char d[600];
  snprintf(d, sizeof d,
           "%dx%d cells, %d steps (%s) on %d board(s): %u threads on %d cores (%d mailbox(es) per board), "
           "%llu edges: %llu same thread, %llu same mailbox, %llu same board, %llu other boards; "
           "sends per step %llu multicast, %llu routing key, %llu router records (%llu bytes); "
           "images %u bytes; METIS %.2f s, load %.2f s",
           w, h, steps, sync ? "ended by idle detection" : "step counters", full.nboards, used_threads, ncores, m.mboxes_per_board, (unsigned long long)cs.edges,
           (unsigned long long)cs.same_thread, (unsigned long long)cs.same_mbox, (unsigned long long)cs.same_board,
           (unsigned long long)cs.other_board, (unsigned long long)r.mailbox_sends, (unsigned long long)r.key_sends,
           (unsigned long long)r.records, (unsigned long long)r.table_bytes, image_bytes, t_place, t_load);
  verdict(1, "placed and loaded", d);
  snprintf(d, sizeof d, "%u of %u cells answered in %.2f s, %u unexpected messages; %u cycles on the slowest thread",
           received, ncells, t_run, bad, max_cycles);
  verdict(received == ncells && !bad, "every cell sent its final temperature", d);
  long long worst = 0;
  uint32_t worst_at = 0;
  for (uint32_t i = 0; i < ncells; i++)
    if (seen[i] && ulp_diff(got[i], ref[i]) > worst) worst = ulp_diff(got[i], ref[i]), worst_at = i;
  if (worst)
    snprintf(d, sizeof d, "largest difference %lld ulp over %u cells (cell %u: %.9g, host %.9g)", worst, ncells,
             worst_at, (double)got[worst_at], (double)ref[worst_at]);
  else
    snprintf(d, sizeof d, "largest difference 0 ulp: all %u cells bit for bit (centre %.6g)", ncells,
             (double)ref[(h / 2) * w + w / 2]);
  verdict(received == ncells && worst <= 2, "temperatures match the host's float reference", d);
  // main returned everywhere: thread 0 of each started core is back in the
  // boot loader and answers a Load.
  int back = 0;
  if (received == ncells)
    for (int k = 0; k < ncores; k++) {
      int b = cores[k] / cores_per_board;
      uint32_t word;
      if (hl_load(hl, b % full.boards_x, b / full.boards_x, cores[k] % cores_per_board, TinselDRAMBase, &word, 1))
        break;
      back++;
    }
  snprintf(d, sizeof d, "%d of %d cores answered a Load", back, ncores);
  verdict(back == ncores, "main returned: thread 0 of every core is back in the boot loader", d);
  hl_close(hl);
  place_routes_free(&r);
  place_placement_free(&p);
  place_graph_free(g);
  free(ref), free(got), free(seen), free(fan_in), free(boot), free(cores);
  return failures ? 1 : 0;
}
