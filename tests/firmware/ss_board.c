// ss_board.c: the softswitch across a whole board on the cycle model (tsim
// --config board --all-threads: 16 mailboxes on the 4x4 NoC, 1024 threads).
// Every thread writes its own thread image, as the host would. One device
// type, "probe", sends SENDS numbered messages on pin 0 (payload: sending
// thread, sequence number) and records, per source slot, a bitmask of the
// sequence numbers it has seen, so each receiving device can check that
// every message arrived exactly once and from the right sender:
//   MODE_RING: device d of thread t -> device d of thread t+65 (mod 1024):
//              one ring through all 1024 threads in which every hop
//              changes mailbox, so every message crosses the NoC;
//   MODE_ALL:  device d of thread (m, l) (mailbox m, thread l in it) ->
//              device d of the PEERS threads l mod (64/PEERS) of every
//              mailbox, its own included: one out pin with 16 network
//              edges, each a hardware multicast to PEERS threads; all 16x16
//              mailbox pairs. PEERS=64 is the full 1024x1024 all-to-all (a
//              million deliveries: beyond the suite's time on this model);
//   MODE_FAN:  one device on the board's last thread (mailbox 15, the far
//              corner of the mesh) -> FAN_DEVICES devices on thread 0: one
//              network message per send, fanned out on the receiving
//              thread by its in-group (the incoming-edge table).
// Termination is the softswitch's (tinselIdle across the board). Then each
// thread checks its devices and posts a flag in its tile's scratchpad; the
// first thread of each tile collects its tile's 64 flags and sends one
// message to thread 0, which checks all 16 arrived and reports.
#include <stdio.h>
#include "softswitch.h"
#include "tinsel.h"

#define MODE_RING 0
#define MODE_ALL 1
#define MODE_FAN 2
#ifndef MODE
#define MODE MODE_RING
#endif
#ifndef NDEV
#define NDEV 1
#endif
#ifndef SENDS
#define SENDS 4
#endif
#ifndef PEERS
#define PEERS 4
#endif
#ifndef DUPLICATE_FROM     // test of the test: this thread sends sequence number 0 twice
#define DUPLICATE_FROM (~0u)
#endif
#ifndef FAN_DEVICES
#define FAN_DEVICES 1000
#endif
_Static_assert(SENDS >= 1 && SENDS <= 32, "one bit per sequence number");
_Static_assert(PEERS >= 1 && PEERS <= TinselThreadsPerMailbox && !(PEERS & (PEERS - 1)), "PEERS: a power of two");

#define THREADS TinselThreadsPerBoard
#define MBOXES TinselMailboxesPerBoard
#define PER_MBOX TinselThreadsPerMailbox
#define LOG_PER_MBOX TinselLogThreadsPerMailbox
#define FAN_SENDER (THREADS - 1)
#define RING_STRIDE (PER_MBOX + 1)
#define MAXDEV (MODE == MODE_FAN ? FAN_DEVICES : NDEV)
#define EDGES_PER_PIN (MODE == MODE_ALL ? MBOXES : 1)
#define STRIDE (PER_MBOX / PEERS)   // MODE_ALL: peers are STRIDE apart in a mailbox
#define SLOTS (MODE == MODE_ALL ? MBOXES * PEERS : 1) // distinct senders per device

volatile uint32_t tohost;

// ------------------------------------------------------------ device type

typedef struct { uint32_t limit, expect; } probe_props; // expect: see probe_recv
typedef struct { uint32_t sent, received, dups, strangers, seen[SLOTS]; } probe_state;
typedef struct { uint32_t src, seq; } probe_msg;

// Handler-to-handler window on the receiving thread (MODE_FAN only thread 0
// receives, so these DRAM globals have one writer).
static volatile uint32_t first_recv_cycle, last_recv_cycle;

static void probe_init(const void *gp, const void *props, void *state) {
  (void)gp; (void)props;
  probe_state *s = state;
  s->sent = s->received = s->dups = s->strangers = 0;
  for (uint32_t i = 0; i < SLOTS; i++) s->seen[i] = 0;
}

static uint32_t probe_rts(const void *gp, const void *props, const void *state) {
  (void)gp;
  return ((const probe_state *)state)->sent < ((const probe_props *)props)->limit;
}

static int probe_send(const void *gp, const void *props, void *state, void *payload) {
  (void)gp; (void)props;
  probe_state *s = state;
  uint32_t me = tinselId(), seq = s->sent++;
  if (me == DUPLICATE_FROM && seq == 1) seq = 0;
  *(probe_msg *)payload = (probe_msg){ .src = me, .seq = seq };
  return 1;
}

// The sender must be props->expect (ring, fan-out) or, in the all-to-all,
// thread props->expect of some mailbox (that mailbox is the slot).
static void probe_recv(const void *gp, const void *props, void *state,
                       const void *edge_props, const void *payload) {
  (void)gp; (void)edge_props;
  if (MODE == MODE_FAN) {
    uint32_t now = tinselCycleCount();
    if (!first_recv_cycle) first_recv_cycle = now;
    last_recv_cycle = now;
  }
  const probe_msg *m = payload;
  probe_state *s = state;
  uint32_t expect = ((const probe_props *)props)->expect;
  uint32_t src_l = m->src & (PER_MBOX - 1);
  uint32_t slot = MODE == MODE_ALL ? (m->src >> LOG_PER_MBOX) * PEERS + src_l / STRIDE : 0;
  uint32_t from = MODE == MODE_ALL ? src_l % STRIDE : m->src;
  s->received++;
  if (from != expect || slot >= SLOTS || m->seq >= SENDS) { s->strangers++; return; }
  uint32_t bit = 1u << m->seq;
  if (s->seen[slot] & bit) s->dups++;
  s->seen[slot] |= bit;
}

static const ss_send_fn probe_sends[] = { probe_send };
static const uint8_t probe_out_bytes[] = { sizeof(probe_msg) };
static const ss_recv_fn probe_recvs[] = { probe_recv };
const ss_dev_type ss_dev_types[] = {
  { .num_in_pins = 1, .num_out_pins = 1, .init = probe_init, .rts = probe_rts,
    .send = probe_sends, .out_bytes = probe_out_bytes, .recv = probe_recvs },
};
const uint32_t ss_num_dev_types = 1;

// ------------------------------------------------------------ thread image

typedef struct {
  ss_thread_image hdr;
  ss_device devs[MAXDEV];
  ss_out_pin pins[MAXDEV];
  ss_out_edge edges[NDEV * EDGES_PER_PIN];
  ss_in_group groups[NDEV];
  ss_in_edge in[MAXDEV];
  probe_state state[MAXDEV];
  probe_props props[MAXDEV];
  uint32_t rts[MAXDEV];
  uint32_t ready[(MAXDEV + 31) / 32];
} board_image;

#define OFF(field) ((uint32_t)__builtin_offsetof(board_image, field))

// What thread `me` hosts and expects.
static uint32_t devices_on(uint32_t me) {
  if (MODE != MODE_FAN) return NDEV;
  return me == 0 ? FAN_DEVICES : me == FAN_SENDER ? 1 : 0;
}
static uint32_t sends_of(uint32_t me) { return MODE == MODE_FAN && me == 0 ? 0 : SENDS; }
static uint32_t receives_per_device(uint32_t me) {
  if (MODE == MODE_FAN) return me == 0 ? SENDS : 0;
  return SENDS * SLOTS;
}
static uint32_t network_sends(uint32_t me) {
  return MODE == MODE_FAN ? (me == FAN_SENDER ? SENDS : 0) : NDEV * SENDS * EDGES_PER_PIN;
}
static uint32_t network_receives(uint32_t me) {
  return MODE == MODE_FAN ? (me == 0 ? SENDS : 0) : NDEV * SENDS * SLOTS;
}

// A network edge to threads first, first + stride, ... (count of them) of mailbox mbox.
static ss_out_edge edge_to(uint32_t mbox, uint32_t first, uint32_t stride, uint32_t count, uint32_t key) {
  ss_out_edge e = { .mbox = mbox, .key = (uint16_t)key };
  for (uint32_t j = 0, b = first; j < count; j++, b += stride) {
    if (b < 32) e.mask_lo |= 1u << b;
    else e.mask_hi |= 1u << (b - 32);
  }
  return e;
}

static void build(board_image *m, uint32_t me) {
  uint32_t n = devices_on(me), l = me & (PER_MBOX - 1);
  m->hdr = (ss_thread_image){ .magic = SS_MAGIC, .version = SS_VERSION,
    .image_bytes = sizeof *m, .num_devices = n, .num_in_groups = MODE == MODE_FAN ? 1 : NDEV,
    .devices_off = OFF(devs), .out_pins_off = OFF(pins), .out_edges_off = OFF(edges),
    .in_groups_off = OFF(groups), .in_edges_off = OFF(in), .rts_off = OFF(rts),
    .ready_off = OFF(ready), .flags = SS_FLAG_EXIT_ON_IDLE };
  uint32_t expect = MODE == MODE_RING ? (me - RING_STRIDE) & (THREADS - 1)
                  : MODE == MODE_ALL ? l % STRIDE : FAN_SENDER;
  for (uint32_t d = 0; d < n; d++) {
    m->devs[d] = (ss_device){ .type = 0, .out_pin_base = d,
                              .state_off = OFF(state) + d * sizeof(probe_state),
                              .props_off = OFF(props) + d * sizeof(probe_props) };
    m->props[d] = (probe_props){ .limit = sends_of(me), .expect = expect };
    m->in[d] = (ss_in_edge){ .dev = (uint16_t)d, .pin = 0 };
  }
  if (MODE == MODE_FAN) {            // thread 0: all its devices in in-group 0
    m->groups[0] = (ss_in_group){ .first = 0, .count = me == 0 ? n : 0 };
    if (me == FAN_SENDER) {
      m->pins[0] = (ss_out_pin){ .local_key = SS_NO_KEY, .num_edges = 1, .first_edge = 0 };
      m->edges[0] = edge_to(0, 0, 1, 1, 0);
    }
    return;
  }
  for (uint32_t d = 0; d < n; d++) {
    m->pins[d] = (ss_out_pin){ .local_key = SS_NO_KEY, .num_edges = EDGES_PER_PIN,
                               .first_edge = d * EDGES_PER_PIN };
    m->groups[d] = (ss_in_group){ .first = d, .count = 1 };
    uint32_t next = (me + RING_STRIDE) & (THREADS - 1);
    for (uint32_t k = 0; k < EDGES_PER_PIN; k++)
      m->edges[d * EDGES_PER_PIN + k] = MODE == MODE_RING
        ? edge_to(next >> LOG_PER_MBOX, next & (PER_MBOX - 1), 1, 1, d)
        : edge_to(k, l % STRIDE, STRIDE, PEERS, d);
  }
}

// Every device got every message exactly once from its senders, and the
// thread's statistics agree.
static int check(const board_image *m, uint32_t me) {
  int bad = m->hdr.stats.errors || m->hdr.stats.sent_remote != network_sends(me) ||
            m->hdr.stats.recv_remote != network_receives(me);
  uint32_t all = SENDS == 32 ? ~0u : (1u << SENDS) - 1u;
  for (uint32_t d = 0; d < devices_on(me); d++) {
    const probe_state *s = &m->state[d];
    bad |= s->sent != sends_of(me) || s->received != receives_per_device(me) ||
           s->dups || s->strangers;
    for (uint32_t k = 0; k < SLOTS; k++) bad |= receives_per_device(me) && s->seen[k] != all;
  }
  return bad;
}

// ------------------------------------------------------------ reporting

// Per-thread flag in the tile's scratchpad: the last word of the thread's
// own send slot, beyond the 1-flit messages of this test.
static volatile uint32_t *done_flag(uint32_t l) {
  return (volatile uint32_t *)(uintptr_t)(TinselScratchpadBase + (l << TinselLogBytesPerMsg) + 60);
}
#define FLAG_MAGIC 0x600d0000u
#define REPORT_MAGIC 0x7e90u
typedef struct { uint16_t mbox, magic; uint32_t failed_threads, cycles; } tile_report;

// The first thread of a tile: how many of its tile's threads failed.
static uint32_t collect_tile(void) {
  uint32_t fails = 0;
  for (uint32_t i = 0; i < PER_MBOX; i++) {
    while ((*done_flag(i) & 0xffff0000u) != FLAG_MAGIC) {}
    fails += (*done_flag(i) >> 8) & 1u;
  }
  return fails;
}

int main(void) {
  uint32_t me = tinselId(), l = me & (PER_MBOX - 1), mbox = me >> LOG_PER_MBOX;
  board_image *m = tinselHeapBase();
  build(m, me);
  ss_thread st;
  uint32_t c0 = tinselCycleCount();
  int bad = ss_run(&st, &m->hdr);
  uint32_t cycles = tinselCycleCount() - c0;
  bad |= check(m, me);
  *done_flag(l) = FLAG_MAGIC | (bad ? 0x100u : 0u) | l;
  if (l) for (;;) tinselWaitUntil(TINSEL_CAN_RECV);  // nothing comes: sleep
  uint32_t fails = collect_tile();
  tinselSetLen(0);
  if (mbox) {                                         // one report per tile to thread 0
    tinselWaitUntil(TINSEL_CAN_SEND);
    volatile tile_report *r = tinselSendSlot();
    r->mbox = (uint16_t)mbox; r->magic = REPORT_MAGIC;
    r->failed_threads = fails; r->cycles = cycles;
    tinselSend(0, r);
    for (;;) tinselWaitUntil(TINSEL_CAN_RECV);
  }
  uint32_t tiles = 1u, all_tiles = (1u << MBOXES) - 1u, max_cycles = cycles; // bit per mailbox
  for (uint32_t i = 1; i < MBOXES; i++) {
    tinselWaitUntil(TINSEL_CAN_RECV);
    volatile tile_report *r = tinselRecv();
    uint32_t bit = r->mbox < MBOXES ? 1u << r->mbox : 0u;
    if (r->magic == REPORT_MAGIC && bit && !(tiles & bit)) { tiles |= bit; fails += r->failed_threads; }
    if (r->cycles > max_cycles) max_cycles = r->cycles;
    tinselFree(r);
  }
  if (tiles != all_tiles) fails += 1000;              // a tile reported twice or garbage
  if (MODE == MODE_FAN) {
    uint32_t deliveries = FAN_DEVICES * SENDS, window = last_recv_cycle - first_recv_cycle;
    printf("ss board fan-out: %u network messages from thread %u to %u devices on thread 0, "
           "%u deliveries, %u cycles (thread 0), %u cycles per delivery (first to last handler: %u), "
           "%u failed threads\n", (unsigned)SENDS, (unsigned)FAN_SENDER, (unsigned)FAN_DEVICES,
           (unsigned)deliveries, (unsigned)cycles, (unsigned)(window / (deliveries - 1)),
           (unsigned)window, (unsigned)fails);
  } else {
    uint32_t msgs = THREADS * NDEV * SENDS * EDGES_PER_PIN, deliveries = msgs * (MODE == MODE_ALL ? PEERS : 1);
    if (MODE == MODE_RING) printf("ss board ring (stride %u): ", (unsigned)RING_STRIDE);
    else printf("ss board all-to-all (each thread to %u threads of every mailbox): ", (unsigned)PEERS);
    printf("%u threads, %u network messages, %u deliveries, %u cycles (slowest tile), "
           "%u cycles per message, %u per delivery (board), %u failed threads\n",
           (unsigned)THREADS, (unsigned)msgs, (unsigned)deliveries, (unsigned)max_cycles,
           (unsigned)(max_cycles / msgs), (unsigned)(max_cycles / deliveries), (unsigned)fails);
  }
  tohost = fails ? 3u : 1u;
  return 0;
}
