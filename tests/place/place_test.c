/* place_test.c: unit tests of libop2_place.
 *
 *   place_test [MESH_FILE]    (MESH_FILE: an airfoil new_grid.dat)
 *
 * Placement on a synthetic grid and on the airfoil mesh (every device once,
 * capacity, type groups per core pair, cut against round robin, the same
 * seed giving the same placement); routes replayed message by message,
 * router tables read back by a decoder written here from tinsel.md §3.3
 * (not the library's), so every edge must arrive exactly once; the image
 * header; and the errors. Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"
#include "softswitch.h"

static int passed, failed;

#define CHECK(cond, ...)                 \
  do {                                   \
    if (cond) passed++;                  \
    else {                               \
      failed++;                          \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);               \
      printf("\n");                      \
    }                                    \
  } while (0)

static PlaceMachine machine(const char *name) {
  PlaceMachine m;
  char err[512];
  if (place_machine_load(&m, name, err, sizeof err)) {
    printf("cannot load %s: %s\n", name, err);
    exit(1);
  }
  return m;
}

/* ---------------------------------------------------------- graphs */

/* A W x H grid of cells and the faces between them, OP2 style: a map
 * face -> 2 cells, read one way and incremented the other. */
static PlaceGraph *grid(int w, int h, int groups) {
  PlaceGraph *g = place_graph_new();
  int nface = (w - 1) * h + w * (h - 1);
  int cells = place_add_type(g, "cells", (uint32_t)(w * h), 40, 8, 1, 0);
  int faces = place_add_type(g, "faces", (uint32_t)nface, 24, 0, 1, groups > 1 ? 1 : 0);
  int *map = malloc(sizeof(int) * 2 * (size_t)nface), f = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (x + 1 < w) map[2 * f] = y * w + x, map[2 * f + 1] = y * w + x + 1, f++;
      if (y + 1 < h) map[2 * f] = y * w + x, map[2 * f + 1] = (y + 1) * w + x, f++;
    }
  int fwd = place_add_pin(g, faces, 0, cells, 0, 16, 1);
  int rev = place_add_pin(g, cells, 0, faces, 0, 16, 1);
  if (place_add_map_edges(g, "pface", faces, cells, 2, map, fwd, rev)) {
    printf("grid: %s\n", place_error(g));
    exit(1);
  }
  place_add_host_in_pin(g, cells, 1);
  place_add_host_out_pin(g, cells, 0);
  free(map);
  return g;
}

/* ------------------------------------------------------- placement */

static void check_placement(const char *what, PlaceGraph *g, const PlaceMachine *m,
                            const PlacePlacement *p) {
  uint32_t n = g->ndevices, *seen = calloc(n, sizeof *seen);
  int ok_once = 1, ok_local = 1, ok_cap = 1, ok_group = 1;
  for (uint32_t t = 0; t < p->nthreads; t++) {
    uint32_t k = p->thread_first[t + 1] - p->thread_first[t];
    uint64_t bytes = 0;
    for (uint32_t i = p->thread_first[t]; i < p->thread_first[t + 1]; i++) {
      uint32_t d = p->thread_dev[i];
      seen[d]++;
      ok_local &= p->thread[d] == t && p->local[d] == i - p->thread_first[t];
      const PlaceType *ty = &g->types[place_type_of(g, d)];
      bytes += place_layout_device_bytes(ty);
      ok_group &= p->unit_group[place_thread_unit(m, t)] == ty->group;
    }
    ok_cap &= k <= place_layout_max_devices() && bytes <= place_layout_state_budget(m);
  }
  for (uint32_t d = 0; d < n; d++) ok_once &= seen[d] == 1;
  CHECK(ok_once, "%s: every device placed exactly once", what);
  CHECK(ok_local, "%s: thread and local index agree with the thread lists", what);
  CHECK(ok_cap, "%s: per-thread devices and bytes within the limits", what);
  CHECK(ok_group, "%s: every device on a core pair of its type's group", what);
  free(seen);
}

static int place_or_die(PlaceGraph *g, const PlaceMachine *m, uint32_t seed, int rr,
                        PlacePlacement *p) {
  PlaceOptions o = {seed, rr, 0};
  if (place_run(g, m, &o, p)) {
    printf("place_run: %s\n", place_error(g));
    exit(1);
  }
  return 0;
}

/* Places with METIS and round robin, compares, checks determinism. */
static void placement_suite(const char *what, PlaceGraph *(*make)(void *), void *arg,
                            const PlaceMachine *m, int one_group) {
  PlaceGraph *g = make(arg), *g2 = make(arg), *g3 = make(arg);
  PlacePlacement p, p2, rr;
  place_or_die(g, m, 7, 0, &p);
  place_or_die(g2, m, 7, 0, &p2);
  place_or_die(g3, m, 7, 1, &rr);
  char name[200];
  snprintf(name, sizeof name, "%s on %s", what, m->name);
  check_placement(name, g, m, &p);
  check_placement(name, g3, m, &rr);
  CHECK(!memcmp(p.thread, p2.thread, p.ndevices * sizeof *p.thread), "%s: same seed, same placement", name);
  PlaceCutStats s, sr;
  place_cut_stats(g, m, &p, &s);
  place_cut_stats(g3, m, &rr, &sr);
  uint64_t off = s.same_board + s.other_board, off_rr = sr.same_board + sr.other_board;
  printf("  %s: METIS cut %llu, off-mailbox %llu, board hops %llu; round robin cut %llu, "
         "off-mailbox %llu, board hops %llu (of %llu edges)\n", name, (unsigned long long)s.cut,
         (unsigned long long)off, (unsigned long long)s.hops, (unsigned long long)sr.cut,
         (unsigned long long)off_rr, (unsigned long long)sr.hops, (unsigned long long)s.edges);
  if (one_group) CHECK(s.cut < sr.cut, "%s: METIS thread cut below round robin's", name);
  CHECK(off_rr == 0 || off < off_rr, "%s: METIS off-mailbox edges below round robin's", name);
  if (g->ndevices >= p.nthreads) /* else round robin leaves boards empty */
    CHECK(s.hops <= sr.hops, "%s: METIS board hops at most round robin's", name);
  place_placement_free(&p), place_placement_free(&p2), place_placement_free(&rr);
  place_graph_free(g), place_graph_free(g2), place_graph_free(g3);
}

typedef struct {
  int w, h, groups;
} GridArg;
static PlaceGraph *make_grid(void *a) {
  GridArg *ga = a;
  return grid(ga->w, ga->h, ga->groups);
}

typedef struct {
  const char *path;
  int one_group;
} MeshArg;
static PlaceGraph *make_airfoil(void *a) {
  MeshArg *ma = a;
  char err[512];
  PlaceGraph *g = place_airfoil_graph(ma->path, ma->one_group ? PLACE_AIRFOIL_ONE_GROUP : PLACE_AIRFOIL_GROUP_PER_SET,
                                      64, stderr, err, sizeof err);
  if (!g) {
    printf("airfoil graph: %s\n", err);
    exit(1);
  }
  return g;
}

/* ------------------------------------------ an independent decoder */

typedef struct {
  int tag, mbox, thread, dir;
  uint64_t key, mask;
} Rec;

static uint64_t le48(const uint8_t *b) {
  uint64_t v = 0;
  for (int i = 5; i >= 0; i--) v = v << 8 | b[i];
  return v;
}

/* Record at chunk POS of BEAT (0 = bytes 29:24); returns chunks used. */
static int decode(const uint8_t *beat, int pos, Rec *r) {
  const uint8_t *top = beat + 24 - 6 * pos; /* the chunk holding the tag */
  uint64_t c = le48(top), lo = 0;
  memset(r, 0, sizeof *r);
  r->tag = (int)(c >> 45);
  int wide = r->tag == 1 || r->tag == 3;
  if (wide) lo = le48(top - 6);
  switch (r->tag) {
  case 0: r->mbox = (int)(c >> 41 & 15), r->thread = (int)(c >> 35 & 63), r->key = c & 0xffffffff; break;
  case 1: r->mbox = (int)(c >> 41 & 15), r->thread = (int)(c >> 35 & 63), r->key = (c & 0xffff) << 48 | lo; break;
  case 2: r->dir = (int)(c >> 43 & 3), r->key = c & 0xffffffff; break;
  case 3: r->mbox = (int)(c >> 41 & 15), r->key = c >> 16 & 0xffff, r->mask = (c & 0xffff) << 48 | lo; break;
  default: r->key = c & 0xffffffff; break;
  }
  return wide ? 2 : 1;
}

typedef struct {
  uint32_t thread;
  uint16_t key;
} Hit;

typedef struct {
  Hit *hits;
  size_t n, cap;
  int bad;
  const char *why;
} Deliveries;

static void hit(Deliveries *d, uint32_t thread, uint16_t key) {
  if (d->n == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 64;
    d->hits = realloc(d->hits, d->cap * sizeof *d->hits);
  }
  d->hits[d->n++] = (Hit){thread, key};
}

/* Follows KEY on BOARD as the router would, recording MRM deliveries. */
static void walk(const PlaceMachine *m, const PlaceRoutes *r, int board, uint32_t key, int depth,
                 Deliveries *d) {
  int lbe = m->log_routing_entry_len, lbd = m->log_beats_per_dram;
  int nbeats = (int)(key & ((1u << lbe) - 1));
  int ram = (int)(key >> (lbd + lbe));
  uint32_t addr = ((key >> lbe) & ((1u << lbd) - 1)) << m->log_bytes_per_beat;
  if (depth > 64 || ram >= m->drams_per_board || addr < m->router_base) {
    d->bad = 1, d->why = "bad key";
    return;
  }
  size_t off = addr - m->router_base;
  const PlaceBoardTable *t = &r->boards[board];
  if (off + (size_t)nbeats * 32 > t->len[ram]) {
    d->bad = 1, d->why = "key beyond the table";
    return;
  }
  int inds = 0;
  for (int b = 0; b < nbeats; b++) {
    const uint8_t *beat = t->bytes[ram] + off + 32 * (size_t)b;
    int count = beat[30] | beat[31] << 8, pos = 0;
    for (int k = 0; k < count; k++) {
      Rec rec;
      pos += decode(beat, pos, &rec);
      if (pos > 5) {
        d->bad = 1, d->why = "records overflow a beat";
        return;
      }
      if (rec.tag == 2) {
        static const int dx[4] = {0, 0, 1, -1}, dy[4] = {1, -1, 0, 0};
        int x = board % m->boards_x + dx[rec.dir], y = board / m->boards_x + dy[rec.dir];
        if (x < 0 || y < 0 || x >= m->boards_x || y >= m->boards_y) {
          d->bad = 1, d->why = "RR off the mesh";
          return;
        }
        walk(m, r, y * m->boards_x + x, (uint32_t)rec.key, depth + 1, d);
      } else if (rec.tag == 3) {
        int mx = rec.mbox & ((1 << m->mbox_x_bits) - 1), my = rec.mbox >> m->mbox_x_bits;
        uint32_t base = (uint32_t)(board * m->threads_per_board + (my * m->mbox_x + mx) * m->threads_per_mbox);
        for (int th = 0; th < m->threads_per_mbox; th++)
          if (rec.mask >> th & 1) hit(d, base + (uint32_t)th, (uint16_t)rec.key);
      } else if (rec.tag == 4) {
        inds++;
        walk(m, r, board, (uint32_t)rec.key, depth + 1, d);
      } else {
        d->bad = 1, d->why = "unexpected record type";
      }
    }
  }
  if (nbeats == 31 && inds != 1) d->bad = 1, d->why = "a 31-beat key without exactly one IND";
}

/* ------------------------------------------------------- routing */

typedef struct {
  uint32_t dev;
  uint32_t pin, label;
} Arrival;

static int cmp_arrival(const void *a, const void *b) {
  const Arrival *p = a, *q = b;
  if (p->dev != q->dev) return p->dev < q->dev ? -1 : 1;
  if (p->pin != q->pin) return p->pin < q->pin ? -1 : 1;
  return p->label < q->label ? -1 : p->label > q->label;
}

/* Replays every (device, pin)'s sends and compares the receivers reached
 * with its edges: each must arrive exactly once. */
static void check_routes(const char *what, PlaceGraph *g, const PlaceMachine *m,
                         const PlacePlacement *p, const PlaceRoutes *r) {
  int ok = 1, ok_local = 1, ok_board = 1, ok_hw = 1;
  const char *why = "";
  Arrival *want = NULL, *got = NULL;
  size_t wcap = 0, gcap = 0;
  Deliveries d = {0};
  for (int ti = 0; ti < g->ntypes && ok; ti++) {
    const PlaceType *ty = &g->types[ti];
    for (uint32_t i = 0; i < ty->count && ok; i++) {
      uint32_t dev = ty->first + i, src = p->thread[dev];
      for (int op = 0; op < ty->num_out_pins; op++) {
        size_t nw = 0, ng = 0;
        for (int pi = 0; pi < g->npins; pi++) {
          const PlacePin *pin = &g->pins[pi];
          if (pin->src_type != ti || pin->out_pin != op) continue;
          for (uint32_t e = pin->first[i]; e < pin->first[i + 1]; e++) {
            if (nw == wcap) wcap = wcap ? 2 * wcap : 64, want = realloc(want, wcap * sizeof *want);
            want[nw++] = (Arrival){g->types[pin->dst_type].first + pin->dst[e], (uint32_t)pin->in_pin,
                                   pin->edge_bytes ? pin->label[e] : 0};
          }
        }
        uint32_t o = r->out_first[dev] + (uint32_t)op;
        d.n = 0;
        if (r->local_key[o] != PLACE_NO_KEY) hit(&d, src, (uint16_t)r->local_key[o]);
        for (uint32_t s = r->send_first[o]; s < r->send_first[o + 1]; s++) {
          const PlaceSend *ps = &r->sends[s];
          if (ps->kind == PLACE_TO_MAILBOX) {
            uint32_t t0 = ps->mbox;
            for (uint32_t t = 0; t < p->nthreads; t += (uint32_t)m->threads_per_mbox)
              if (place_thread_mbox(m, t) == t0) {
                ok_board &= place_thread_board(m, t) == place_thread_board(m, src);
                for (int th = 0; th < m->threads_per_mbox; th++)
                  if (ps->mask >> th & 1) {
                    ok_local &= t + (uint32_t)th != src;
                    hit(&d, t + (uint32_t)th, ps->key);
                  }
              }
          } else if (ps->kind == PLACE_TO_KEY) {
            ok_hw &= ps->mbox == m->mailbox_routing_key;
            walk(m, r, place_thread_board(m, src), (uint32_t)ps->mask, 0, &d);
          }
        }
        if (d.bad) {
          ok = 0, why = d.why;
          break;
        }
        for (size_t h = 0; h < d.n; h++) {
          uint32_t t = d.hits[h].thread, k = d.hits[h].key;
          uint32_t g0 = r->group_first[t];
          if (k >= r->group_first[t + 1] - g0) {
            ok = 0, why = "key outside the thread's in-groups";
            break;
          }
          for (uint32_t e = r->group_recv_first[g0 + k]; e < r->group_recv_first[g0 + k + 1]; e++) {
            const PlaceRecv *rv = &r->recvs[e];
            if (ng == gcap) gcap = gcap ? 2 * gcap : 64, got = realloc(got, gcap * sizeof *got);
            got[ng++] = (Arrival){p->thread_dev[p->thread_first[t] + rv->local], rv->in_pin,
                                  rv->edge_bytes ? rv->label : 0};
          }
        }
        qsort(want, nw, sizeof *want, cmp_arrival);
        qsort(got, ng, sizeof *got, cmp_arrival);
        if (ok && (nw != ng || (nw && memcmp(want, got, nw * sizeof *want)))) {
          ok = 0, why = "receivers differ from the edges";
          printf("    device %u pin %d: %zu edges, %zu deliveries\n", dev, op, nw, ng);
        }
        if (!ok) break;
      }
    }
  }
  CHECK(ok, "%s: every edge delivered exactly once per destination (%s)", what, why);
  CHECK(ok_local, "%s: no multicast includes the sender's own thread", what);
  CHECK(ok_board, "%s: mailbox multicasts stay on the sender's board", what);
  CHECK(ok_hw, "%s: key sends go to MailboxRoutingKey", what);
  free(want), free(got), free(d.hits);
}

static void routing_suite(const char *what, PlaceGraph *g, const PlaceMachine *m) {
  PlacePlacement p;
  PlaceRoutes r;
  place_or_die(g, m, 3, 0, &p);
  if (place_route(g, m, &p, &r)) {
    CHECK(0, "place_route: %s", place_error(g));
    return;
  }
  char name[200];
  snprintf(name, sizeof name, "routes of %s on %s", what, m->name);
  check_routes(name, g, m, &p, &r);
  printf("  %s: %llu local, %llu mailbox, %llu key sends; %llu records, %llu table bytes\n", name,
         (unsigned long long)r.local_sends, (unsigned long long)r.mailbox_sends,
         (unsigned long long)r.key_sends, (unsigned long long)r.records,
         (unsigned long long)r.table_bytes);
  place_routes_free(&r);
  place_placement_free(&p);
  place_graph_free(g);
}

/* ------------------------------------------------ router records */

static void record_suite(void) {
  /* a hand-encoded MRM: mailbox (Y1,X1), key 0xbeef, mask 0x0123456789abcdef */
  uint8_t beat[32] = {0};
  PlaceRecord mrm = {.tag = PLACE_MRM, .mbox = 5, .key = 0xbeef, .mask = 0x0123456789abcdefull};
  place_beat_put(beat, 0, &mrm);
  static const uint8_t want[12] = {0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0xef, 0xbe, 0x00, 0x6a};
  CHECK(!memcmp(beat + 18, want, 12), "MRM bytes 29:18 as tinsel.md §3.3 lays them out");
  /* every type round-trips through the decoder, in every position it fits */
  uint64_t seed = 12345;
  int ok = 1;
  for (int trial = 0; trial < 2000; trial++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    PlaceRecord in = {.tag = (int)(seed >> 61) % 5, .mbox = (int)(seed >> 20 & 15),
                      .thread = (int)(seed >> 30 & 63), .dir = (int)(seed >> 40 & 3)};
    uint64_t s2 = seed * 2862933555777941757ull + 3037000493ull;
    in.key = in.tag == PLACE_URM2 ? s2 : in.tag == PLACE_MRM ? s2 & 0xffff : s2 & 0xffffffff;
    in.mask = in.tag == PLACE_MRM ? s2 * 31 + seed : 0;
    int pos = (int)((seed >> 8) % (uint64_t)(6 - place_record_chunks(&in)));
    memset(beat, 0, sizeof beat);
    place_beat_put(beat, pos, &in);
    Rec out;
    int chunks = decode(beat, pos, &out);
    int same = out.tag == in.tag && out.key == in.key && chunks == place_record_chunks(&in);
    if (in.tag == PLACE_URM1 || in.tag == PLACE_URM2) same &= out.mbox == in.mbox && out.thread == in.thread;
    if (in.tag == PLACE_MRM) same &= out.mbox == in.mbox && out.mask == in.mask;
    if (in.tag == PLACE_RR) same &= out.dir == in.dir;
    if (!same) printf("    record tag %d at %d did not round-trip\n", in.tag, pos);
    ok &= same;
  }
  CHECK(ok, "URM1, URM2, RR, MRM and IND records round-trip through an independent decoder");

  /* a long destination list: IND chains, every MRM found once */
  PlaceMachine m = machine("box");
  PlaceGraph *g = place_graph_new();
  PlaceRoutes r = {0};
  r.nboards = (uint32_t)m.nboards;
  r.boards = calloc((size_t)m.nboards, sizeof *r.boards);
  enum { N = 400 };
  PlaceRemote rem[N];
  for (int i = 0; i < N; i++) rem[i] = (PlaceRemote){i % 16, 1ull << (i % 64), (uint16_t)i, 5};
  uint32_t key;
  int rc = place_route_remote(g, &m, &r, 0, rem, N, &key);
  CHECK(rc == 0, "400 destinations on a far board: %s", rc ? place_error(g) : "routed");
  Deliveries d = {0};
  walk(&m, &r, 0, key, 0, &d);
  CHECK(!d.bad, "long record lists decode (%s)", d.bad ? d.why : "ok");
  int count[N] = {0}, once = (int)d.n == N;
  for (size_t i = 0; i < d.n; i++) {
    int k = d.hits[i].key;
    uint32_t in_board = d.hits[i].thread % (uint32_t)m.threads_per_board;
    int mb = (int)in_board / m.threads_per_mbox, th = (int)in_board % m.threads_per_mbox;
    int mbox = (mb / m.mbox_x) << m.mbox_x_bits | mb % m.mbox_x;
    if (k < N && mbox == rem[k].board_mbox && th == k % 64 &&
        place_thread_board(&m, d.hits[i].thread) == 5) count[k]++;
  }
  for (int i = 0; i < N; i++) once &= count[i] == 1;
  CHECK(once, "each of 400 MRM destinations reached exactly once through the IND chain");
  free(d.hits);
  place_routes_free(&r);
  place_graph_free(g);
}

/* -------------------------------------------------------- images */

static void fill(void *ctx, int type, uint32_t index, void *state, void *props) {
  (void)ctx, (void)props;
  memcpy(state, &index, sizeof index);
  ((uint8_t *)state)[4] = (uint8_t)type;
}

static void image_suite(void) {
  PlaceMachine m = machine("tile");
  PlaceGraph *g = grid(6, 5, 1);
  PlacePlacement p;
  PlaceRoutes r;
  place_or_die(g, &m, 1, 0, &p);
  if (place_route(g, &m, &p, &r)) {
    CHECK(0, "route: %s", place_error(g));
    return;
  }
  int ok = 1;
  uint32_t props = 0x12345678;
  for (uint32_t t = 0; t < p.nthreads && ok; t++) {
    uint8_t *img;
    uint32_t n;
    if (place_image(g, &m, &p, &r, t, &props, 4, SS_FLAG_EXIT_ON_IDLE, fill, NULL, &img, &n)) {
      CHECK(0, "place_image: %s", place_error(g));
      return;
    }
    ss_thread_image h;
    memcpy(&h, img, sizeof h);
    uint32_t nd = p.thread_first[t + 1] - p.thread_first[t];
    ok &= h.magic == SS_MAGIC && h.version == SS_VERSION && h.image_bytes == n &&
          h.num_devices == nd && h.num_in_groups == r.group_first[t + 1] - r.group_first[t] &&
          h.flags == SS_FLAG_EXIT_ON_IDLE && h.ready_off + SS_READY_BYTES(nd) <= n;
    ok &= !memcmp(img + h.graph_props_off, &props, 4);
    for (uint32_t i = 0; i < nd && ok; i++) {
      ss_device sd;
      memcpy(&sd, img + h.devices_off + i * sizeof sd, sizeof sd);
      uint32_t dev = p.thread_dev[p.thread_first[t] + i], idx;
      int ti = place_type_of(g, dev);
      memcpy(&idx, img + sd.state_off, 4);
      ok &= sd.type == (uint16_t)g->types[ti].image_index && idx == dev - g->types[ti].first &&
            img[sd.state_off + 4] == ti && sd.state_off % 8 == 0 && sd.state_off < n;
      for (int op = 0; op < g->types[ti].num_out_pins; op++) {
        ss_out_pin sp;
        memcpy(&sp, img + h.out_pins_off + (sd.out_pin_base + (uint32_t)op) * sizeof sp, sizeof sp);
        uint32_t o = r.out_first[dev] + (uint32_t)op;
        ok &= sp.local_key == r.local_key[o] && sp.num_edges == r.send_first[o + 1] - r.send_first[o];
      }
    }
    free(img);
  }
  CHECK(ok, "thread images: header, device table, state from the fill callback, out pins");
  place_routes_free(&r);
  place_placement_free(&p);
  place_graph_free(g);
}

/* -------------------------------------------------------- errors */

static void expect_error(const char *what, PlaceGraph *g, const char *config, uint32_t maxdev,
                         const char *want) {
  PlaceMachine m = machine(config);
  PlacePlacement p;
  PlaceOptions o = {1, 0, maxdev};
  int rc = place_run(g, &m, &o, &p);
  CHECK(rc != 0 && strstr(place_error(g), want), "%s: error mentions \"%s\" (got \"%s\")", what, want,
        rc ? place_error(g) : "success");
  if (rc == 0) place_placement_free(&p);
  place_graph_free(g);
}

static void error_suite(void) {
  PlaceGraph *g = grid(4, 4, 1);
  place_add_dat(g, 0, "big", 57);
  expect_error("dat over a message", g, "tile", 0, "dat 'big' on 'cells': an element of 57 bytes does not fit one message: 56 payload bytes");
  g = place_graph_new();
  int a = place_add_type(g, "a", 2, 8, 0, 1, 0);
  place_add_pin(g, a, 0, a, 0, 60, 0);
  expect_error("message over 64 bytes", g, "tile", 0, "a message of 60 payload bytes does not fit: limit 56");
  g = place_graph_new();
  place_add_type(g, "huge", 1, 3u << 20, 0, 0, 0);
  expect_error("state over the partition", g, "board", 0, "type 'huge': one device needs");
  g = grid(15, 15, 1);
  expect_error("more devices than the machine", g, "tile", 2, "devices, but configuration 'tile' holds at most 128");
  g = place_graph_new();
  for (int i = 0; i < 3; i++) {
    char name[8] = {'t', (char)('0' + i), 0};
    place_add_type(g, name, 4, 8, 0, 0, i);
  }
  expect_error("more groups than core pairs", g, "tile", 0, "3 code groups of device types, but configuration 'tile' has only 2 core pairs");
  g = place_graph_new();
  place_add_type(g, "fat", 5000, 600, 0, 0, 0);
  place_add_type(g, "x", 1, 8, 0, 0, 1);
  expect_error("group needs more pairs than left", g, "tile", 100, "the devices need 3 core pairs but configuration 'tile' has 2");
  g = place_graph_new();
  a = place_add_type(g, "a", 3, 8, 0, 1, 0);
  int pin = place_add_pin(g, a, 0, a, 0, 8, 0);
  CHECK(place_add_edge(g, pin, 0, 3, 0) != 0 && strstr(place_error(g), "edge a[0] -> a[3]: index outside"),
        "edge index out of range: %s", place_error(g));
  int bad[2] = {0, 7};
  CHECK(place_add_map_edges(g, "m", a, a, 2, bad, pin, -1) != 0 &&
            strstr(place_error(g), "map 'm': entry 0.1 is 7, outside set 'a' (0..2)"),
        "map value out of range: %s", place_error(g));
  place_graph_free(g);
}

int main(int argc, char **argv) {
  PlaceMachine tile = machine("tile"), board = machine("board"), box = machine("box");
  GridArg g1 = {24, 20, 1}, g2 = {24, 20, 2};
  placement_suite("grid 24x20, one group", make_grid, &g1, &tile, 1);
  placement_suite("grid 24x20, one group", make_grid, &g1, &board, 1);
  placement_suite("grid 24x20, two groups", make_grid, &g2, &box, 0);
  if (argc > 1) {
    MeshArg one = {argv[1], 1}, four = {argv[1], 0};
    placement_suite("airfoil, one group", make_airfoil, &one, &board, 1);
    placement_suite("airfoil, four groups", make_airfoil, &four, &board, 0);
    placement_suite("airfoil, four groups", make_airfoil, &four, &box, 0);
    routing_suite("airfoil, four groups", make_airfoil(&four), &box);
    routing_suite("airfoil, one group", make_airfoil(&one), &board);
  }
  routing_suite("grid 24x20, one group", grid(24, 20, 1), &tile);
  routing_suite("grid 24x20, two groups", grid(24, 20, 2), &box);
  record_suite();
  image_suite();
  error_suite();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
