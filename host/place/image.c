/* image.c: a thread's image in the softswitch's layout (softswitch.h,
 * docs/softswitch.md). The only file that knows that layout: placement asks
 * it for the limits, and everything else hands it placed, routed devices.
 *
 *   ss_thread_image | ss_device[] | ss_out_pin[] | ss_out_edge[] |
 *   ss_in_group[] | ss_in_edge[] | graph properties | ss_inv_node[] |
 *   tree nodes (scratch) | device state and
 *   properties | edge properties (each distinct label once) | rts | ready
 *
 * Every part starts 8-byte aligned; offsets are from the image base. */
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"
#include "softswitch.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the image is written with the host's struct layout, which must be little-endian like Tinsel"
#endif

static uint32_t al8(uint64_t n) { return (uint32_t)((n + 7) & ~(uint64_t)7); }

uint32_t place_layout_payload_limit(const PlaceMachine *m) { return m->bytes_per_msg - SS_HEADER_BYTES; }

uint32_t place_layout_state_budget(const PlaceMachine *m) {
  return m->thread_bytes - SS_STACK_RESERVE - (uint32_t)sizeof(ss_thread_image);
}

uint32_t place_layout_device_bytes(const PlaceType *t) {
  return (uint32_t)sizeof(ss_device) + (uint32_t)t->num_out_pins * (uint32_t)sizeof(ss_out_pin) +
         al8(t->state_bytes) + al8(t->props_bytes) + SS_RTS_BYTES(1) + 1;
}

uint32_t place_layout_max_devices(void) { return 0xffffu; } /* 16-bit device indices */

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int place_image(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                const PlaceRoutes *r, uint32_t thread, const void *graph_props,
                uint32_t graph_props_bytes, uint32_t flags, PlaceFillFn fill, void *ctx,
                uint8_t **out, uint32_t *out_bytes) {
  return place_image_inv(g, m, p, r, thread, graph_props, graph_props_bytes, flags, fill, ctx, NULL, out,
                         out_bytes);
}

int place_image_inv(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                    const PlaceRoutes *r, uint32_t thread, const void *graph_props,
                    uint32_t graph_props_bytes, uint32_t flags, PlaceFillFn fill, void *ctx,
                    const PlaceImageInv *inv, uint8_t **out, uint32_t *out_bytes) {
  uint32_t ninv = inv ? inv->num_invocations : 0;
  *out = NULL, *out_bytes = 0;
  uint32_t d0 = p->thread_first[thread], nd = p->thread_first[thread + 1] - d0;
  uint32_t g0 = r->group_first[thread], ng = r->group_first[thread + 1] - g0;
  uint32_t r0 = r->group_recv_first[g0], nr = r->group_recv_first[g0 + ng] - r0;
  uint64_t npins = 0, nedges = 0, state = 0;
  for (uint32_t i = 0; i < nd; i++) {
    uint32_t dev = p->thread_dev[d0 + i];
    const PlaceType *t = &g->types[place_type_of(g, dev)];
    npins += (uint64_t)t->num_out_pins;
    nedges += r->send_first[r->out_first[dev + 1]] - r->send_first[r->out_first[dev]];
    state += al8(t->state_bytes) + al8(t->props_bytes);
  }
  /* each distinct label value once */
  uint32_t *labels = place_xalloc(nr, sizeof *labels), nl = 0;
  for (uint32_t i = 0; i < nr; i++)
    if (r->recvs[r0 + i].edge_bytes) labels[nl++] = r->recvs[r0 + i].label;
  qsort(labels, nl, sizeof *labels, cmp_u32);
  uint32_t nu = 0;
  for (uint32_t i = 0; i < nl; i++)
    if (i == 0 || labels[i] != labels[i - 1]) labels[nu++] = labels[i];

  ss_thread_image h = {0};
  uint64_t at = sizeof h;
  h.devices_off = (uint32_t)at, at += al8((uint64_t)nd * sizeof(ss_device));
  h.out_pins_off = (uint32_t)at, at += al8(npins * sizeof(ss_out_pin));
  h.out_edges_off = (uint32_t)at, at += al8(nedges * sizeof(ss_out_edge));
  h.in_groups_off = (uint32_t)at, at += al8((uint64_t)ng * sizeof(ss_in_group));
  h.in_edges_off = (uint32_t)at, at += al8((uint64_t)nr * sizeof(ss_in_edge));
  h.graph_props_off = graph_props_bytes ? (uint32_t)at : 0, at += al8(graph_props_bytes);
  h.inv_off = ninv ? (uint32_t)at : 0, at += al8((uint64_t)ninv * sizeof(ss_inv_node));
  h.tree_off = ninv ? (uint32_t)at : 0, at += al8(SS_TREE_BYTES(ninv));
  h.num_invocations = ninv;
  h.host_mbox = m->host_mbox;
  uint64_t state_at = at;
  at += state;
  uint64_t labels_at = at;
  at += al8((uint64_t)nu * 4);
  h.rts_off = (uint32_t)at, at += al8(SS_RTS_BYTES(nd));
  h.ready_off = (uint32_t)at, at += al8(SS_READY_BYTES(nd));
  uint64_t limit = (uint64_t)m->thread_bytes - SS_STACK_RESERVE;
  if (at > limit) {
    free(labels);
    return place_fail(g, "thread %u (address 0x%x): its image needs %llu bytes (%u devices, %llu "
                      "bytes of state, %llu out-edges, %u in-edges), over the %llu bytes of its DRAM "
                      "partition (%u) less the %u-byte stack reserve", thread,
                      place_thread_addr(m, thread), (unsigned long long)at, nd,
                      (unsigned long long)state, (unsigned long long)nedges, nr,
                      (unsigned long long)limit, m->thread_bytes, SS_STACK_RESERVE);
  }
  uint8_t *img = place_xalloc(at, 1);
  h.magic = SS_MAGIC, h.version = SS_VERSION, h.flags = flags;
  h.image_bytes = (uint32_t)at, h.num_devices = nd, h.num_in_groups = ng;
  memcpy(img, &h, sizeof h);
  if (graph_props_bytes) memcpy(img + h.graph_props_off, graph_props, graph_props_bytes);
  if (ninv) memcpy(img + h.inv_off, inv->inv, (size_t)ninv * sizeof(ss_inv_node));

  uint32_t pin_at = 0, edge_at = 0;
  uint64_t st = state_at;
  int rc = 0;
  for (uint32_t i = 0; i < nd && !rc; i++) {
    uint32_t dev = p->thread_dev[d0 + i];
    int ti = place_type_of(g, dev);
    const PlaceType *t = &g->types[ti];
    ss_device sd = {(uint16_t)t->image_index, 0, (uint32_t)st, 0, pin_at};
    uint8_t *state_p = img + st;
    st += al8(t->state_bytes);
    if (t->props_bytes) sd.props_off = (uint32_t)st;
    uint8_t *props_p = img + st;
    st += al8(t->props_bytes);
    if (fill) fill(ctx, ti, dev - t->first, state_p, props_p);
    memcpy(img + h.devices_off + (size_t)i * sizeof sd, &sd, sizeof sd);
    for (int op = 0; op < t->num_out_pins; op++) {
      uint32_t o = r->out_first[dev] + (uint32_t)op;
      uint32_t s0 = r->send_first[o], ns = r->send_first[o + 1] - s0;
      if (ns > 0xffff) {
        rc = place_fail(g, "type '%s' device %u pin %d: %u network destinations, over 65535",
                        t->name, dev - t->first, op, ns);
        break;
      }
      ss_out_pin sp = {(uint16_t)r->local_key[o], (uint16_t)ns, edge_at};
      memcpy(img + h.out_pins_off + (size_t)pin_at++ * sizeof sp, &sp, sizeof sp);
      for (uint32_t s = 0; s < ns; s++) {
        const PlaceSend *ps = &r->sends[s0 + s];
        ss_out_edge se = {ps->mbox, (uint32_t)(ps->mask >> 32), (uint32_t)ps->mask, ps->key, 0};
        if (ps->kind == PLACE_TO_KEY) se.mask_hi = 0, se.mask_lo = (uint32_t)ps->mask, se.key = 0;
        memcpy(img + h.out_edges_off + (size_t)edge_at++ * sizeof se, &se, sizeof se);
      }
    }
  }
  for (uint32_t k = 0; k < ng; k++) {
    ss_in_group gr = {r->group_recv_first[g0 + k] - r0, r->group_recv_first[g0 + k + 1] - r->group_recv_first[g0 + k]};
    memcpy(img + h.in_groups_off + (size_t)k * sizeof gr, &gr, sizeof gr);
  }
  for (uint32_t i = 0; i < nl && i < nu; i++) memcpy(img + labels_at + 4 * i, &labels[i], 4);
  for (uint32_t i = 0; i < nr; i++) {
    const PlaceRecv *rv = &r->recvs[r0 + i];
    ss_in_edge ie = {rv->local, rv->in_pin, 0, 0};
    if (rv->edge_bytes) {
      uint32_t *hit = bsearch(&rv->label, labels, nu, sizeof *labels, cmp_u32);
      ie.edge_props_off = (uint32_t)(labels_at + 4 * (uint64_t)(hit - labels));
    }
    memcpy(img + h.in_edges_off + (size_t)i * sizeof ie, &ie, sizeof ie);
  }
  free(labels);
  if (rc) {
    free(img);
    return rc;
  }
  *out = img, *out_bytes = (uint32_t)at;
  return 0;
}
