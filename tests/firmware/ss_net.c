// ss_net.c: the softswitch over the mailbox on the cycle model (tsim, tile
// config, all 64 threads of the tile). Every thread writes its own thread
// image, as the host would, with devices of ss_demo_types.c's types, each
// sending SENDS messages on pin 0 to one network edge:
//   MODE_RING:  device d of thread t -> device d of thread t+1 (unicast);
//   MODE_MCAST: device d of thread t -> device d of all 64 threads, one
//               hardware multicast (thread mask 0xffffffff:ffffffff);
//   MODE_FLOOD: device d of every thread -> device d of thread 0: a hot
//               spot whose queue fills, so senders are held back;
//   MODE_PING:  one "echo" device on threads 0 and 1 passing a ball back
//               and forth, SENDS times each (the other threads have none).
// Termination is the softswitch's: ss_run returns when every thread of the
// tile is idle and has voted done (tinselIdle, SS_FLAG_EXIT_ON_IDLE). Each
// thread then checks its counts and posts a flag (done_flag); thread 0 waits
// for all 64 and reports cycles per network message. Run with
// tsim --config tile --all-threads (sim_boot.c built with SIM_ALL_THREADS).
#include <stdio.h>
#include "softswitch.h"
#include "tinsel.h"

#ifndef NDEV
#define NDEV 4
#endif
#ifndef SENDS
#define SENDS 8
#endif
#define MODE_RING 0
#define MODE_MCAST 1
#define MODE_FLOOD 2
#define MODE_PING 3
#ifndef MODE
#define MODE MODE_RING
#endif
#define THREADS TinselThreadsPerMailbox
// Devices on thread t, and messages each of them receives.
#define DEVICES(t) (MODE == MODE_PING ? (t) < 2 : NDEV)
#define RECEIVES(t) (MODE == MODE_MCAST ? SENDS * THREADS                     \
                     : MODE == MODE_FLOOD ? ((t) == 0 ? SENDS * THREADS : 0) \
                     : SENDS)

volatile uint32_t tohost;

// As in ss_demo_types.c (the counter type uses the first fields only).
typedef struct { uint32_t limit, start; } dev_props;
typedef struct { uint32_t sent, received, sum, ball; } dev_state;

typedef struct {
  ss_thread_image hdr;
  ss_device devs[NDEV];
  ss_out_pin pins[NDEV];
  ss_out_edge edges[NDEV];
  ss_in_group groups[NDEV];
  ss_in_edge in[NDEV];
  dev_state state[NDEV];
  dev_props props[NDEV];
  uint32_t rts[NDEV];
  uint32_t ready[(NDEV + 31) / 32];
} net_image;

#define OFF(field) ((uint32_t)__builtin_offsetof(net_image, field))

static void build(net_image *m, uint32_t me) {
  uint32_t t = me & (THREADS - 1), next = (t + 1) & (THREADS - 1);
  uint32_t dest = MODE == MODE_FLOOD ? 0 : MODE == MODE_PING ? t ^ 1 : next;
  uint32_t hi = MODE == MODE_MCAST ? ~0u : dest >= 32 ? 1u << (dest - 32) : 0;
  uint32_t lo = MODE == MODE_MCAST ? ~0u : dest < 32 ? 1u << dest : 0;
  m->hdr = (ss_thread_image){ .magic = SS_MAGIC, .version = SS_VERSION,
    .image_bytes = sizeof *m, .num_devices = DEVICES(t), .num_in_groups = NDEV,
    .devices_off = OFF(devs), .out_pins_off = OFF(pins), .out_edges_off = OFF(edges),
    .in_groups_off = OFF(groups), .in_edges_off = OFF(in), .rts_off = OFF(rts),
    .ready_off = OFF(ready), .flags = SS_FLAG_EXIT_ON_IDLE };
  for (uint32_t d = 0; d < NDEV; d++) {
    m->devs[d] = (ss_device){ .type = MODE == MODE_PING, .out_pin_base = d,
                              .state_off = OFF(state) + d * sizeof(dev_state),
                              .props_off = OFF(props) + d * sizeof(dev_props) };
    m->pins[d] = (ss_out_pin){ .local_key = SS_NO_KEY, .num_edges = 1, .first_edge = d };
    m->edges[d] = (ss_out_edge){ .mbox = me >> TinselLogThreadsPerMailbox, .mask_hi = hi,
                                 .mask_lo = lo, .key = (uint16_t)d };
    m->groups[d] = (ss_in_group){ .first = d, .count = 1 };
    m->in[d] = (ss_in_edge){ .dev = (uint16_t)d, .pin = 0 };
    m->props[d] = (dev_props){ .limit = SENDS, .start = t == 0 };
  }
}

// Done flags live in the scratchpad (shared by the tile, uncached): the last
// word of each thread's own send slot, never part of these 1-flit messages.
static volatile uint32_t *done_flag(uint32_t t) {
  return (volatile uint32_t *)(uintptr_t)(TinselScratchpadBase + (t << TinselLogBytesPerMsg) + 60);
}

int main(void) {
  uint32_t me = tinselId(), t = me & (THREADS - 1);
  net_image *m = tinselHeapBase();
  build(m, me);
  ss_thread st;
  uint32_t c0 = tinselCycleCount(), bad = (uint32_t)ss_run(&st, &m->hdr);
  uint32_t cycles = tinselCycleCount() - c0;
  for (uint32_t d = 0; d < DEVICES(t); d++)    // everything sent and received, intact
    if (m->state[d].sent != SENDS || m->state[d].received != RECEIVES(t) ||
        m->state[d].sum != (RECEIVES(t) / SENDS) * (SENDS * (SENDS - 1) / 2)) bad = 1;
  if (m->hdr.stats.errors || m->hdr.stats.sent_remote != DEVICES(t) * SENDS) bad = 1;
  *done_flag(t) = 0x600d0000u | (bad ? 0x100u : 0u) | t;
  if (t) { for (;;) {} }                       // keep the slot word: do not return
  uint32_t fails = 0;
  for (uint32_t i = 0; i < THREADS; i++) {
    while ((*done_flag(i) & 0xffff0000u) != 0x600d0000u) {}
    fails += (*done_flag(i) >> 8) & 1u;
  }
  uint32_t msgs = MODE == MODE_PING ? 2 * SENDS : THREADS * NDEV * SENDS;
  uint32_t deliveries = MODE == MODE_MCAST ? msgs * THREADS : msgs;
  const char *name = MODE == MODE_MCAST ? "multicast" : MODE == MODE_RING ? "ring"
                   : MODE == MODE_PING ? "ping-pong" : "flood to thread 0";
  printf("ss net %s: %u network messages, %u deliveries, %u cycles (thread 0), "
         "%u cycles per message, %u failed threads\n", name, (unsigned)msgs,
         (unsigned)deliveries, (unsigned)cycles, (unsigned)(cycles / msgs), (unsigned)fails);
  tohost = fails ? 3u : 1u;
  return 0;
}
