// test_stream.c: native unit tests of the stream scheduler (stream.h), one
// group per rule of MERCATOR's protocol (seed 001), then the pipeline
// against its reference under floods and across partitions whose messages
// arrive in random order between pairs (in order within a pair, as Tinsel
// delivers them). Run under ASan/UBSan by the stream suite.
#include <stdio.h>
#include <string.h>
#include "../tests/firmware/unit.h"
#include "pipeline.h"
#include "stream.h"
#include "stream_func.h"

// ---- small graphs: "pass" forwards its items and signals; "eat" consumes.
static uint32_t pass_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  for (uint32_t k = 0; k < count; k++) stream_emit(g, n, 0, in[k]);
  return count;
}
static void pass_sig(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg) {
  stream_emit_signal(g, n, 0, tag, arg);
}
static uint32_t seen_sig[64], seen_at[64], nseen;  // signals eaten, and items eaten before each
static uint32_t eaten;
static uint32_t eat_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)g, (void)n, (void)in;
  eaten += count;
  return count;
}
static void eat_sig(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg) {
  (void)g, (void)n, (void)arg;
  if (nseen < 64) seen_sig[nseen] = tag, seen_at[nseen++] = eaten;
}
// source: user[0] next, user[1] total; emits `width` per run.
static uint32_t src_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)in, (void)count;
  for (uint32_t k = 0; k < n->width && n->user[0] < n->user[1]; k++) stream_emit(g, n, 0, n->user[0]++);
  if (n->user[0] == n->user[1]) stream_source_end(g, n);
  return 0;
}

// source(width 2) -> a (width 4, max_out 4) -> b (width 4): queue caps 8.
static void chain(stream_graph *g, uint32_t items) {
  stream_init(g, 0);
  stream_add(g, "src", STREAM_NONE, 0, 0, 2, 2, src_fn, 0, 0, 0);
  stream_add(g, "a", 0, 0, STREAM_NONE, 4, 4, pass_fn, pass_sig, 8, 4);
  stream_add(g, "b", 1, 0, STREAM_NONE, 4, 0, eat_fn, eat_sig, 8, 4);
  g->nodes[0].user[1] = items;
  eaten = nseen = 0;
}

static void push(stream_graph *g, uint32_t c, uint32_t items) {  // as node c's producer would
  for (uint32_t k = 0; k < items; k++) stream_emit(g, &g->nodes[g->nodes[c].producer], 0, k);
  g->nodes[g->nodes[c].producer].run_out = 0;
}

static void test_firing_rule(void) {
  stream_graph g;
  chain(&g, 100);
  CHECK(!stream_check(&g), "chain is valid");
  CHECK(stream_fireable(&g, 0) && !stream_fireable(&g, 1) && !stream_fireable(&g, 2),
        "initially only the source is fireable");
  g.nodes[0].blocked = 1;
  CHECK(!stream_fireable(&g, 0), "a BLOCKED node does not fire");
  g.nodes[0].blocked = 0;
  g.nodes[1].active = 1;
  CHECK(!stream_fireable(&g, 0), "a node with an ACTIVE child does not fire");
  CHECK(stream_fireable(&g, 1), "an active node with inactive children fires");
  g.nodes[1].active = 0;
  g.nodes[0].active = 0;
  CHECK(!stream_fireable(&g, 0), "an INACTIVE node does not fire");
}

static void test_full_empty(void) {
  stream_graph g;
  chain(&g, 0);
  // a's queue: cap 8, producer (src) max_out 2: FULL when fewer than 2 slots are free.
  push(&g, 1, 6);
  CHECK(!stream_full(&g, 1), "6 of 8 items, producer max_out 2: not FULL");
  push(&g, 1, 1);
  CHECK(stream_full(&g, 1), "7 of 8 items: FULL (1 free < max_out 2)");
  stream_graph h;
  chain(&h, 0);
  // signals: scap 4, FULL when fewer than MAX_SIGNALS_PER_VEC + MAX_SIGNALS_PER_SIG = 3 free
  stream_emit_signal(&h, &h.nodes[0], 0, 9, 0);
  CHECK(!stream_full(&h, 1), "1 of 4 signals: not FULL");
  stream_emit_signal(&h, &h.nodes[0], 0, 9, 0);
  CHECK(stream_full(&h, 1), "2 of 4 signals: FULL (2 free < 3)");
  // EMPTY: fewer than width items (not flushing), zero items when flushing, zero signals.
  stream_graph e;
  chain(&e, 0);
  push(&e, 2, 3);
  CHECK(stream_empty(&e, 2), "3 items, width 4, not flushing: EMPTY");
  e.nodes[2].flush = 0;
  CHECK(!stream_empty(&e, 2), "3 items when flushing: not EMPTY");
  stream_graph s;
  chain(&s, 0);
  stream_emit_signal(&s, &s.nodes[1], 0, 9, 0);
  CHECK(!stream_empty(&s, 2), "a pending signal: not EMPTY");
}

static void test_runs_and_activation(void) {
  stream_graph g;
  chain(&g, 0);
  push(&g, 2, 6);
  g.nodes[2].active = 1;
  stream_fire(&g, 2);
  CHECK(eaten == 4 && g.nodes[2].in.n == 2, "one run of width 4, 2 items left (ate %u)", eaten);
  CHECK(!g.nodes[2].active, "EMPTY (2 < width 4) ends the firing, the node inactive");
  // The source fires until its child becomes FULL, which activates the child.
  stream_graph s;
  chain(&s, 100);
  stream_fire(&s, 0);
  CHECK(s.nodes[1].active && stream_full(&s, 1) && s.nodes[0].active,
        "the source stops when its child is FULL and activates it (child has %u)", s.nodes[1].in.n);
  CHECK(s.nodes[0].st.runs == 4, "the source ran 4 runs of 2 (%u)", s.nodes[0].st.runs);
  // a fires and its firing ends when its child b becomes FULL (b: cap 8, a's max_out 4).
  stream_fire(&s, 1);
  CHECK(s.nodes[2].active && s.nodes[2].in.n == 8 && s.nodes[1].in.n == 0,
        "a ends its firing when b becomes FULL (b %u, a %u)", s.nodes[2].in.n, s.nodes[1].in.n);
  uint32_t fired = stream_schedule(&s);
  CHECK(eaten == 100 && fired > 0, "the whole stream arrives: %u of 100", eaten);
  for (uint32_t i = 0; i < 3; i++)
    CHECK(!s.nodes[i].active && s.nodes[i].flush == STREAM_NO_FLUSH, "node %u inactive, not flushing at the end", i);
}

static void test_flushing_empty(void) {
  stream_graph g;
  chain(&g, 0);
  push(&g, 2, 3);
  g.nodes[2].active = 1;
  g.nodes[2].flush = 0;
  stream_fire(&g, 2);
  CHECK(eaten == 3, "flushing: the partial run is processed (%u)", eaten);
  CHECK(!g.nodes[2].active && g.nodes[2].flush == STREAM_NO_FLUSH && g.nodes[2].st.flushes == 1,
        "the completed flush is cleared (status %u)", g.nodes[2].flush);
}

static void test_signals_credit(void) {
  stream_graph g;
  chain(&g, 0);
  // b's queue: 2 items, signal A (credit 2), 2 items, signal B (credit 2), 4 items
  push(&g, 2, 2);
  stream_emit_signal(&g, &g.nodes[1], 0, 1, 0);
  push(&g, 2, 2);
  stream_emit_signal(&g, &g.nodes[1], 0, 2, 0);
  push(&g, 2, 4);
  stream_queue *q = &g.nodes[2].in;
  CHECK(q->sigs[q->shead].credit == 2 && q->sigs[(q->shead + 1) % q->scap].credit == 2,
        "credits: items ahead since the previous signal (2, 2)");
  g.nodes[2].active = 1;
  stream_fire(&g, 2);
  CHECK(nseen == 2 && seen_sig[0] == 1 && seen_at[0] == 2 && seen_sig[1] == 2 && seen_at[1] == 4,
        "each signal handled after exactly its credit of items (%u at %u, %u at %u)", seen_sig[0], seen_at[0],
        seen_sig[1], seen_at[1]);
  CHECK(g.nodes[2].st.runs == 3 && eaten == 8, "runs: 2 (credit), 2 (credit), 4 (width); ate %u in %u runs", eaten,
        g.nodes[2].st.runs);
  // A signal arriving at an empty signal queue counts the items already queued.
  stream_graph h;
  chain(&h, 0);
  push(&h, 2, 5);
  stream_emit_signal(&h, &h.nodes[1], 0, 7, 0);
  CHECK(h.nodes[2].in.sigs[0].credit == 5, "first pending signal: credit = queued items (5)");
  // Credit left when a firing stops early is stored back in the head signal:
  // a (width 4, max_out 4) feeds b (cap 8); a has 10 items then a signal.
  stream_graph s;
  chain(&s, 0);
  for (uint32_t k = 0; k < 10; k++) stream_emit(&s, &s.nodes[0], 0, k), s.nodes[0].run_out = 0;
  s.nodes[1].in.cap = 12;
  for (uint32_t k = 0; k < 10; k++) stream_emit(&s, &s.nodes[0], 0, k), s.nodes[0].run_out = 0;
  stream_emit_signal(&s, &s.nodes[0], 0, 5, 0);
  s.nodes[1].active = 1;
  stream_fire(&s, 1);  // two runs of 4 fill b to 8 (FULL: 0 free < 4): stops with credit 20 - 8 = 12
  CHECK(s.nodes[2].active && s.nodes[1].in.sn == 1 && s.nodes[1].in.sigs[s.nodes[1].in.shead].credit == 4,
        "firing stopped by a FULL child keeps the rest of the credit at the head signal (%u)",
        s.nodes[1].in.sigs[s.nodes[1].in.shead].credit);
}

// Regions: src -> r0 (region 0, heads 1) -> r1 (region 1, heads 2) -> r2 (region 2) -> out (region 1) -> end (region 0)
static void regions(stream_graph *g) {
  stream_init(g, 0);
  stream_add(g, "src", STREAM_NONE, 0, 0, 1, 1, src_fn, 0, 0, 0);
  stream_add(g, "r0", 0, 0, 1, 1, 1, pass_fn, pass_sig, 4, 4);
  stream_add(g, "r1", 1, 1, 2, 1, 1, pass_fn, pass_sig, 4, 4);
  stream_add(g, "r2", 2, 2, STREAM_NONE, 1, 1, pass_fn, pass_sig, 4, 4);
  stream_add(g, "out", 3, 1, STREAM_NONE, 1, 1, pass_fn, pass_sig, 4, 4);
  stream_add(g, "end", 4, 0, STREAM_NONE, 1, 0, eat_fn, eat_sig, 4, 4);
}

static void test_flush_regions(void) {
  stream_graph g;
  regions(&g);
  CHECK(!stream_check(&g), "regions graph valid: %s", stream_check(&g) ? stream_check(&g) : "");
  stream_flush_from(&g, &g.nodes[2], 2);  // r1 heads region 2
  CHECK(g.nodes[3].flush == 2 && g.nodes[3].active, "flush of region 2 reaches r2");
  g.nodes[3].active = 1;
  stream_fire(&g, 3);
  CHECK(g.nodes[3].flush == STREAM_NO_FLUSH && g.nodes[4].flush == STREAM_NO_FLUSH && !g.nodes[4].active,
        "it stops at the region's edge: out (region 1) is not flushed by region 2's flush");
  // A flush of region 1 reaches r1, r2 and out but not end (region 0).
  g.nodes[0].active = 0;  // (the source would end its input and flush everything)
  stream_flush_from(&g, &g.nodes[1], 1);
  stream_schedule(&g);
  CHECK(g.nodes[2].st.flushes == 1 && g.nodes[3].st.flushes == 2 && g.nodes[4].st.flushes == 1 &&
            g.nodes[5].st.flushes == 0 && !g.nodes[5].active,
        "region 1's flush: r1, r2, out complete it, end never sees it (%u %u %u %u)", g.nodes[2].st.flushes,
        g.nodes[3].st.flushes, g.nodes[4].st.flushes, g.nodes[5].st.flushes);
  // Status goes to the lower region: a node flushing for region 2 that gets region 1's flush.
  stream_graph h;
  regions(&h);
  h.nodes[3].flush = 2;
  stream_flush_from(&h, &h.nodes[2], 1);  // as r1 passing on region 1's flush
  CHECK(h.nodes[3].flush == 1, "status min(2, 1) = 1 (%u)", h.nodes[3].flush);
  stream_flush_from(&h, &h.nodes[2], 2);
  CHECK(h.nodes[3].flush == 1, "a higher region's flush leaves it at 1 (%u)", h.nodes[3].flush);
  h.nodes[3].active = 1;
  stream_fire(&h, 3);
  CHECK(h.nodes[4].flush == 1 && h.nodes[4].active, "completing region 1's flush passes 1 on to out (region 1)");
  // A node flushing is exactly one with status <= its region.
  CHECK(h.nodes[4].flush <= h.nodes[4].region && h.nodes[5].flush > h.nodes[5].region, "flushing iff status <= region");
  // The source's end flush (region 0) reaches every node and the graph drains.
  stream_graph s;
  regions(&s);
  s.nodes[0].user[1] = 10;
  stream_schedule(&s);
  CHECK(eaten == 10 && !s.nodes[0].active, "end of input: flush 0 drains all 10 items (%u)", eaten);
  for (uint32_t i = 1; i < s.nnodes; i++)
    CHECK(s.nodes[i].st.flushes == 1 && !s.nodes[i].active, "node %s completed the end flush", s.nodes[i].name);
}

// enumerate with a 1-slot parent buffer: it blocks on the second parent.
static uint32_t en_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)count;
  if (!stream_pb_open(g, n)) return 0;
  stream_emit(g, n, 0, in[0]);
  stream_emit_signal(g, n, 0, 1, in[0]);
  return 1;
}
static void rel_sig(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg) {
  (void)tag, (void)arg;
  stream_pb_release(g, n->releases);
}

static void test_blocking(void) {
  stream_graph g;
  stream_init(&g, 0);
  stream_add(&g, "src", STREAM_NONE, 0, 0, 1, 1, src_fn, 0, 0, 0);
  stream_add(&g, "en", 0, 0, 1, 1, 1, en_fn, pass_sig, 4, 4);
  stream_add(&g, "agg", 1, 1, STREAM_NONE, 4, 0, eat_fn, rel_sig, 8, 4);
  g.nodes[1].pb_cap = 1;
  g.nodes[2].releases = 1;
  eaten = nseen = 0;
  push(&g, 1, 2);
  g.nodes[1].active = 1;
  stream_fire(&g, 1);
  CHECK(g.nodes[1].blocked && g.nodes[1].active && g.nodes[1].in.n == 1 && g.nodes[1].st.blocks == 1,
        "full parent buffer: the enumerate BLOCKS with its input left (%u)", g.nodes[1].in.n);
  CHECK(!stream_fireable(&g, 1), "a blocked node is not fireable");
  CHECK(g.nodes[2].flush == 1 && g.nodes[2].active, "blocking flushes the region it heads (agg: status %u)",
        g.nodes[2].flush);
  stream_fire(&g, 2);  // the flush makes agg take its one item and the closing signal: the release
  CHECK(!g.nodes[1].blocked && g.nodes[1].pb_used == 0, "the buffer's release unblocks the enumerate");
  CHECK(stream_fireable(&g, 1), "and it is fireable again (active, children inactive)");
  stream_fire(&g, 1);
  CHECK(g.nodes[1].in.n == 0 && g.nodes[1].pb_used == 1, "the second parent goes through");
}

// A node function that writes more than its max_out in one run, or makes no
// progress, is a bug the scheduler counts (it would break FULL's guarantee).
static uint32_t greedy_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  for (uint32_t k = 0; k < count; k++) stream_emit(g, n, 0, in[k]), stream_emit(g, n, 0, in[k]);
  return count;
}
static uint32_t idle_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)g, (void)n, (void)in, (void)count;
  return 0;
}

static void test_misuse(void) {
  stream_graph g;
  chain(&g, 0);
  g.fns[1].fn = greedy_fn;
  g.nodes[2].in.cap = 16;
  push(&g, 1, 4);
  g.nodes[1].active = 1;
  stream_fire(&g, 1);
  CHECK(g.errors > 0, "writing 8 items in a run with max_out 4 is counted (%u)", g.errors);
  chain(&g, 0);
  g.fns[2].fn = idle_fn;
  push(&g, 2, 4);
  g.nodes[2].active = 1;
  stream_fire(&g, 2);
  CHECK(g.errors == 1 && g.nodes[2].in.n == 4, "a run that consumes nothing without blocking ends the firing, counted");
}

static void test_check(void) {
  stream_graph g;
  chain(&g, 0);
  g.nodes[2].in.cap = 6;  // producer max_out 4 + width 4 - 1 = 7 needed
  CHECK(stream_check(&g) != 0, "a data queue below max_out + width - 1 is refused");
  chain(&g, 0);
  g.nodes[2].in.scap = 2;
  CHECK(stream_check(&g) != 0, "a signal queue below 3 is refused");
}

// ---- the node functions' remainder against C's %: the divisors they use,
// their extremes and random ones, over random and small numerators.
static void test_pipeline_mod(void) {
  static const uint32_t ds[] = {1, 2, 3, 4, 5, 7, 1000, 1009, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu};
  uint32_t x = 2463534242u, wrong = 0, n = 0;
  for (uint32_t i = 0; i < 200000; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    uint32_t a = i < 20000 ? i : x >> (i % 32), d = i & 1 ? ds[i / 2 % 12] : (x * 2654435761u) >> (i / 2 % 32);
    if (d) n++, wrong += pipeline_mod(a, d) != a % d;
  }
  CHECK(!wrong && pipeline_mod(5, 0) == 5 && pipeline_mod(0xffffffffu, 0xfffffffeu) == 1,
        "pipeline_mod = %% (%u of %u wrong)", wrong, n);
}

// ---- the pipeline: scheduler = reference, under floods (minimum queues,
// 1-slot parent buffers) and with room to spare.
static void test_pipeline(void) {
  static const pipeline_cfg cfgs[] = {
      {1000, 1, 0, 0, 1, 1}, {2000, 2, 32, 8, 4, 2}, {3000, 3, 64, 16, 100, 100},
      {500, 4, 0, 3, 1, 50}, {500, 5, 0, 3, 50, 1}, {1, 6, 0, 0, 1, 1}, {0, 7, 0, 0, 1, 1}};
  for (uint32_t c = 0; c < sizeof cfgs / sizeof cfgs[0]; c++) {
    static stream_graph g;
    pipeline_build(&g, &cfgs[c], 0, 0);
    CHECK(!stream_check(&g), "pipeline %u valid", c);
    stream_schedule(&g);
    uint32_t n, h;
    pipeline_reference(&cfgs[c], &n, &h);
    CHECK(pipeline_out_count(&g) == n && pipeline_out_hash(&g) == h && !g.lost && !g.errors,
          "pipeline %u: %u out (reference %u), lost %u, errors %u", c, pipeline_out_count(&g), n, g.lost, g.errors);
    if (c == 1) {  // both parent buffers block; nested flushes stay in their regions
      const stream_node *n = g.nodes;
      CHECK(n[PL_ENUM1].st.blocks > 0 && n[PL_ENUM2].st.blocks > 0, "enum1 and enum2 block (%u, %u)",
            n[PL_ENUM1].st.blocks, n[PL_ENUM2].st.blocks);
      CHECK(n[PL_AGG2].st.flushes > n[PL_AGG1].st.flushes, "region 2 flushes do not reach agg1 (%u > %u)",
            n[PL_AGG2].st.flushes, n[PL_AGG1].st.flushes);
      CHECK(n[PL_AGG1].st.flushes > 1 && n[PL_SINK].st.flushes == 1 && n[PL_FILTER].st.flushes == 1,
            "region 1 flushes reach agg1 (%u), not the sink or filter (region 0: only the end flush)",
            n[PL_AGG1].st.flushes);
    }
  }
}

// ---- across partitions: one graph per partition, the functional engine
// (stream_func.c: per-pair FIFOs picked at random, order kept within a pair).
static uint64_t rng;
static uint32_t rnd(uint32_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)(rng % n);
}

static int run_parts(const pipeline_cfg *cfg, const uint8_t *place, uint32_t parts, uint64_t seed, uint32_t *maxq) {
  static stream_graph g[8];
  for (uint32_t p = 0; p < parts; p++) pipeline_build(&g[p], cfg, place, p);
  stream_func_stats st;
  int bad = stream_func_run(g, parts, seed, &st);
  *maxq = st.pair_max;
  const stream_graph *gp[8];
  for (uint32_t p = 0; p < parts; p++) gp[p] = &g[p];
  pipeline_verdict v;
  pipeline_judge(gp, parts, place, cfg, &v);
  return !bad && v.ok;
}

static void test_partitions(void) {
  static const uint8_t places[][PL_NODES] = {
      {0, 1, 2, 3, 4, 5, 6, 7}, {0, 0, 1, 1, 0, 0, 1, 1}, {0, 1, 0, 1, 0, 1, 0, 1}, {0, 0, 0, 1, 1, 1, 0, 0}};
  static const uint32_t nparts[] = {8, 2, 2, 2};
  static const pipeline_cfg flood = {2000, 9, 0, 0, 1, 1}, roomy = {2000, 10, 32, 8, 4, 2};
  for (uint32_t k = 0; k < 4; k++)
    for (uint64_t seed = 1; seed <= 3; seed++) {
      uint32_t maxq;
      CHECK(run_parts(&flood, places[k], nparts[k], seed, &maxq), "flood, placement %u, order seed %u", k,
            (unsigned)seed);
      CHECK(run_parts(&roomy, places[k], nparts[k], seed, &maxq), "roomy, placement %u, order seed %u", k,
            (unsigned)seed);
    }
  // Random configurations, placements and orders.
  uint32_t bad = 0;
  for (uint32_t k = 0; k < 60; k++) {
    rng = k * 7919u + 17;
    pipeline_cfg c = {rnd(300), rnd(1000), rnd(STREAM_QCAP + 1), rnd(STREAM_SCAP + 1), 1 + rnd(6), 1 + rnd(6)};
    uint8_t place[PL_NODES];
    for (uint32_t i = 0; i < PL_NODES; i++) place[i] = (uint8_t)rnd(4);
    uint32_t maxq;
    if (!run_parts(&c, place, 4, k + 100, &maxq)) {
      bad++;
      printf("random case %u: items %u seed %u qcap %u scap %u pb %u %u differs\n", k, c.items, c.seed, c.qcap, c.scap,
             c.pb1, c.pb2);
    }
  }
  CHECK(bad == 0, "60 random configurations over 4 partitions: %u differ", bad);
}

int main(void) {
  test_firing_rule();
  test_full_empty();
  test_runs_and_activation();
  test_flushing_empty();
  test_signals_credit();
  test_flush_regions();
  test_blocking();
  test_check();
  test_misuse();
  test_pipeline_mod();
  test_pipeline();
  test_partitions();
  return UNIT_FINISH();
}
