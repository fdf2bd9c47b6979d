// softswitch.c: the per-thread event loop (docs/softswitch.md). Receive
// first, then finish the multicast under way, then start one ready
// device's send (round robin), else vote in the idle barrier. All mailbox
// access goes through ss_hw.h, so this file also runs in the host tests.
#include "softswitch.h"
#include "ss_hw.h"
#include "ss_tree.h"

// Images without invocations (the firmware tests) link no generated code:
// this default stands in (a weak function: never inlined, so op2c's wins).
// ss_init checks through it that op2c's table covers every invocation;
// each end then reads ss_end_combine[k] without a call (post_end). The
// table is a weak reference: without invocations nothing reads it.
__attribute__((weak)) ss_combine_fn ss_end_combine_of(uint32_t k) {
  (void)k;
  return 0;
}
extern const ss_combine_fn ss_end_combine[] __attribute__((weak));

// SS_OP2=0 builds the softswitch without OP2's invocations (begins held,
// ends folded in trees) and without the host's system messages (LOAD, STORE,
// CYCLES, STATS, EXIT): ~1.3 KB less, for images that need none of them
// (the stream pipeline, docs/stream.md). An image with invocations is
// then refused, and a system message counted in stats.errors. To fit the
// pipeline in real Tinsel's instruction memory it also leaves out what a
// stream thread never uses: local delivery (a send on a pin with a local
// key is counted in stats.errors, and its message not delivered),
// SS_FLAG_HOST_DRIVEN, and the ready bitmap (next_ready scans the devices'
// rts: one device per stream thread); update_rts is called, not inlined.
#ifndef SS_OP2
#define SS_OP2 1
#endif
// SS_STEPS=1 builds the softswitch for types that all have steps
// (softswitch.h ss_step_fn; op2c's images link it: host/tinsel/rules.mk):
// the hot paths call a step alone, never a handler and then ReadyToSend
// (which ss_init and the idle handlers still call), and an image with a
// type without steps is refused. SS_STEPS=0 (other images) calls no step.
#ifndef SS_STEPS
#define SS_STEPS 0
#endif
// SS_STEPS_ONLY=1 (default with SS_STEPS on Tinsel: op2c's images, whose
// type table leaves rts and idle NULL on the device, fw_table.c): no device
// is ready before its first step and none has an OnHardwareIdle, so
// update_rts is not linked at all (392 bytes of instruction memory in each
// of airfoil's images); an image with a type that has either is refused.
// The host's builds (the tests, the native engine) keep both.
#ifndef SS_STEPS_ONLY
#if SS_STEPS && defined(__riscv)
#define SS_STEPS_ONLY 1
#else
#define SS_STEPS_ONLY 0
#endif
#endif
// SS_HOT_SLOT=1 (default with SS_STEPS: op2c's images) lets ss_hot live
// apart from the rest, in the extra send slot (SS_FLAG_EXTRA_SLOT), so the
// rest is reached through the pointer in ss_hot (c); without it ss_hot is the first
// member of ss_thread, and the rest is at a fixed offset from it: no load
// of the pointer, less code (the task-graph and stream images are tight).
#ifndef SS_HOT_SLOT
#define SS_HOT_SLOT SS_STEPS
#endif
// SS_COUNT_EVENTS=1 counts every message sent and received (stats.
// sent_remote, sent_local, recv_local, recv_remote) and every step or
// handler run (stats.handler_calls): read-modify-writes of the image on
// every event, 4.6 % of airfoil's cycles (docs/tinsel-backend.md, "Event
// counts on request"). On by default, off in op2c's device images
// (SS_STEPS_ONLY), which link the counting build with op2c --count-events,
// as POLite counts messages only when built with POLITE_COUNT_MSGS.
#ifndef SS_COUNT_EVENTS
#define SS_COUNT_EVENTS (!SS_STEPS_ONLY)
#endif
#if SS_HOT_SLOT
#define COLD(t) ((t)->c)
#else
#define COLD(t) ((ss_thread *)(t))
#endif
#define INVOCATIONS(t) (SS_OP2 ? (t)->img->num_invocations : 0u)
#define AT(t, off) ((void *)((char *)(t)->img + (off)))

// Count trailing zeros of a non-zero word without libgcc (no Zbb on Tinsel):
// x & -x isolates the lowest set bit, 2^n; times the de Bruijn word
// 0x077cb531 its top five bits are distinct for each n, and the table
// (data memory, not code) maps them back to n. A multiply and a load in
// place of a five-step search (4.9 % of airfoil's instructions).
static const uint8_t ctz_of_top5[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20, 15, 25, 17, 4,  8,
                                        31, 27, 13, 23, 21, 19, 16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
static inline uint32_t ctz32(uint32_t x) { return ctz_of_top5[((x & -x) * 0x077cb531u) >> 27]; }

static const ss_dev_type *type_of(const ss_device *d) { return &ss_dev_types[d->type]; }

// A device's new ready word, and its bit in the ready bitmap; and
// re-evaluating ReadyToSend for it (types without step, ss_dev_type).
// Inlined into the loop where messages are delivered and sent (once per
// receiver and per send: a call there saved and restored a frame of
// registers each time); update_rts below is the same for the cold callers.
#if SS_OP2
#define SS_HOT_INLINE inline __attribute__((always_inline))
#else
#define SS_HOT_INLINE __attribute__((noinline))
#endif
static inline __attribute__((always_inline)) void set_ready(ss_hot *t, uint32_t i, uint32_t m) {
  t->rts[i] = m;
  if (!SS_OP2) return;  // next_ready scans rts: no ready bitmap
  uint32_t bit = 1u << (i & 31u);
  if (m) t->ready[i >> 5] |= bit;
  else t->ready[i >> 5] &= ~bit;
}

// A send's step result (SS_STEPS): the word and the bitmap are written only
// on change. (In deliver the same made airfoil 1 % slower: registers.)
static inline __attribute__((always_inline)) void step_ready(ss_hot *t, uint32_t i, uint32_t before,
                                                             uint32_t m) {
  if (m == before) return;
  t->rts[i] = m;
  if (!m != !before) t->ready[i >> 5] ^= 1u << (i & 31u);  // its bit is (rts[i] != 0)
}

// SS_CHECK_STEPS (the native softswitch engine, so every test program):
// a step's word must be what the whole ReadyToSend gives, else an error.
static inline uint32_t checked(ss_hot *t, const ss_device *d, const ss_dev_type *ty, uint32_t m) {
#ifdef SS_CHECK_STEPS
  if ((m & ~SS_STEP_CANCELLED) != (ty->rts ? ty->rts(t->graph_props, AT(t, d->props_off), AT(t, d->state_off)) : 0))
    t->img->stats.errors++;
#endif
  (void)t, (void)d, (void)ty;
  return m;
}

static SS_HOT_INLINE void update_rts_here(ss_hot *t, uint32_t i) {
  const ss_device *d = &t->devs[i];
  const ss_dev_type *ty = type_of(d);
  uint32_t m = 0;
  if (ty->rts) {
    m = ty->rts(t->graph_props, AT(t, d->props_off), AT(t, d->state_off));
    if (ty->num_out_pins < 32) m &= (1u << ty->num_out_pins) - 1u;
  }
  set_ready(t, i, m);
}

__attribute__((noinline)) static void update_rts(ss_hot *t, uint32_t i) { update_rts_here(t, i); }

// Deliver one message (its key and payload) to every receiver of the key on
// this thread. Called from one place, the loop's receive (poll), network and
// local messages alike, so it is inlined there and uses the loop's registers.
static void deliver(ss_hot *t, uint32_t key, const void *payload) {
  ss_thread_image *img = t->img;
  if (key >= img->num_in_groups) { img->stats.errors++; return; }
  const ss_in_group *g = &t->in_groups[key];
  uint32_t steps = 0;  // counted once per message, not per receiver
  for (uint32_t k = 0; k < g->count; k++) {
    const ss_in_edge *e = &t->in_edges[g->first + k];
    if (e->dev >= img->num_devices) { img->stats.errors++; continue; }
    const ss_device *d = &t->devs[e->dev];
    const ss_dev_type *ty = type_of(d);
    if (e->pin >= ty->num_in_pins) { img->stats.errors++; continue; }
    const void *edge_props = e->edge_props_off ? AT(t, e->edge_props_off) : 0;
    if (SS_STEPS) {
      set_ready(t, e->dev, checked(t, d, ty, ty->step[e->pin](t->graph_props, AT(t, d->props_off),
                                                              AT(t, d->state_off), edge_props, (void *)payload,
                                                              t->rts[e->dev])));
      steps++;
      continue;
    }
    if (ty->recv[e->pin]) {
      ty->recv[e->pin](t->graph_props, AT(t, d->props_off), AT(t, d->state_off), edge_props, payload);
      img->stats.handler_calls++;
    }
    update_rts_here(t, e->dev);
  }
  if (SS_STEPS && SS_COUNT_EVENTS) img->stats.handler_calls += steps;
}

// Bounds of a table inside the image (a 64-bit product, not a division:
// Tinsel has no divider, and the library routine would cost ~100 bytes).
static int fits(const ss_thread_image *img, uint32_t off, uint32_t count, uint32_t size) {
  return off <= img->image_bytes && (uint64_t)count * size <= img->image_bytes - off;
}

static void wait_send_or_recv(ss_hot *t) {
  uint32_t c0 = ss_hw_cycles();
  ss_hw_wait_send_or_recv();
  t->img->stats.idle_cycles += ss_hw_cycles() - c0;
}

// ------------------------------------------------ invocations (image v2)

static ss_tree_node *tree_node(const ss_hot *t, uint32_t k) { return (ss_tree_node *)COLD(t)->tree + k; }

// Checks the invocation tables and arms every tree node for its own
// devices' ends and its children's (early ends from children are kept).
static int init_invocations(ss_hot *t) {
  ss_thread_image *img = t->img;
  uint32_t n = img->num_invocations;
  COLD(t)->inv = 0;
  COLD(t)->tree = 0;
  if (n == 0) return 0;
  if (!SS_OP2) return 1;
  if (n > SS_MAX_INVOCATIONS || !ss_end_combine_of(n - 1) || ((img->inv_off | img->tree_off) & 7u) ||
      !fits(img, img->inv_off, n, sizeof(ss_inv_node)) || !fits(img, img->tree_off, n, SS_TREE_NODE_BYTES))
    return 1;
  COLD(t)->inv = AT(t, img->inv_off);
  COLD(t)->tree = AT(t, img->tree_off);
  for (uint32_t k = 0; k < n; k++) {
    if (COLD(t)->inv[k].end_bytes > SS_MAX_PAYLOAD) return 1;
    ss_tree_init(tree_node(t, k), COLD(t)->inv[k].own, COLD(t)->inv[k].children);
    tree_node(t, k)->end_bytes = COLD(t)->inv[k].end_bytes;
  }
  return 0;
}

// One end (a device's, or a child thread's standing for DEVICES devices)
// folds into the node of invocation k; a node that fires queues its end.
static void post_end(ss_hot *t, uint32_t k, const void *payload, uint32_t devices) {
  if (k >= t->img->num_invocations) { t->img->stats.errors++; return; }
  ss_tree_node *node = tree_node(t, k);
  int fold;
  if (ss_tree_take(node, payload, node->end_bytes, devices, &fold)) {
    if (t->nends < SS_MAX_ENDS_WAITING) COLD(t)->ends[t->nends++] = (uint8_t)k;
    else t->img->stats.errors++;
  }
  if (fold) ss_end_combine[k](node->acc, payload);  // last: the node's end is sent later, in the loop
}

// A begin (key k < num_invocations: the host's in-group k) that came while
// the thread's devices are still in an earlier invocation, or behind other
// held begins, waits in ss_thread.held; it is copied, so the mailbox slot
// goes back: its header and the begin's payload (ss_inv_node.begin_bytes;
// airfoil's are 4 or 8 bytes: 3 or 4 words, not the slot's 16).
static void hold_begin(ss_hot *t, const ss_msg_header *m) {
  if (COLD(t)->nheld == SS_MAX_HELD_BEGINS) { t->img->stats.errors++; return; } // the host streamed too far ahead
  uint32_t *to = COLD(t)->held[(COLD(t)->held_head + COLD(t)->nheld++) % SS_MAX_HELD_BEGINS];
  const uint32_t *from = (const uint32_t *)m;
  uint32_t bytes = COLD(t)->inv[m->key].begin_bytes, n = bytes ? (SS_HEADER_BYTES + bytes + 3) / 4 : TinselBytesPerMsg / 4;
  if (n > TinselBytesPerMsg / 4) n = TinselBytesPerMsg / 4;
  for (uint32_t i = 0; i < n; i++) to[i] = from[i];
}

// One of this thread's devices ended its invocation: when it was the last,
// the first held begin is delivered next, as a local message.
static void own_end(ss_hot *t) {
  if (COLD(t)->own_left && --COLD(t)->own_left == 0 && COLD(t)->nheld) {
    const uint32_t *h = COLD(t)->held[COLD(t)->held_head];
    t->local_key = h[0] & 0xffffu;
    COLD(t)->local_msg = h + SS_HEADER_BYTES / 4;
  }
}

static void set_len(ss_hot *t, uint32_t payload_bytes) {
  uint32_t len = (SS_HEADER_BYTES + payload_bytes - 1) >> TinselLogBytesPerFlit;
  if (len != COLD(t)->len) { ss_hw_set_len(len); COLD(t)->len = len; }
}

// A request from the host (at most one outstanding). CYCLES and STATS are
// LOADs of fixed words of the image header; the reply waits for the send
// slot as {off, count} in COLD(t)->reply and count words at reply_from, read
// when it is sent.
static void system_msg(ss_hot *t, const ss_msg_header *h) {
  ss_thread_image *img = t->img;
  const ss_sys_mem *q = (const void *)((const char *)h + SS_HEADER_BYTES);
  if (h->key == SS_KEY_END) { post_end(t, h->pin, q, h->src); return; }
  if (t->reply_key || h->key > SS_KEY_EXIT) { img->stats.errors++; return; }
  uint32_t off = q->off, n = q->count;
  if (h->key == SS_KEY_CYCLES) {
    img->cycles[0] = ss_hw_cycles();
    img->cycles[1] = ss_hw_cycles_hi();
    off = SS_CYCLES_OFF, n = 2;
  } else if (h->key >= SS_KEY_STATS) {       // STATS, EXIT
    off = SS_STATS_OFF, n = sizeof(ss_stats) / 4;
  }
  uint32_t *mem = AT(t, off);
  if ((off & 3u) || n > SS_SYS_MEM_WORDS || !fits(img, off, n, 4)) { img->stats.errors++; n = 0; }
  if (h->key == SS_KEY_STORE) {
    for (uint32_t i = 0; i < n; i++) mem[i] = q->words[i];
    return;
  }
  t->reply_key = h->key;
  COLD(t)->reply[0] = off;
  COLD(t)->reply[1] = n;
  COLD(t)->reply_from = mem;
}

// Sends the waiting reply, else the end of one fired tree node.
static int send_system(ss_hot *t) {
  ss_thread_image *img = t->img;
  if (!ss_hw_can_send()) { wait_send_or_recv(t); return SS_WAITED; }
  ss_msg_header *h = ss_hw_send_slot();
  uint32_t *p = (uint32_t *)((char *)h + SS_HEADER_BYTES), n;
  const uint32_t *from;
  const ss_out_edge *to = &COLD(t)->host;
  int done = t->reply_key == SS_KEY_EXIT;     // the last message of this run
  if (t->reply_key) {
    h->key = (uint16_t)t->reply_key, h->pin = 0, h->src = ss_hw_id();
    p[0] = COLD(t)->reply[0], p[1] = n = COLD(t)->reply[1];
    p += 2, from = COLD(t)->reply_from;
    t->reply_key = 0;
  } else {
    uint32_t k = COLD(t)->ends[--t->nends];
    ss_tree_node *node = tree_node(t, k);
    if (node->bad_round) img->stats.errors++;
    h->key = SS_KEY_END, h->pin = (uint8_t)k, h->src = node->devices;
    from = (const uint32_t *)node->acc, n = (node->end_bytes + 3) / 4u, to = &COLD(t)->inv[k].up;
    ss_tree_reset(node);  // acc stays as it is until the next round's first post
  }
  h->flags = 0;
  for (uint32_t i = 0; i < n; i++) p[i] = from[i];
  set_len(t, (uint32_t)((char *)(p + n) - (char *)h) - SS_HEADER_BYTES);
  ss_hw_multicast(to->mbox, to->mask_hi, to->mask_lo, h);
  if (SS_COUNT_EVENTS) img->stats.sent_remote++;
  return done ? SS_DONE : SS_BUSY;
}

int ss_init(ss_thread *s, ss_thread_image *img) {
  ss_hot *t = &s->hot;
  // The host reserved the extra send slots (and says so only then): the
  // hot state goes to the scratchpad, off the data cache's port.
  if (SS_HOT_SLOT && SS_OP2 && img->magic == SS_MAGIC && (img->flags & SS_FLAG_EXTRA_SLOT) && ss_hw_extra_slot())
    t = ss_hw_extra_slot();
  s->h = t;
  t->c = s;
  t->img = img;
  t->cursor = t->edge = t->edges_left = 0;
  s->len = ~0u;
  s->active = 1;   // the first barrier votes "not done": OnHardwareIdle runs at least once
  t->local_key = SS_NO_KEY;
  if (SS_OP2) {  // replies, ends and held begins: none without OP2
    t->reply_key = 0;
    t->nends = 0;
    s->own_left = s->held_head = s->nheld = 0;
    s->host = (ss_out_edge){img->host_mbox, 0, 1, 0, 0};
  }
  for (uint32_t *w = (uint32_t *)&img->stats; w < (uint32_t *)(&img->stats + 1); w++) *w = 0; // no memset
  uint32_t n = img->num_devices;
  // Tinsel has no misaligned access: every table and state is word-aligned.
  uint32_t offs = img->devices_off | img->out_pins_off | img->out_edges_off | img->in_groups_off |
                  img->in_edges_off | img->graph_props_off | img->rts_off | img->ready_off;
  if (img->magic != SS_MAGIC || img->version != SS_VERSION || (offs & 3u) ||
      !fits(img, img->devices_off, n, sizeof(ss_device)) ||
      !fits(img, img->in_groups_off, img->num_in_groups, sizeof(ss_in_group)) ||
      !fits(img, img->rts_off, n, 4) || !fits(img, img->ready_off, (n + 31) / 32, 4)) {
    img->stats.errors++;
    return 1;
  }
  t->devs = AT(t, img->devices_off);
  t->out_pins = AT(t, img->out_pins_off);
  t->out_edges = AT(t, img->out_edges_off);
  t->in_groups = AT(t, img->in_groups_off);
  t->in_edges = AT(t, img->in_edges_off);
  t->rts = AT(t, img->rts_off);
  t->ready = AT(t, img->ready_off);
  t->graph_props = img->graph_props_off ? AT(t, img->graph_props_off) : 0;
  if (init_invocations(t)) {
    img->stats.errors++;
    return 1;
  }
  for (uint32_t i = 0; i < n; i++) {
    const ss_device *d = &t->devs[i];
    if (d->type >= ss_num_dev_types || (SS_STEPS && !type_of(d)->step) ||
        (SS_STEPS_ONLY && (type_of(d)->rts || type_of(d)->idle)) ||
        ((d->state_off | d->props_off) & 3u) || d->state_off >= img->image_bytes ||
        d->props_off >= img->image_bytes) {
      img->stats.errors++;
      return 1;
    }
  }
  for (uint32_t w = 0; SS_OP2 && w < (n + 31) / 32; w++) t->ready[w] = 0;
  for (uint32_t i = 0; i < n; i++) {
    const ss_device *d = &t->devs[i];
    const ss_dev_type *ty = type_of(d);
    if (ty->init) {
      ty->init(t->graph_props, AT(t, d->props_off), AT(t, d->state_off));
      img->stats.handler_calls++;
    }
    // A type without rts (op2c's on the device) is not ready: its bit is
    // clear already, and a call per device was a third of a load's start.
    if (!SS_STEPS_ONLY && ty->rts) update_rts(t, i);
    else t->rts[i] = 0;
  }
  return 0;
}

// The first ready device at or after the cursor, wrapping; n if none.
static uint32_t next_ready(const ss_hot *t) {
#if !SS_OP2  // a linear scan of the devices' rts (few devices: the stream's one)
  uint32_t n = t->img->num_devices, i = t->cursor;
  for (uint32_t k = 0; k < n; k++, i++) {
    if (i >= n) i = 0;
    if (t->rts[i]) return i;
  }
  return n;
#else
  uint32_t n = t->img->num_devices, words = (n + 31) / 32;
  if (n == 0) return 0;
  uint32_t start = t->cursor < n ? t->cursor : 0;
  uint32_t w = start >> 5;
  uint32_t bits = t->ready[w] & (~0u << (start & 31u));
  for (uint32_t k = 0; k <= words; k++) {
    if (bits) return (w << 5) + ctz32(bits);
    w = w + 1 < words ? w + 1 : 0;
    bits = t->ready[w];
  }
  return n;
#endif
}

// Run device i's send handler for its highest-priority ready pin.
static int start_send(ss_hot *t, uint32_t i) {
  ss_thread_image *img = t->img;
  const ss_device *d = &t->devs[i];
  const ss_dev_type *ty = type_of(d);
  uint32_t pin = ctz32(t->rts[i]);
  const ss_out_pin *op = &t->out_pins[d->out_pin_base + pin];
  // The send slot may still be in flight: only touch it once can-send.
  if (op->num_edges && !ss_hw_can_send()) { wait_send_or_recv(t); return SS_WAITED; }
  ss_msg_header *h = op->num_edges ? ss_hw_send_slot() : (ss_msg_header *)COLD(t)->local_buf;
  t->cursor = i + 1;
  int ok = 0;
  if (SS_STEPS) {
    uint32_t before = t->rts[i];
    uint32_t m = checked(t, d, ty, ty->step[ty->num_in_pins + pin](t->graph_props, AT(t, d->props_off),
                                                                   AT(t, d->state_off), 0,
                                                                   (char *)h + SS_HEADER_BYTES, before));
    if (SS_COUNT_EVENTS) img->stats.handler_calls++;
    ok = !(m & SS_STEP_CANCELLED);
    step_ready(t, i, before, m & ~SS_STEP_CANCELLED);
  } else {
    if (ty->send[pin]) {
      ok = ty->send[pin](t->graph_props, AT(t, d->props_off), AT(t, d->state_off),
                         (char *)h + SS_HEADER_BYTES);
      img->stats.handler_calls++;
    }
    update_rts_here(t, i);
  }
  if (!ok) return SS_BUSY;
  int end = SS_OP2 && op->local_key >= SS_END_PIN_BASE && op->local_key != SS_NO_KEY;
  if (!end || op->num_edges) {  // an end's tree reads only its payload
    h->pin = (uint8_t)pin;
    h->flags = 0;
    h->src = SS_SRC(i, ss_hw_id());
  }
  if (end) {
    post_end(t, op->local_key - SS_END_PIN_BASE, (char *)h + SS_HEADER_BYTES, 1);
    own_end(t);
  } else if (!SS_OP2 && op->local_key != SS_NO_KEY) {
    img->stats.errors++;  // the lean build delivers no local message: lost, and said so
  } else if (op->local_key != SS_NO_KEY) { // the loop delivers it next, before the slot is sent
    t->local_key = op->local_key;
    COLD(t)->local_msg = (char *)h + SS_HEADER_BYTES;
    if (SS_COUNT_EVENTS) {
      img->stats.sent_local++;
      if (op->local_key < img->num_in_groups)
        img->stats.recv_local += t->in_groups[op->local_key].count;
    }
  }
  if (op->num_edges) {
    set_len(t, ty->out_bytes[pin]);
    t->edge = op->first_edge;
    t->edges_left = op->num_edges;
  }
  return SS_BUSY;
}

// Send the next network message of the multicast under way.
static int send_edge(ss_hot *t) {
  if (!ss_hw_can_send()) { wait_send_or_recv(t); return SS_WAITED; }
  ss_msg_header *h = ss_hw_send_slot();
  const ss_out_edge *e = &t->out_edges[t->edge++];
  t->edges_left--;
  h->key = e->key;
  ss_hw_multicast(e->mbox, e->mask_hi, e->mask_lo, h);
  if (SS_COUNT_EVENTS) t->img->stats.sent_remote++;
  return SS_BUSY;
}

// Nothing to send or receive: vote in the idle barrier.
static int go_idle(ss_hot *t) {
  ss_thread_image *img = t->img;
  uint32_t c0 = ss_hw_cycles();
  if (SS_OP2 && (img->flags & SS_FLAG_HOST_DRIVEN)) {   // the host drives: no barrier, wait for it
    ss_hw_wait_recv();
    img->stats.idle_cycles += ss_hw_cycles() - c0;
    return SS_WAITED;
  }
  int r = ss_hw_idle(!COLD(t)->active);
  img->stats.idle_cycles += ss_hw_cycles() - c0;
  if (r == 0) return SS_BUSY;                // a message arrived
  img->stats.idle_barriers++;
  if (r > 1 && (img->flags & SS_FLAG_EXIT_ON_IDLE)) return SS_DONE;
  COLD(t)->active = 0;
  for (uint32_t i = 0; i < img->num_devices; i++) {
    const ss_device *d = &t->devs[i];
    const ss_dev_type *ty = type_of(d);
    if (SS_STEPS_ONLY || !ty->idle) continue;  // ss_init refused idle handlers
    COLD(t)->active |= ty->idle(t->graph_props, AT(t, d->props_off), AT(t, d->state_off)) != 0;
    img->stats.handler_calls++;
    update_rts(t, i);
  }
  return SS_WAITED;
}

// Receive first: drain the mailbox, then the message a send of this thread
// left for its own devices (t->local_key; its payload may be in the send
// slot, which no network send touches before this), all through one deliver.
static void receive(ss_hot *t) {
  for (;;) {
    ss_msg_header *m = 0;
    uint32_t key;
    const void *payload;
    if (ss_hw_can_recv()) {
      m = ss_hw_recv();
      if (SS_COUNT_EVENTS) t->img->stats.recv_remote++;
      if (m->key >= SS_SYS_KEY_BASE) {
        if (SS_OP2) system_msg(t, m);
        else t->img->stats.errors++;
        ss_hw_free(m);
        continue;
      }
      key = m->key, payload = (const char *)m + SS_HEADER_BYTES;
      if (key < INVOCATIONS(t) && (COLD(t)->own_left | COLD(t)->nheld)) {
        hold_begin(t, m);
        ss_hw_free(m);
        continue;
      }
    } else if (SS_OP2 && t->local_key != SS_NO_KEY) {
      key = t->local_key, payload = COLD(t)->local_msg;
      t->local_key = SS_NO_KEY;
      if (key < INVOCATIONS(t)) { // the first held begin, released by own_end
        COLD(t)->held_head = (COLD(t)->held_head + 1) % SS_MAX_HELD_BEGINS;
        COLD(t)->nheld--;
      }
    } else {
      return;
    }
    if (key < INVOCATIONS(t)) COLD(t)->own_left = COLD(t)->inv[key].own; // a begin: its ends to come
    deliver(t, key, payload);
    if (m) ss_hw_free(m);
  }
}

// Passes of the loop: `steps` of them, or (steps 0) until SS_DONE; returns
// the outcome of the last (0 wraps round to 2^32). One function for both,
// so ss_run saves and restores the loop's registers once rather than once
// per event, and the code is there once; receive has one call site, so
// deliver is inlined and runs on those registers too. A pass: receive,
// send (or wait), and receive what that send left for this thread.
__attribute__((noinline)) static int poll(ss_hot *t, uint32_t steps) {
  int r = SS_BUSY, sent = 0;
  for (;;) {
    receive(t);
    if (sent && --steps == 0) return r;
    if (t->edges_left) r = send_edge(t);
    else if (SS_OP2 && (t->reply_key || t->nends)) r = send_system(t);
    else {
      uint32_t i = next_ready(t);
      r = i < t->img->num_devices ? start_send(t, i) : go_idle(t);
    }
    if (r == SS_DONE) return r;
    sent = 1;
  }
}

int ss_poll(ss_thread *s) { return poll(s->h, 1); }

int ss_run(ss_thread *s, ss_thread_image *img) {
  if (ss_init(s, img)) return 1;
  while (poll(s->h, 0) != SS_DONE) {} // steps 0 wraps after 2^32 passes: go on
  return 0;
}
