// ss_stream.c: the partition device type and its thread image (ss_stream.h).
#include "ss_stream.h"

static uint32_t rts(const void *gp, const void *props, const void *state) {
  (void)gp, (void)props;
  const stream_ss_state *s = state;
  uint32_t m = 0;
  for (uint32_t k = 0; k < s->npins; k++)
    if (stream_pending(&s->g, &s->pins[k])) m |= 1u << k;
  return m;
}

static void init(const void *gp, const void *props, void *state) {
  (void)gp, (void)props;
  stream_schedule(&((stream_ss_state *)state)->g);
}

static void recv(const void *gp, const void *props, void *state, const void *ep, const void *payload) {
  (void)gp, (void)props, (void)ep;
  stream_ss_state *s = state;
  stream_apply(&s->g, payload);
  stream_schedule(&s->g);
}

// One copy, which the per-pin handlers below jump to (inlined, 8 copies cost
// ~400 bytes). It takes the handlers' arguments as they come, so each handler
// is two instructions, the pin in a register and the jump (noipa: LTO would
// drop the unused arguments, and each handler would move the others).
__attribute__((noipa)) static int send_pin(const void *gp, const void *props, void *state, void *payload, uint32_t k) {
  (void)gp, (void)props;
  stream_ss_state *s = state;
  return k < s->npins && stream_pack(&s->g, &s->pins[k], payload);
}
#define SEND(k) \
  static int send##k(const void *gp, const void *props, void *state, void *payload) { \
    return send_pin(gp, props, state, payload, k);                                    \
  }
SEND(0) SEND(1) SEND(2) SEND(3) SEND(4) SEND(5) SEND(6) SEND(7)
_Static_assert(STREAM_SS_PINS == 8, "one send handler per pin");

static const ss_send_fn sends[STREAM_SS_PINS] = {send0, send1, send2, send3, send4, send5, send6, send7};
static const uint8_t out_bytes[STREAM_SS_PINS] = {56, 56, 56, 56, 56, 56, 56, 56};
static const ss_recv_fn recvs[1] = {recv};
_Static_assert(STREAM_MSG_WORDS * 4 == SS_MAX_PAYLOAD, "a stream message is a whole payload");

const ss_dev_type ss_dev_types[] = {
    {1, STREAM_SS_PINS, 0, init, rts, 0, sends, out_bytes, recvs, 0},
};
const uint32_t ss_num_dev_types = 1;

#define OFF(field) ((uint32_t)__builtin_offsetof(stream_ss_image, field))

int stream_ss_build(stream_ss_image *img, const uint32_t *part_addr, uint32_t flags) {
  const stream_graph *g = &img->state.g;
  uint8_t *b = (uint8_t *)img;  // everything but the graph
  for (uint32_t i = 0; i < __builtin_offsetof(stream_ss_image, state); i++) b[i] = 0;
  uint32_t has = 0;
  for (uint32_t i = 0; i < g->nnodes; i++) has |= g->place[i] == g->me;
  stream_ss_state *s = &img->state;
  stream_pin pins[STREAM_SS_PINS + 1];
  s->npins = stream_pins(g, pins, STREAM_SS_PINS + 1);
  if (s->npins > STREAM_SS_PINS) return 1;
  for (uint32_t k = 0; k < s->npins; k++) s->pins[k] = pins[k];
  img->hdr = (ss_thread_image){.magic = SS_MAGIC, .version = SS_VERSION, .flags = flags,
                               .image_bytes = STREAM_SS_WIRE_BYTES, .num_devices = has, .num_in_groups = 1,
                               .devices_off = OFF(dev), .out_pins_off = OFF(pins), .out_edges_off = OFF(edges),
                               .in_groups_off = OFF(group), .in_edges_off = OFF(in), .rts_off = OFF(rts),
                               .ready_off = OFF(ready)};
  img->dev = (ss_device){.type = 0, .state_off = OFF(state), .props_off = 0, .out_pin_base = 0};
  for (uint32_t k = 0; k < STREAM_SS_PINS; k++) {
    img->pins[k] = (ss_out_pin){.local_key = SS_NO_KEY, .num_edges = k < s->npins, .first_edge = k};
    if (k >= s->npins) continue;
    uint32_t a = part_addr[s->pins[k].dest], t = a & ((1u << TinselLogThreadsPerMailbox) - 1u);
    img->edges[k] = (ss_out_edge){.mbox = a >> TinselLogThreadsPerMailbox, .mask_hi = t >= 32 ? 1u << (t - 32) : 0,
                                  .mask_lo = t < 32 ? 1u << t : 0, .key = 0};
  }
  img->group = (ss_in_group){.first = 0, .count = 1};
  img->in = (ss_in_edge){.dev = 0, .pin = 0, .edge_props_off = 0};
  return 0;
}

int stream_ss_bind(stream_ss_image *img, const stream_fns *kinds, uint32_t nkinds) {
  stream_graph *g = &img->state.g;
  int bad = g->nnodes > STREAM_MAX_NODES;
  for (uint32_t i = 0; !bad && i < g->nnodes; i++) {
    uint32_t k = g->nodes[i].kind;
    g->fns[i] = k < nkinds ? kinds[k] : (stream_fns){0, 0};
    bad = g->place[i] == g->me && !g->fns[i].fn;
  }
  return bad;
}
