// pipeline.c: the pipeline's node functions and graph (pipeline.h). No
// library calls: it builds for the firmware and the host alike.
#include "pipeline.h"

// (pipeline.h) Subtract d's multiples d * 2^k, from the largest at most n
// down: log2(n / d) + 1 steps, where the library's shift-subtract takes 32.
uint32_t pipeline_mod(uint32_t n, uint32_t d) {
  uint32_t s = d;
  if (!d) return n;
  while (s <= n >> 1) s <<= 1;  // (s <= 2^31 - 1 before the shift: no overflow)
  for (; s >= d; s >>= 1)
    if (n >= s) n -= s;
  return n;
}

static uint32_t value(uint32_t i, uint32_t seed) {
  uint32_t h = (i ^ seed) * 2654435761u;
  h ^= h >> 15;
  return pipeline_mod(h, 1000u);
}
static uint32_t child1(uint32_t x, uint32_t j) { return (x * 7u + j * 13u) % 1000u; }
static uint32_t fan1(uint32_t x) { return x % 4u; }          // 0..3 children
static uint32_t fan2(uint32_t c) { return c % 3u; }          // 0..2 children
static uint32_t work(uint32_t d) { return (d * 31u + 7u) % 1009u; }
static int kept(uint32_t x) { return x % 5u != 0; }
static int kept2(uint32_t y) { return y % 7u != 0; }
static uint32_t close2(uint32_t c, uint32_t sum, uint32_t cnt) { return c * 1000003u + sum * 31u + cnt; }
static uint32_t fold1(uint32_t acc, uint32_t v) { return acc * 33u + v; }
static uint32_t close1(uint32_t x, uint32_t acc, uint32_t cnt) { return (x * 2654435761u) ^ acc ^ (cnt << 20); }
static uint32_t fnv(uint32_t h, uint32_t v) {
  for (int k = 0; k < 4; k++) h = (h ^ ((v >> (8 * k)) & 0xffu)) * 16777619u;
  return h;
}
#define FNV0 2166136261u

// Signals a node does not handle itself go on downstream.
static void forward(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg) {
  if (n->nout) stream_emit_signal(g, n, 0, tag, arg);
}

// user[0] next item, user[1] items, user[2] seed
static uint32_t src_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)in, (void)count;
  for (uint32_t k = 0; k < n->width && n->user[0] < n->user[1]; k++)
    stream_emit(g, n, 0, value(n->user[0]++, n->user[2]));
  if (n->user[0] == n->user[1]) stream_source_end(g, n);
  return 0;
}

// Filter and work, one function (the firmware's code is small): each item
// x becomes y = (x * user[2] + user[3]) % user[4] and is kept unless
// y % user[5] == 0. The filter: y = x (x < 1000 < user[4]), kept(y); work:
// work(x), kept2(y) (pipeline_build sets the parameters).
static uint32_t map_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  for (uint32_t k = 0; k < count; k++) {
    uint32_t y = pipeline_mod(in[k] * n->user[2] + n->user[3], n->user[4]);
    if (pipeline_mod(y, n->user[5]) != 0) stream_emit(g, n, 0, y);
  }
  return count;
}

// One parent per run: open it in the parent buffer (or block), emit its
// children, then the signal that closes it. Both enumerates, by user[]:
// x % user[2] children, child j = (x * user[3] + j * user[4]) % user[5],
// signal tag user[6]. enum1: fan1, child1, END1; enum2: fan2, x * 3 + j
// (under 3000, so % 0xffffffff leaves it), END2.
static uint32_t enum_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)count;
  uint32_t x = in[0], *u = n->user;
  if (!stream_pb_open(g, n)) return 0;
  for (uint32_t j = 0, fan = pipeline_mod(x, u[2]); j < fan; j++) stream_emit(g, n, 0, pipeline_mod(x * u[3] + j * u[4], u[5]));
  stream_emit_signal(g, n, 0, u[6], x);
  return 1;
}

// Aggregates: user[0] the sum (agg2) or fold1 (agg1) of the open parent's
// items, user[1] their count; one function: user[0] * user[3] + the item,
// user[3] 1 for agg2, 33 for agg1 (fold1).
static uint32_t agg_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)g;
  for (uint32_t k = 0; k < count; k++) n->user[0] = n->user[0] * n->user[3] + in[k], n->user[1]++;
  return count;
}
// The signal closing the aggregate's parent (user[2]: END1 or END2): emit the
// aggregate, release the parent from its enumerate's buffer. Others go on.
static void agg_sig(stream_graph *g, stream_node *n, uint32_t tag, uint32_t arg) {
  if (tag != n->user[2]) { forward(g, n, tag, arg); return; }
  stream_emit(g, n, 0, (tag == PL_TAG_END2 ? close2 : close1)(arg, n->user[0], n->user[1]));
  n->user[0] = n->user[1] = 0;
  stream_pb_release(g, n->releases);
}

// Sink: user[0] items, user[1] hash.
static uint32_t sink_fn(stream_graph *g, stream_node *n, const uint32_t *in, uint32_t count) {
  (void)g;
  for (uint32_t k = 0; k < count; k++) n->user[1] = fnv(n->user[1], in[k]), n->user[0]++;
  return count;
}

// Node i's functions (its kind is i): pipeline_build takes them from here, and
// a thread binds the graph the host built to them (stream_ss_bind).
const stream_fns pipeline_kinds[PL_NODES] = {
    {src_fn, 0},       {map_fn, forward},  {enum_fn, forward}, {enum_fn, forward},
    {map_fn, forward}, {agg_fn, agg_sig},  {agg_fn, agg_sig},  {sink_fn, 0},  // the sink's signals: consumed, nothing else
};
#define K(i) pipeline_kinds[i].fn, pipeline_kinds[i].sig

void pipeline_build(stream_graph *g, const pipeline_cfg *cfg, const uint8_t *place, uint32_t me) {
  stream_init(g, me);
  for (uint32_t i = 0; i < PL_NODES; i++) g->place[i] = place ? place[i] : 0;
  uint32_t q = cfg->qcap, s = cfg->scap < STREAM_SIGNALS_PER_RUN ? STREAM_SIGNALS_PER_RUN : cfg->scap;
  // qcap raised to the protocol's minimum: producer's max_out + width - 1
#define Q(pmax, w) (q > (pmax) + (w) - 1u ? q : (pmax) + (w) - 1u)
  stream_add(g, "source", STREAM_NONE, 0, 0, 4, 4, K(PL_SRC), 0, 0);
  stream_add(g, "filter", PL_SRC, 0, STREAM_NONE, 4, 4, K(PL_FILTER), Q(4, 4), s);
  stream_add(g, "enum1", PL_FILTER, 0, 1, 1, 3, K(PL_ENUM1), Q(4, 1), s);
  stream_add(g, "enum2", PL_ENUM1, 1, 2, 1, 2, K(PL_ENUM2), Q(3, 1), s);
  stream_add(g, "work", PL_ENUM2, 2, STREAM_NONE, 4, 4, K(PL_WORK), Q(2, 4), s);
  stream_add(g, "agg2", PL_WORK, 2, STREAM_NONE, 8, 1, K(PL_AGG2), Q(4, 8), s);
  stream_add(g, "agg1", PL_AGG2, 1, STREAM_NONE, 8, 1, K(PL_AGG1), Q(1, 8), s);
  stream_add(g, "sink", PL_AGG1, 0, STREAM_NONE, 4, 0, K(PL_SINK), Q(1, 4), s);
#undef Q
#undef K
  g->nodes[PL_SRC].user[1] = cfg->items;
  g->nodes[PL_SRC].user[2] = cfg->seed;
  g->nodes[PL_ENUM1].pb_cap = cfg->pb1 ? cfg->pb1 : 1;
  g->nodes[PL_ENUM2].pb_cap = cfg->pb2 ? cfg->pb2 : 1;
  g->nodes[PL_AGG2].releases = PL_ENUM2;
  g->nodes[PL_AGG1].releases = PL_ENUM1;
  g->nodes[PL_AGG2].user[2] = PL_TAG_END2;
  g->nodes[PL_AGG1].user[2] = PL_TAG_END1;
  g->nodes[PL_AGG2].user[3] = 1;    // a sum
  g->nodes[PL_AGG1].user[3] = 33u;  // fold1
  g->nodes[PL_SINK].user[1] = FNV0;
  static const uint32_t params[][5] = {
      [PL_FILTER] = {1, 0, 1009, 5},      [PL_WORK] = {31, 7, 1009, 7},  // map_fn
      [PL_ENUM1] = {4, 7, 13, 1000, PL_TAG_END1}, [PL_ENUM2] = {3, 3, 1, 0xffffffffu, PL_TAG_END2},  // enum_fn
  };
  for (uint32_t i = PL_FILTER; i <= PL_WORK; i++)
    for (uint32_t k = 0; k < 5; k++) g->nodes[i].user[2 + k] = params[i][k];
}

uint32_t pipeline_out_count(const stream_graph *g) { return g->nodes[PL_SINK].user[0]; }
uint32_t pipeline_out_hash(const stream_graph *g) { return g->nodes[PL_SINK].user[1]; }

void pipeline_reference(const pipeline_cfg *cfg, uint32_t *count, uint32_t *hash) {
  uint32_t n = 0, h = FNV0;
  for (uint32_t i = 0; i < cfg->items; i++) {
    uint32_t x = value(i, cfg->seed);
    if (!kept(x)) continue;
    uint32_t acc = 0, cnt = 0;
    for (uint32_t j = 0; j < fan1(x); j++) {
      uint32_t c = child1(x, j), sum = 0, cnt2 = 0;
      for (uint32_t k = 0; k < fan2(c); k++) {
        uint32_t y = work(c * 3u + k);
        if (kept2(y)) sum += y, cnt2++;
      }
      acc = fold1(acc, close2(c, sum, cnt2)), cnt++;
    }
    h = fnv(h, close1(x, acc, cnt)), n++;
  }
  *count = n;
  *hash = h;
}

void pipeline_judge(const stream_graph *const *gp, uint32_t parts, const uint8_t *place, const pipeline_cfg *cfg,
                    pipeline_verdict *v) {
  *v = (pipeline_verdict){0};
  pipeline_reference(cfg, &v->want_out, &v->want_hash);
  for (uint32_t t = 0; t < parts; t++) {
    const stream_graph *g = gp[t];
    v->lost += g->lost, v->errors += g->errors;
    for (uint32_t c = 0; c < PL_NODES; c++) {
      const stream_node *n = &g->nodes[c];
      if (place[c] == t && (n->active || n->blocked || n->in.n || n->in.sn)) v->left++;
      if (c != PL_SRC && place[c] != t && place[n->producer] == t) {  // credit: never more than the consumer holds
        uint32_t hw = g->proxy[c].hw, cap = n->in.cap + n->in.scap;
        if (hw > cap) v->over++;
        if (hw > v->edge_hw) v->edge_hw = hw, v->edge_cap = cap;
      }
    }
  }
  const stream_graph *sink = gp[place[PL_SINK]];
  v->out = pipeline_out_count(sink);
  v->hash = pipeline_out_hash(sink);
  v->ok = v->out == v->want_out && v->hash == v->want_hash && !v->lost && !v->errors && !v->left && !v->over;
}
