// test_softswitch.c: the softswitch's core logic (firmware/softswitch/
// softswitch.c) on the host, against the mailbox stub (hw_stub.c):
// scheduling fairness, RTS bitmasks, 1000 devices in one thread, local
// delivery, one network message per destination mailbox, receive-first
// under a full send port, termination, and bad input from the host;
// image version 2: ends folded up the tree of threads, host requests
// (LOAD, STORE, CYCLES, STATS) and host-driven waiting. Built twice: as
// test_softswitch_steps (TEST_STEPS) the same tests run on steps.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hw_stub.h"
#include "softswitch.h"
#include "ss_tree.h"

#include "unit.h"

// ------------------------------------------------------------ device types

enum { T_COUNTER, T_PINS, T_IDLE, T_END, T_STEP };

typedef struct { uint32_t limit; } counter_props;
typedef struct {
  uint32_t sent, received, sum;
  uint32_t srcs[16];          // sources of the first messages received
  uint32_t want;              // T_PINS: pins that want to send
  uint32_t pin_sends[3];      // T_PINS: send handler calls per pin
  uint32_t idles, busy_idles; // T_IDLE: idle calls; stay active for this many
} dev_state;
typedef struct { uint32_t value; uint32_t pad[3]; } msg_t;  // 16-byte payload

static uint32_t counter_rts(const void *gp, const void *props, const void *state) {
  (void)gp;
  return ((const dev_state *)state)->sent < ((const counter_props *)props)->limit;
}
static int counter_send(const void *gp, const void *props, void *state, void *payload) {
  (void)gp; (void)props;
  dev_state *s = state;
  ((msg_t *)payload)->value = s->sent++;
  return 1;
}
static void any_recv(const void *gp, const void *props, void *state, const void *ep,
                     const void *payload) {
  (void)gp; (void)props; (void)ep;
  dev_state *s = state;
  const ss_msg_header *h = (const ss_msg_header *)((const char *)payload - SS_HEADER_BYTES);
  if (s->received < 16) s->srcs[s->received] = h->src;
  s->received++;
  s->sum += ((const msg_t *)payload)->value;
}

// T_PINS: three output pins; pin 1's send cancels (doSend = false).
static uint32_t pins_rts(const void *gp, const void *props, const void *state) {
  (void)gp; (void)props;
  return ((const dev_state *)state)->want | 0x80u;  // bit 7: no such pin, must be ignored
}
static int pins_send(dev_state *s, uint32_t pin, void *payload) {
  s->pin_sends[pin]++;
  s->want &= ~(1u << pin);
  ((msg_t *)payload)->value = 100 + pin;
  return pin != 1;
}
static int pins_send0(const void *gp, const void *p, void *s, void *m) { (void)gp; (void)p; return pins_send(s, 0, m); }
static int pins_send1(const void *gp, const void *p, void *s, void *m) { (void)gp; (void)p; return pins_send(s, 1, m); }
static int pins_send2(const void *gp, const void *p, void *s, void *m) { (void)gp; (void)p; return pins_send(s, 2, m); }
static void pins_init(const void *gp, const void *props, void *state) {
  (void)gp; (void)props;
  ((dev_state *)state)->want = 7;
}

static int idle_handler(const void *gp, const void *props, void *state) {
  (void)gp; (void)props;
  dev_state *s = state;
  return ++s->idles <= s->busy_idles;
}

// T_END: one end message on pin 0 (ss_tree.h layout: round, contributes, then a
// global: the device's props.limit); folded with add_values.
typedef struct { uint32_t round; uint8_t contributes, pad[3]; uint32_t value; } end_msg;
static uint32_t end_rts(const void *gp, const void *props, const void *state) {
  (void)gp; (void)props;
  return !((const dev_state *)state)->sent;
}
static int end_send(const void *gp, const void *props, void *state, void *payload) {
  (void)gp;
  ((dev_state *)state)->sent = 1;
  *(end_msg *)payload = (end_msg){ 1, 1, {0}, ((const counter_props *)props)->limit };
  return 1;
}
static void add_values(void *acc, const void *in) { ((end_msg *)acc)->value += ((const end_msg *)in)->value; }
ss_combine_fn ss_end_combine_of(uint32_t k) { return k < 2 ? add_values : 0; }
const ss_combine_fn ss_end_combine[2] = { add_values, add_values };
static const ss_send_fn end_sends[] = { end_send };

// T_STEP: a device of two invocations. In pin 0 is the begin of either
// (payload: the invocation, also the round); in pin 1 a "go", without which
// the device cannot end (it is still waiting for its messages). Out pin k
// is the end of invocation k. Begins are logged in srcs[] by invocation.
static void step_begin(const void *gp, const void *props, void *state, const void *ep, const void *payload) {
  (void)gp; (void)props; (void)ep;
  dev_state *s = state;
  s->want = ((const msg_t *)payload)->value;  // the invocation under way
  if (s->received < 16) s->srcs[s->received] = s->want;
  s->received++;
}
static void step_go(const void *gp, const void *props, void *state, const void *ep, const void *payload) {
  (void)gp; (void)props; (void)ep; (void)payload;
  ((dev_state *)state)->sum++;
}
static uint32_t step_rts(const void *gp, const void *props, const void *state) {
  (void)gp; (void)props;
  const dev_state *s = state;
  return s->sent < s->received && s->sent < s->sum ? 1u << s->want : 0;
}
static int step_end(const void *gp, const void *props, void *state, void *payload) {
  (void)gp; (void)props;
  dev_state *s = state;
  s->sent++;
  *(end_msg *)payload = (end_msg){ s->want, 1, {0}, 1 };
  return 1;
}
static const ss_send_fn step_sends[] = { step_end, step_end };
static const ss_recv_fn step_recvs[] = { step_begin, step_go };

static const ss_send_fn counter_sends[] = { counter_send };
static const ss_send_fn pins_sends[] = { pins_send0, pins_send1, pins_send2 };
static const uint8_t bytes16[] = { 16, 16, 16 };
static const uint8_t bytes40[] = { 40 };
static const ss_recv_fn recvs[] = { any_recv };

#ifdef TEST_STEPS
// test_softswitch_steps: the same tests on the softswitch built with
// SS_STEPS=1 and SS_CHECK_STEPS (softswitch.h ss_step_fn), each type's
// handlers wrapped as steps: the handler, then the whole ReadyToSend,
// masked to the type's pins as the softswitch masks it.
#define RECV_STEP(name, recv, rts, nout)                                                                 \
  static uint32_t name(const void *gp, const void *p, void *s, const void *ep, void *m, uint32_t w) {   \
    (void)w;                                                                                           \
    recv(gp, p, s, ep, m);                                                                             \
    return rts(gp, p, s) & ((1u << (nout)) - 1u);                                                      \
  }
#define SEND_STEP(name, send, rts, nout)                                                                 \
  static uint32_t name(const void *gp, const void *p, void *s, const void *ep, void *m, uint32_t w) {   \
    (void)ep, (void)w;                                                                                 \
    uint32_t cancel = send(gp, p, s, m) ? 0 : SS_STEP_CANCELLED;                                       \
    return (rts(gp, p, s) & ((1u << (nout)) - 1u)) | cancel;                                           \
  }
RECV_STEP(counter_recv_step, any_recv, counter_rts, 1)
SEND_STEP(counter_send_step, counter_send, counter_rts, 1)
RECV_STEP(pins_recv_step, any_recv, pins_rts, 3)
SEND_STEP(pins_send0_step, pins_send0, pins_rts, 3)
SEND_STEP(pins_send1_step, pins_send1, pins_rts, 3)
SEND_STEP(pins_send2_step, pins_send2, pins_rts, 3)
RECV_STEP(end_recv_step, any_recv, end_rts, 1)
SEND_STEP(end_send_step, end_send, end_rts, 1)
RECV_STEP(step_begin_step, step_begin, step_rts, 2)
RECV_STEP(step_go_step, step_go, step_rts, 2)
SEND_STEP(step_end_step, step_end, step_rts, 2)
// A wrong step: it leaves the word as it was (a stale ReadyToSend), where
// the type's ReadyToSend says "ready" once it has received.
static uint32_t got_rts(const void *gp, const void *props, const void *state) {
  (void)gp, (void)props;
  return ((const dev_state *)state)->received != 0;
}
static uint32_t stale_step(const void *gp, const void *p, void *s, const void *ep, void *m, uint32_t w) {
  any_recv(gp, p, s, ep, m);
  return w;
}
static const ss_step_fn counter_steps[] = { counter_recv_step, counter_send_step };
static const ss_step_fn pins_steps[] = { pins_recv_step, pins_send0_step, pins_send1_step, pins_send2_step };
static const ss_step_fn end_steps[] = { end_recv_step, end_send_step };
static const ss_step_fn step_steps[] = { step_begin_step, step_go_step, step_end_step, step_end_step };
static const ss_step_fn stale_steps[] = { stale_step, counter_send_step };
#define STEPS(x) .step = x,
#else
#define STEPS(x)
#endif

#ifdef TEST_STEPS_ONLY
// test_softswitch_only: the softswitch op2c's images use on Tinsel
// (SS_STEPS_ONLY): types with steps and neither ReadyToSend nor
// OnHardwareIdle. T_ONLY sends one message for each it receives.
static uint32_t only_word(const dev_state *s) { return s->sent < s->received; }
static uint32_t only_recv_step(const void *gp, const void *p, void *s, const void *ep, void *m, uint32_t w) {
  (void)w;
  any_recv(gp, p, s, ep, m);
  return only_word(s);
}
static uint32_t only_send_step(const void *gp, const void *p, void *s, const void *ep, void *m, uint32_t w) {
  (void)ep, (void)w;
  counter_send(gp, p, s, m);
  return only_word(s);
}
static const ss_step_fn only_steps[] = { only_recv_step, only_send_step };
#endif

enum { T_STALE = T_STEP + 1, T_NO_STEPS, T_ONLY };  // TEST_STEPS only
const ss_dev_type ss_dev_types[] = {
  [T_COUNTER] = { .num_in_pins = 1, .num_out_pins = 1, .rts = counter_rts,
                  .send = counter_sends, .out_bytes = bytes16, .recv = recvs, STEPS(counter_steps) },
  [T_PINS] = { .num_in_pins = 1, .num_out_pins = 3, .init = pins_init, .rts = pins_rts,
               .send = pins_sends, .out_bytes = bytes16, .recv = recvs, STEPS(pins_steps) },
  [T_IDLE] = { .num_in_pins = 1, .num_out_pins = 1, .rts = counter_rts, .idle = idle_handler,
               .send = counter_sends, .out_bytes = bytes40, .recv = recvs, STEPS(counter_steps) },
  [T_END] = { .num_in_pins = 1, .num_out_pins = 1, .rts = end_rts, .send = end_sends, .out_bytes = bytes16,
              .recv = recvs, STEPS(end_steps) },
  [T_STEP] = { .num_in_pins = 2, .num_out_pins = 2, .rts = step_rts, .send = step_sends, .out_bytes = bytes16,
               .recv = step_recvs, STEPS(step_steps) },
#ifdef TEST_STEPS
  [T_STALE] = { .num_in_pins = 1, .num_out_pins = 1, .rts = got_rts,
                .send = counter_sends, .out_bytes = bytes16, .recv = recvs, .step = stale_steps },
  [T_NO_STEPS] = { .num_in_pins = 1, .num_out_pins = 1, .rts = counter_rts,
                   .send = counter_sends, .out_bytes = bytes16, .recv = recvs },
#endif
#ifdef TEST_STEPS_ONLY
  [T_ONLY] = { .num_in_pins = 1, .num_out_pins = 1, .out_bytes = bytes16, .step = only_steps },
#endif
};
const uint32_t ss_num_dev_types = sizeof(ss_dev_types) / sizeof(*ss_dev_types);

// ------------------------------------------------------------ image builder
// Lays out an image the way docs/softswitch.md describes: header, tables,
// states and props, scratch. Tests fill the tables through the pointers.

typedef struct {
  char *buf;
  ss_thread_image *img;
  ss_device *devs;
  ss_out_pin *pins;
  ss_out_edge *edges;
  ss_in_group *groups;
  ss_in_edge *in;
  dev_state *state;
  counter_props *props;
  ss_inv_node *inv;   // room for 2 invocations (num_invocations 0 until a test sets it)
} image;

static image build(uint32_t ndev, uint32_t pins_per_dev, uint32_t nedges, uint32_t ngroups,
                   uint32_t nin) {
  image m;
  uint32_t off = sizeof(ss_thread_image);
  uint32_t o_dev = off;    off += ndev * sizeof(ss_device);
  uint32_t o_pin = off;    off += ndev * pins_per_dev * sizeof(ss_out_pin);
  uint32_t o_edge = off;   off += nedges * sizeof(ss_out_edge);
  uint32_t o_grp = off;    off += ngroups * sizeof(ss_in_group);
  uint32_t o_in = off;     off += nin * sizeof(ss_in_edge);
  uint32_t o_state = off;  off += ndev * sizeof(dev_state);
  uint32_t o_props = off;  off += ndev * sizeof(counter_props);
  uint32_t o_rts = off;    off += SS_RTS_BYTES(ndev);
  uint32_t o_ready = off;  off += SS_READY_BYTES(ndev);
  off = (off + 7) & ~7u;
  uint32_t o_inv = off;    off += 2 * sizeof(ss_inv_node);
  uint32_t o_tree = off;   off += SS_TREE_BYTES(2);
  m.buf = calloc(1, off);
  m.img = (ss_thread_image *)m.buf;
  *m.img = (ss_thread_image){ .magic = SS_MAGIC, .version = SS_VERSION, .image_bytes = off,
    .num_devices = ndev, .num_in_groups = ngroups, .devices_off = o_dev, .out_pins_off = o_pin,
    .out_edges_off = o_edge, .in_groups_off = o_grp, .in_edges_off = o_in,
    .rts_off = o_rts, .ready_off = o_ready, .flags = SS_FLAG_EXIT_ON_IDLE, .inv_off = o_inv,
    .tree_off = o_tree, .host_mbox = 7 };
  m.devs = (ss_device *)(m.buf + o_dev);
  m.pins = (ss_out_pin *)(m.buf + o_pin);
  m.edges = (ss_out_edge *)(m.buf + o_edge);
  m.groups = (ss_in_group *)(m.buf + o_grp);
  m.in = (ss_in_edge *)(m.buf + o_in);
  m.state = (dev_state *)(m.buf + o_state);
  m.props = (counter_props *)(m.buf + o_props);
  m.inv = (ss_inv_node *)(m.buf + o_inv);
  for (uint32_t i = 0; i < ndev; i++) {
    m.devs[i] = (ss_device){ .type = T_COUNTER,
      .state_off = o_state + i * (uint32_t)sizeof(dev_state),
      .props_off = o_props + i * (uint32_t)sizeof(counter_props),
      .out_pin_base = i * pins_per_dev };
    for (uint32_t p = 0; p < pins_per_dev; p++)
      m.pins[i * pins_per_dev + p] = (ss_out_pin){ .local_key = SS_NO_KEY };
  }
  return m;
}

// Run to termination, with a bound so a deadlock fails instead of hanging.
static int run(ss_thread *t, image *m, int max_polls) {
  if (ss_init(t, m->img)) return -1;
  for (int i = 0; i < max_polls; i++)
    if (ss_poll(t) == SS_DONE) return i;
  return -2;
}

// ------------------------------------------------------------------ tests

// Three devices, three sends each, all to a sink on the same thread: the
// sends interleave round robin, and nothing touches the network.
static void test_fairness_and_local(void) {
  stub_reset(5);
  image m = build(4, 1, 0, 1, 1);
  for (int i = 0; i < 3; i++) { m.props[i].limit = 3; m.pins[i].local_key = 0; }
  m.props[3].limit = 0;                       // the sink never sends
  m.groups[0] = (ss_in_group){ .first = 0, .count = 1 };
  m.in[0] = (ss_in_edge){ .dev = 3, .pin = 0 };
  ss_thread t;
  int polls = run(&t, &m, 1000);
  CHECK(polls >= 0, "terminates (got %d)", polls);
  dev_state *sink = &m.state[3];
  CHECK(sink->received == 9, "sink received %u of 9", sink->received);
  int fair = 1;
  for (uint32_t k = 0; k < 9; k++) fair &= SS_SRC_DEV(sink->srcs[k]) == k % 3;
  CHECK(fair, "round robin order d0 d1 d2 d0 ... (got %u %u %u %u)", SS_SRC_DEV(sink->srcs[0]),
        SS_SRC_DEV(sink->srcs[1]), SS_SRC_DEV(sink->srcs[2]), SS_SRC_DEV(sink->srcs[3]));
  CHECK(SS_SRC_THREAD(sink->srcs[0]) == 5, "header src names the thread");
  CHECK(sink->sum == 3 * (0 + 1 + 2), "payloads arrive intact (sum %u)", sink->sum);
  CHECK(stub.nsends == 0, "local edges never use the network (%u sends)", stub.nsends);
  CHECK(m.img->stats.sent_local == 9 && m.img->stats.recv_local == 9 && m.img->stats.sent_remote == 0,
        "stats: sent_local %u recv_local %u sent_remote %u", m.img->stats.sent_local,
        m.img->stats.recv_local, m.img->stats.sent_remote);
  CHECK(m.img->stats.handler_calls == 18, "9 sends + 9 receives (got %u)", m.img->stats.handler_calls);
  free(m.buf);
}

// RTS bitmask: lowest pin first, a cancelled send sends nothing, bits for
// pins the type lacks are ignored, and the ready bit clears when done.
static void test_rts_bitmask(void) {
  stub_reset(0);
  image m = build(2, 3, 0, 1, 1);
  m.devs[0].type = T_PINS;
  for (int p = 0; p < 3; p++) m.pins[p].local_key = 0;
  m.props[1].limit = 0;
  m.groups[0] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 1, .pin = 0 };
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "init");
  CHECK(t.h->rts[0] == 7, "rts masked to the type's 3 pins (got 0x%x)", t.h->rts[0]);
  CHECK((t.h->ready[0] & 3u) == 1u, "ready bitmap: device 0 only (0x%x)", t.h->ready[0]);
  ss_poll(&t);
  CHECK(m.state[0].pin_sends[0] == 1 && m.state[0].pin_sends[1] == 0, "pin 0 goes first");
  CHECK(m.state[1].received == 1 && m.state[1].sum == 100, "pin 0's message delivered");
  ss_poll(&t);
  CHECK(m.state[0].pin_sends[1] == 1 && m.state[1].received == 1, "pin 1 cancelled: nothing delivered");
  ss_poll(&t);
  CHECK(m.state[0].pin_sends[2] == 1 && m.state[1].sum == 100 + 102, "pin 2 last");
  CHECK(t.h->rts[0] == 0 && t.h->ready[0] == 0, "ready bit cleared (rts 0x%x ready 0x%x)", t.h->rts[0], t.h->ready[0]);
  CHECK(m.img->stats.sent_local == 2, "two local sends (got %u)", m.img->stats.sent_local);
  free(m.buf);
}

// 1000 devices in a ring on one thread, each sending 2 messages to the next.
static void test_thousand_devices(void) {
  enum { N = 1000 };
  stub_reset(0);
  image m = build(N, 1, 0, N, N);
  for (uint32_t i = 0; i < N; i++) {
    m.props[i].limit = 2;
    m.pins[i].local_key = (uint16_t)i;
    m.groups[i] = (ss_in_group){ i, 1 };
    m.in[i] = (ss_in_edge){ .dev = (uint16_t)((i + 1) % N), .pin = 0 };
  }
  ss_thread t;
  int polls = run(&t, &m, 10 * N);
  CHECK(polls >= 0, "1000 devices terminate (got %d)", polls);
  int all = 1;
  for (uint32_t i = 0; i < N; i++)
    all &= m.state[i].received == 2 && m.state[i].sum == 1 && m.state[i].sent == 2 &&
           SS_SRC_DEV(m.state[i].srcs[0]) == (i + N - 1) % N;
  CHECK(all, "every device sent 2 and received 2 from its predecessor");
  CHECK(m.img->stats.sent_local == 2 * N, "sent_local %u", m.img->stats.sent_local);
  free(m.buf);
}

// One pin, three network destinations (two mailboxes, one routing key) and
// a local receiver: three multicasts with the right masks, keys and length.
static void test_multicast_per_mailbox(void) {
  stub_reset(0x41);
  image m = build(2, 1, 3, 2, 1);
  m.devs[0].type = T_IDLE;                    // 40-byte payload: 3 flits
  m.props[0].limit = 1;
  m.pins[0] = (ss_out_pin){ .local_key = 1, .num_edges = 3, .first_edge = 0 };
  m.edges[0] = (ss_out_edge){ .mbox = 2, .mask_hi = 0, .mask_lo = 0x11, .key = 7 };
  m.edges[1] = (ss_out_edge){ .mbox = 3, .mask_hi = 0x80000000u, .mask_lo = 0, .key = 9 };
  m.edges[2] = (ss_out_edge){ .mbox = TinselMailboxRoutingKey, .mask_lo = 0xabc0001fu, .key = 0 };
  m.groups[1] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 1, .pin = 0 };
  stub.busy_after_send = 2;                   // the port is busy after each send
  ss_thread t;
  int polls = run(&t, &m, 1000);
  CHECK(polls >= 0, "terminates");
  CHECK(stub.nsends == 3, "one network message per destination mailbox or key (got %u)", stub.nsends);
  CHECK(stub.sends[0].mbox == 2 && stub.sends[0].lo == 0x11 && stub.sends[0].hi == 0, "edge 0 mask");
  CHECK(stub.sends[1].mbox == 3 && stub.sends[1].hi == 0x80000000u, "edge 1 mask");
  CHECK(stub.sends[2].mbox == TinselMailboxRoutingKey && stub.sends[2].lo == 0xabc0001fu, "routing key");
  const ss_msg_header *h0 = (const ss_msg_header *)stub.sends[0].msg;
  const ss_msg_header *h1 = (const ss_msg_header *)stub.sends[1].msg;
  CHECK(h0->key == 7 && h1->key == 9, "header key per destination (%u, %u)", h0->key, h1->key);
  CHECK(h0->src == SS_SRC(0, 0x41) && h0->pin == 0, "header src 0x%x", h0->src);
  CHECK(stub.sends[0].msg[2] == 0 && stub.sends[1].msg[2] == 0, "payload value 0 in every copy");
  CHECK(stub.sends[0].len == 2, "SendLen: 8 + 40 bytes = 3 flits, written as 2 (got %u)", stub.sends[0].len);
  CHECK(!stub.sent_while_busy && !stub.slot_written_while_busy, "never sends or writes the slot while busy");
  CHECK(m.state[1].received == 1, "the local receiver got it too");
  CHECK(m.img->stats.sent_remote == 3 && m.img->stats.sent_local == 1, "stats remote %u local %u",
        m.img->stats.sent_remote, m.img->stats.sent_local);
  free(m.buf);
}

// The send port stays busy while a flood arrives: every arriving message is
// received and freed before the sends finish, and nothing deadlocks.
static void test_receive_first(void) {
  stub_reset(0);
  image m = build(2, 1, 1, 1, 1);
  m.props[0].limit = 5;
  m.pins[0] = (ss_out_pin){ .local_key = SS_NO_KEY, .num_edges = 1, .first_edge = 0 };
  m.edges[0] = (ss_out_edge){ .mbox = 1, .mask_lo = 1, .key = 0 };
  m.groups[0] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 1, .pin = 0 };
  ss_msg_header h = { .key = 0, .src = SS_SRC(3, 9) };
  memcpy(stub.flood_msg, &h, sizeof h);
  stub.flood_msg[2] = 1;
  stub.flood_per_wait = 3;
  stub.flood_left = 300;
  stub.busy = 40;                             // the network is backed up
  stub.busy_after_send = 20;
  ss_thread t;
  int polls = run(&t, &m, 100000);
  CHECK(polls >= 0, "no deadlock under a flood (got %d)", polls);
  CHECK(m.state[1].received == 300 && m.state[1].sum == 300, "all 300 flood messages delivered (%u)",
        m.state[1].received);
  CHECK(stub.frees == 300 && stub.recvs == 300 && !stub.bad_free, "each freed once (%u frees)", stub.frees);
  CHECK(stub.nsends == 5 && !stub.sent_while_busy, "5 sends, none while busy (%u)", stub.nsends);
  CHECK(stub.waits > 0 && m.img->stats.idle_cycles > 0, "waited for the port (%u waits)", stub.waits);
  CHECK(m.img->stats.recv_remote == 300, "recv_remote %u", m.img->stats.recv_remote);
  free(m.buf);
}

// Termination: devices whose idle handler stays active for two barriers;
// the thread votes "not done" until then, and exits on the all-true barrier.
static void test_termination(void) {
  stub_reset(0);
  image m = build(3, 1, 0, 1, 0);
  for (int i = 0; i < 3; i++) { m.devs[i].type = T_IDLE; m.props[i].limit = 0; }
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "init");
  m.state[1].busy_idles = 2;
  int polls = run(&t, &m, 100);
  CHECK(polls >= 0, "terminates");
  CHECK(m.state[1].idles == 3 && m.state[0].idles == 3, "idle handlers ran 3 times (%u)", m.state[1].idles);
  CHECK(m.img->stats.idle_barriers == 4, "4 barriers: 3 voting false/true, the last all true (%u)",
        m.img->stats.idle_barriers);
  CHECK(stub.last_vote == 1, "last vote was done");
  // Without SS_FLAG_EXIT_ON_IDLE the thread keeps serving.
  stub_reset(0);
  m.img->flags = 0;
  polls = run(&t, &m, 50);
  CHECK(polls == -2, "stays up without SS_FLAG_EXIT_ON_IDLE");
  free(m.buf);
}

// Bad input from the host: counted in stats.errors, never a crash.
static void test_bad_images(void) {
  stub_reset(0);
  image m = build(2, 1, 0, 1, 1);
  ss_thread t;
  m.img->magic = 0;
  CHECK(ss_init(&t, m.img) != 0 && m.img->stats.errors == 1, "bad magic rejected");
  m.img->magic = SS_MAGIC;
  m.devs[1].type = 9;
  CHECK(ss_init(&t, m.img) != 0, "unknown device type rejected");
  m.devs[1].type = T_COUNTER;
  m.img->num_devices = 1u << 28;
  CHECK(ss_init(&t, m.img) != 0, "device table past the image rejected");
  m.img->num_devices = 2;
  m.img->graph_props_off = 6;
  CHECK(ss_init(&t, m.img) != 0, "misaligned table offset rejected");
  m.img->graph_props_off = 0;
  m.devs[1].state_off += 2;
  CHECK(ss_init(&t, m.img) != 0, "misaligned device state rejected");
  m.devs[1].state_off -= 2;
  uint32_t props = m.devs[0].props_off;
  m.devs[0].props_off = m.img->image_bytes;
  CHECK(ss_init(&t, m.img) != 0, "device props past the image rejected");
  m.devs[0].props_off = props;
  CHECK(ss_init(&t, m.img) == 0, "repaired image accepted");
  m.groups[0] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 7, .pin = 0 };   // no device 7
  ss_msg_header bad_key = { .key = 5 }, bad_dev = { .key = 0 };
  stub_push(&bad_key, sizeof bad_key);
  stub_push(&bad_dev, sizeof bad_dev);
  ss_poll(&t);
  CHECK(m.img->stats.errors == 2 && stub.frees == 2, "bad key and bad device counted, messages freed (%u)",
        m.img->stats.errors);
  free(m.buf);
}

// Image version 2: the end of invocation 1 on a thread of three devices and
// one child thread. Device ends fold locally (no network); the node waits
// for the child's end (here after the devices', but a child's end may come
// first), then sends ONE end up with the sum and the device count.
static void test_end_tree(void) {
  stub_reset(0x21);
  image m = build(3, 1, 0, 1, 0);
  m.img->flags = SS_FLAG_HOST_DRIVEN;
  m.img->num_invocations = 2;
  m.inv[1] = (ss_inv_node){ .up = { 5, 0, 1u << 3, SS_KEY_END, 0 }, .own = 3, .children = 1,
                            .end_bytes = sizeof(end_msg) };
  for (uint32_t i = 0; i < 3; i++) {
    m.devs[i].type = T_END;
    m.props[i].limit = i + 1;
    m.pins[i].local_key = SS_END_PIN_KEY(1);
  }
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "v2 image accepted");
  for (int i = 0; i < 10; i++) ss_poll(&t);
  const ss_tree_node *node = (const ss_tree_node *)(m.buf + m.img->tree_off) + 1;
  CHECK(stub.nsends == 0 && node->devices == 3, "device ends fold locally, node waits for its child "
        "(%u sends)", stub.nsends);
  CHECK(stub.idles == 0 && stub.recv_waits > 0, "host-driven: waits for messages, never votes (%u, %u)",
        stub.idles, stub.recv_waits);
  struct { ss_msg_header h; end_msg e; } child = { { SS_KEY_END, 1, 0, 5 }, { 1, 1, {0}, 10 } };
  stub_push(&child, sizeof child);
  for (int i = 0; i < 5; i++) ss_poll(&t);
  const stub_send *s = &stub.sends[0];
  const ss_msg_header *h = (const ss_msg_header *)s->msg;
  const end_msg *e = (const end_msg *)(h + 1);
  CHECK(stub.nsends == 1 && s->mbox == 5 && s->hi == 0 && s->lo == 1u << 3, "one end to the parent (%u sends)",
        stub.nsends);
  CHECK(h->key == SS_KEY_END && h->pin == 1 && h->src == 8, "key END, pin = invocation, src = 8 devices (%u)",
        h->src);
  CHECK(e->round == 1 && e->contributes && e->value == 16, "globals folded: 1+2+3+10 (%u)", e->value);
  CHECK(s->len == 1 && m.img->stats.errors == 0, "2 flits, no errors");
  // Again, the child's end first and of another round (a host bug): the end
  // still goes up, the mismatch is counted.
  for (uint32_t i = 0; i < 3; i++) m.state[i].sent = 0;
  CHECK(ss_init(&t, m.img) == 0, "restart");
  child.e.round = 2;
  stub_push(&child, sizeof child);
  for (int i = 0; i < 10; i++) ss_poll(&t);
  CHECK(stub.nsends == 2 && m.img->stats.errors == 1, "an early child end is kept; other rounds are counted "
        "(%u sends, %u errors)", stub.nsends, m.img->stats.errors);
  free(m.buf);
}

// Streamed invocations: begins that come while the thread's devices are
// still in an earlier invocation wait, and run in the order they came once
// the last device has ended; more than SS_MAX_HELD_BEGINS are counted.
static void push_msg(uint16_t key, uint32_t value) {
  struct { ss_msg_header h; msg_t m; } msg = { { key, 0, 0, 0 }, { value, {0} } };
  stub_push(&msg, sizeof msg);
}

static void test_held_begins(void) {
  stub_reset(0x23);
  // keys 0, 1: the begins of invocations 0 and 1 (both devices, pin 0);
  // keys 2, 3: a go for device 0, device 1 (pin 1)
  image m = build(2, 2, 0, 4, 6);
  m.img->flags = SS_FLAG_HOST_DRIVEN;
  m.img->num_invocations = 2;
  for (uint32_t k = 0; k < 2; k++) {
    m.inv[k] = (ss_inv_node){ .up = { 7, 0, 1, SS_KEY_END, 0 }, .own = 2, .end_bytes = sizeof(end_msg) };
    m.groups[k] = (ss_in_group){ 2 * k, 2 };
    m.in[2 * k] = (ss_in_edge){ 0, 0, 0, 0 };
    m.in[2 * k + 1] = (ss_in_edge){ 1, 0, 0, 0 };
  }
  for (uint32_t i = 0; i < 2; i++) {
    m.groups[2 + i] = (ss_in_group){ 4 + i, 1 };
    m.in[4 + i] = (ss_in_edge){ (uint16_t)i, 1, 0, 0 };
    m.devs[i].type = T_STEP;
    m.pins[2 * i] = (ss_out_pin){ .local_key = SS_END_PIN_KEY(0) };
    m.pins[2 * i + 1] = (ss_out_pin){ .local_key = SS_END_PIN_KEY(1) };
  }
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "held begins: image accepted");
  push_msg(0, 0);
  push_msg(1, 1);
  for (int i = 0; i < 10; i++) ss_poll(&t);
  CHECK(m.state[0].received == 1 && m.state[1].received == 1 && t.nheld == 1,
        "the second begin waits while the devices are in the first (%u %u, %u held)", m.state[0].received,
        m.state[1].received, t.nheld);
  push_msg(2, 0);
  for (int i = 0; i < 10; i++) ss_poll(&t);
  CHECK(m.state[0].sent == 1 && m.state[0].received == 1 && m.state[1].received == 1 && stub.nsends == 0,
        "one device ended: the begin still waits for the other (%u %u)", m.state[0].received, m.state[1].received);
  push_msg(3, 0);
  for (int i = 0; i < 10; i++) ss_poll(&t);
  CHECK(m.state[0].received == 2 && m.state[1].received == 2 && t.nheld == 0 && m.state[0].srcs[1] == 1,
        "both ended: the held begin runs (%u %u)", m.state[0].received, m.state[1].received);
  const ss_msg_header *h = (const ss_msg_header *)stub.sends[0].msg;
  CHECK(stub.nsends == 1 && h->key == SS_KEY_END && h->pin == 0 && h->src == 2, "invocation 0's end went up");
  push_msg(2, 0);
  push_msg(3, 0);
  for (int i = 0; i < 10; i++) ss_poll(&t);
  h = (const ss_msg_header *)stub.sends[1].msg;
  CHECK(stub.nsends == 2 && h->pin == 1 && h->src == 2 && m.img->stats.errors == 0, "then invocation 1's");
  // Overflow: a begin runs, SS_MAX_HELD_BEGINS wait, one more is counted.
  for (uint32_t i = 0; i < SS_MAX_HELD_BEGINS + 2; i++) push_msg((uint16_t)(i & 1), i & 1);
  for (int i = 0; i < 20; i++) ss_poll(&t);
  CHECK(t.nheld == SS_MAX_HELD_BEGINS && m.img->stats.errors == 1, "%u held, %u errors: too many are counted",
        t.nheld, m.img->stats.errors);
  free(m.buf);
}

// Requests from the host: STORE then LOAD words of the image, CYCLES,
// STATS, and bad requests (counted, answered with count 0, never a crash).
static void test_host_requests(void) {
  stub_reset(0x42);
  image m = build(1, 1, 0, 1, 0);
  m.img->flags = SS_FLAG_HOST_DRIVEN;
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "init");
  uint32_t off = m.devs[0].state_off;
  struct { ss_msg_header h; ss_sys_mem q; } req = { { SS_KEY_STORE, 0, 0, 0 }, { off, 2, { 0xabc, 0xdef } } };
  stub_push(&req, sizeof req);
  req.h.key = SS_KEY_LOAD;
  req.q = (ss_sys_mem){ off, 2, { 0 } };
  stub_push(&req, 16);
  for (int i = 0; i < 4; i++) ss_poll(&t);
  const ss_sys_mem *r = (const ss_sys_mem *)((const ss_msg_header *)stub.sends[0].msg + 1);
  CHECK(m.state[0].sent == 0xabc && m.state[0].received == 0xdef, "STORE wrote the state");
  CHECK(stub.nsends == 1 && stub.sends[0].mbox == 7 && stub.sends[0].lo == 1 &&
        ((const ss_msg_header *)stub.sends[0].msg)->key == SS_KEY_LOAD &&
        ((const ss_msg_header *)stub.sends[0].msg)->src == 0x42, "LOAD replied to the host (%u sends)", stub.nsends);
  CHECK(r->off == off && r->count == 2 && r->words[0] == 0xabc && r->words[1] == 0xdef, "LOAD reply: the words");
  req.h.key = SS_KEY_CYCLES;
  stub_push(&req, 8);
  for (int i = 0; i < 3; i++) ss_poll(&t);
  r = (const ss_sys_mem *)((const ss_msg_header *)stub.sends[1].msg + 1);
  CHECK(stub.nsends == 2 && r->off == SS_CYCLES_OFF && r->count == 2 && r->words[0] == m.img->cycles[0] &&
        r->words[0] != 0, "CYCLES: the counter, snapshot in the image (%u)", r->words[0]);
  req.h.key = SS_KEY_STATS;
  stub_push(&req, 8);
  for (int i = 0; i < 3; i++) ss_poll(&t);
  r = (const ss_sys_mem *)((const ss_msg_header *)stub.sends[2].msg + 1);
  CHECK(stub.nsends == 3 && r->off == SS_STATS_OFF && r->count == 8 && r->words[3] == 4 &&
        stub.sends[2].len == 2, "STATS: the statistics, 4 messages received with this one (%u)", r->words[3]);
  req.h.key = SS_KEY_LOAD;
  req.q = (ss_sys_mem){ 2, 1, { 0 } };          // misaligned
  stub_push(&req, 16);
  req.q = (ss_sys_mem){ off, 2, { 0 } };        // a second request before the reply
  stub_push(&req, 16);
  req.h.key = SS_KEY_STORE;
  req.q = (ss_sys_mem){ m.img->image_bytes - 4, 2, { 1, 2 } };  // past the image
  stub_push(&req, sizeof req);
  req.h.key = 0xff77;                           // no such system key
  stub_push(&req, 8);
  for (int i = 0; i < 4; i++) ss_poll(&t);
  r = (const ss_sys_mem *)((const ss_msg_header *)stub.sends[3].msg + 1);
  CHECK(stub.nsends == 4 && r->count == 0 && m.img->stats.errors == 4,
        "bad requests counted (%u), the misaligned LOAD answered with count 0", m.img->stats.errors);
  free(m.buf);
}

#ifdef TEST_STEPS
// A step whose word is not ReadyToSend's is an error (SS_CHECK_STEPS); an
// image with a type without steps is refused (SS_STEPS).
static void test_step_checks(void) {
  stub_reset(0);
  image m = build(2, 1, 0, 1, 1);
  m.devs[0].type = T_STALE;
  m.pins[1].local_key = 0;  // device 1 (a counter) sends its one message to device 0
  m.props[1].limit = 1;
  m.groups[0] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 0, .pin = 0 };
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "init");
  for (int i = 0; i < 4; i++) ss_poll(&t);
  CHECK(m.state[0].received == 1, "the stale step's device received (%u)", m.state[0].received);
  CHECK(m.img->stats.errors >= 1, "its stale ready word is an error (errors %u)", m.img->stats.errors);
  m.devs[0].type = T_NO_STEPS;
  m.img->stats.errors = 0;
  CHECK(ss_init(&t, m.img) == 1 && m.img->stats.errors == 1, "a type without steps is refused");
  free(m.buf);
}
#endif

#ifdef TEST_STEPS_ONLY
// SS_STEPS_ONLY: a device is not ready until a step says so, and an image
// with a type that has ReadyToSend or OnHardwareIdle is refused.
static void test_steps_only(void) {
  stub_reset(0);
  image m = build(1, 1, 1, 1, 1);
  m.devs[0].type = T_ONLY;
  m.pins[0] = (ss_out_pin){ .local_key = SS_NO_KEY, .num_edges = 1, .first_edge = 0 };
  m.edges[0] = (ss_out_edge){ .mbox = 1, .mask_lo = 1, .key = 0 };
  m.groups[0] = (ss_in_group){ 0, 1 };
  m.in[0] = (ss_in_edge){ .dev = 0, .pin = 0 };
  m.img->flags = SS_FLAG_HOST_DRIVEN;  // no idle barrier: polls wait for messages
  ss_thread t;
  CHECK(ss_init(&t, m.img) == 0, "a type with steps alone is accepted");
  ss_poll(&t);
  CHECK(stub.nsends == 0 && m.state[0].sent == 0, "not ready before its first step (%u sends)", stub.nsends);
  struct { ss_msg_header h; msg_t m; } msg = { { 0, 0, 0, 0 }, { 41, {0} } };
  stub_push(&msg, sizeof msg);
  for (int i = 0; i < 4; i++) ss_poll(&t);
  CHECK(m.state[0].received == 1 && stub.nsends == 1 && m.state[0].sent == 1,
        "its step made it ready: one message in, one out (received %u, sends %u)", m.state[0].received,
        stub.nsends);
  m.devs[0].type = T_COUNTER;
  m.img->stats.errors = 0;
  CHECK(ss_init(&t, m.img) == 1 && m.img->stats.errors == 1, "a type with ReadyToSend is refused");
  m.devs[0].type = T_IDLE;
  m.img->stats.errors = 0;
  CHECK(ss_init(&t, m.img) == 1 && m.img->stats.errors == 1, "a type with OnHardwareIdle is refused");
  free(m.buf);
}
#endif

int main(void) {
#ifdef TEST_STEPS_ONLY
  test_steps_only();
  return UNIT_FINISH();
#endif
#ifdef TEST_STEPS
  test_step_checks();
#endif
  test_fairness_and_local();
  test_rts_bitmask();
  test_thousand_devices();
  test_multicast_per_mailbox();
  test_receive_first();
  test_termination();
  test_bad_images();
  test_end_tree();
  test_held_begins();
  test_host_requests();
  return UNIT_FINISH();
}
