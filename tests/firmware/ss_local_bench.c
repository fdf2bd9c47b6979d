// ss_local_bench.c: cycles per local delivery of the softswitch on the
// cycle model (tsim). Each running thread writes a thread image into its
// own DRAM partition, as the host would: a ring of RING_DEVICES devices of
// ss_demo_types.c's "counter" type, each sending SENDS messages to the next
// device on the same thread (a local edge, no network). It then runs
// ss_poll once per send (each poll is one send handler plus one delivery)
// and measures the cycles. BENCH_THREADS threads of the core take part.
// Thread 0 prints the figures and stores the verdict to tohost.
#include <stdio.h>
#include "softswitch.h"
#include "tinsel.h"

#ifndef BENCH_THREADS
#define BENCH_THREADS TinselThreadsPerCore
#endif
#ifndef RING_DEVICES
#define RING_DEVICES 64
#endif
#ifndef SENDS
#define SENDS 8
#endif
#define OK_TAG 0x600d0000u

volatile uint32_t tohost;

typedef struct { uint32_t limit; } counter_props;            // as in ss_demo_types.c
typedef struct { uint32_t sent, received, sum; } counter_state;

// The image: header, tables, states, props and scratch, in that order.
typedef struct {
  ss_thread_image hdr;
  ss_device devs[RING_DEVICES];
  ss_out_pin pins[RING_DEVICES];
  ss_in_group groups[RING_DEVICES];
  ss_in_edge in[RING_DEVICES];
  counter_state state[RING_DEVICES];
  counter_props props[RING_DEVICES];
  uint32_t rts[RING_DEVICES];
  uint32_t ready[(RING_DEVICES + 31) / 32];
} ring_image;

#define OFF(field) ((uint32_t)__builtin_offsetof(ring_image, field))

static void build_ring(ring_image *m) {
  m->hdr = (ss_thread_image){ .magic = SS_MAGIC, .version = SS_VERSION,
    .image_bytes = sizeof *m, .num_devices = RING_DEVICES, .num_in_groups = RING_DEVICES,
    .devices_off = OFF(devs), .out_pins_off = OFF(pins), .out_edges_off = OFF(pins),
    .in_groups_off = OFF(groups), .in_edges_off = OFF(in), .rts_off = OFF(rts),
    .ready_off = OFF(ready) };
  for (uint32_t i = 0; i < RING_DEVICES; i++) {
    m->devs[i] = (ss_device){ .type = 0, .state_off = OFF(state) + i * sizeof(counter_state),
                              .props_off = OFF(props) + i * sizeof(counter_props), .out_pin_base = i };
    m->pins[i] = (ss_out_pin){ .local_key = (uint16_t)i, .num_edges = 0 };
    m->groups[i] = (ss_in_group){ .first = i, .count = 1 };
    m->in[i] = (ss_in_edge){ .dev = (uint16_t)((i + 1) % RING_DEVICES), .pin = 0 };
    m->props[i].limit = SENDS;
  }
}

// Cycles per delivery x 100, or 0 if the run went wrong.
static uint32_t bench(void) {
  ring_image *m = tinselHeapBase();
  build_ring(m);
  ss_thread t;
  if (ss_init(&t, &m->hdr)) return 0;
  uint32_t polls = RING_DEVICES * SENDS;
  uint32_t c0 = tinselCycleCount();
  for (uint32_t k = 0; k < polls; k++) ss_poll(&t);
  uint32_t cycles = tinselCycleCount() - c0;
  for (uint32_t i = 0; i < RING_DEVICES; i++)
    if (m->state[i].sent != SENDS || m->state[i].received != SENDS) return 0;
  if (m->hdr.stats.sent_local != polls || m->hdr.stats.recv_local != polls) return 0;
  return cycles * 100u / polls;
}

int main(void) {
  uint32_t me = tinselId(), t = me & (TinselThreadsPerCore - 1);
  if (t >= BENCH_THREADS) return 0;
  uint32_t r = bench();
  tinselEmit(r);
  volatile uint32_t *slot = tinselSendSlot();
  slot[0] = OK_TAG | (r ? 0u : 0x100u) | t;
  if (t) return 0;
  uint32_t first = me & (TinselThreadsPerMailbox - 1), bad = 0;
  for (uint32_t i = 0; i < BENCH_THREADS; i++) {
    volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)(TinselScratchpadBase +
                                                            ((first + i) << TinselLogBytesPerMsg));
    while ((*w & 0xffff0000u) != OK_TAG) {}
    bad |= *w & 0x100u;
  }
  printf("ss local: %u threads, %u devices each, %u deliveries each: thread 0 %u.%02u cycles per local delivery%s\n",
         (unsigned)BENCH_THREADS, (unsigned)RING_DEVICES, (unsigned)(RING_DEVICES * SENDS),
         (unsigned)(r / 100), (unsigned)(r % 100), bad ? ", FAIL" : "");
  tohost = bad ? 3u : 1u;
  return 0;
}
