/*
 * images.c: the resident OP2 instance as softswitch thread images
 * (images.h). libop2_place does the work: every bound type is a device
 * type, every edge of every bound invocation's fanouts an edge, so METIS
 * places what talks together on one thread; routes give in-groups,
 * multicasts and routing keys; host/place/image.c lays out each thread.
 * This file adds what OP2 needs on top (image version 2): in-group key k
 * for invocation k's begin on every thread, the end pins marked
 * SS_END_PIN_KEY(k), and per invocation the tree of involved threads.
 */
#define _DEFAULT_SOURCE /* readlink */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "images.h"
#include "op2t_internal.h"
#include "softswitch.h"

int op2t_extra_slot(void) {
  static int v = -1;
  if (v < 0) {
    const char *e = getenv("OP2_TINSEL_EXTRA_SLOT");
    if (e && *e && strcmp(e, "0") != 0 && strcmp(e, "1") != 0)
      op2t_fatal("OP2_TINSEL_EXTRA_SLOT=%s: expected 1 (the default: the softswitch's hot state in the extra "
                 "send slot) or 0 (no extra send slot: a receive pool of 448 slots, the state in DRAM)", e);
    v = !(e && !strcmp(e, "0"));
  }
  return v;
}

typedef struct {
  PlaceGraph *g;
  PlacePlacement p;
  PlaceRoutes r;
  int ptype[256];        /* graph type -> place type, -1 */
  int gtype[256];        /* place type -> graph type */
  uint32_t first[256];   /* place type's first global device id */
  int nptypes;
  int group_of_dense[256]; /* place code group -> op2c group (-1: img_all) */
  const op2t_devs *devs;
  char err[256];         /* errors found here rather than by libop2_place */
} Priv;

/* 1 when firmware built against this runtime's tinsel_config.h (the
 * board's) addresses threads, the host and its DRAM partition as machine M
 * does: true of board, box and cluster, not of a tile. */
static int board_layout(const PlaceMachine *m) {
  return m->log_threads_per_board == TinselLogThreadsPerBoard && m->thread_bytes == TinselBytesPerDRAMPartition &&
         m->host_mbox == (uint32_t)(TinselHostId >> TinselLogThreadsPerMailbox) &&
         m->mailbox_routing_key == (uint32_t)TinselMailboxRoutingKey;
}

const char *op2t_group_elf(int g) {
  static char path[4096];
  char exe[4000];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n < 0)
    n = 0;
  exe[n] = 0;
  const char *name = g < 0 || g >= op2t_groups.ngroups ? op2t_groups.all_elf : op2t_groups.group_elf[g];
  const PlaceMachine *m = op2t_machine();
  if (board_layout(m))
    snprintf(path, sizeof(path), "%s.fw/%s", exe, name ? name : "img_all.elf");
  else
    snprintf(path, sizeof(path), "%s.fw/%s/%s", exe, m->name, name ? name : "img_all.elf");
  return path;
}

static int fail(char *err, size_t errlen, const char *what, const Priv *pv) {
  snprintf(err, errlen, "%s: %s", what, pv->err[0] ? pv->err : place_error(pv->g));
  return -1;
}

/* The fill callback of place_image: the device's state and props now. */
static void fill(void *ctx, int ptype, uint32_t index, void *state, void *props) {
  Priv *pv = ctx;
  const op2t_devs *d = &pv->devs[pv->gtype[ptype]];
  memcpy(state, d->state + (size_t)index * d->state_bytes, (size_t)d->state_bytes);
  memcpy(props, d->props + (size_t)index * d->props_bytes, (size_t)d->props_bytes);
}

/* One place pin per (source pin, destination type, input pin, labelled)
 * of a fanout (a read pin feeds every arg that reads the dat). */
static int add_fanout(Priv *pv, const op2t_fanout *f) {
  const op2t_devs *src = &pv->devs[f->type];
  int pins[64][4], npins = 0; /* {dst type, in pin, has_props, handle} */
  for (int d = 0; d < src->n; d++)
    for (int e = f->start[d]; e < f->start[d + 1]; e++) {
      const op2t_edge *ed = &f->edges[e];
      int k = 0;
      while (k < npins && !(pins[k][0] == ed->type && pins[k][1] == ed->pin && pins[k][2] == ed->has_props))
        k++;
      if (k == npins) {
        if (npins == 64) {
          snprintf(pv->err, sizeof(pv->err), "type %s pin %d: edges to more than 64 input pins",
                   op2t_graph_info.types[f->type].name, f->pin);
          return -1;
        }
        int h = place_add_pin(pv->g, pv->ptype[f->type], f->pin, pv->ptype[ed->type], ed->pin,
                              ss_dev_types[f->type].out_bytes[f->pin], ed->has_props ? 1 : 0);
        if (h < 0)
          return -1;
        pins[npins][0] = ed->type, pins[npins][1] = ed->pin, pins[npins][2] = ed->has_props;
        pins[npins++][3] = h;
      }
      if (place_add_edge(pv->g, pins[k][3], (uint32_t)d, (uint32_t)ed->dev, ed->slot) < 0)
        return -1;
    }
  return 0;
}

static const op2t_involved *involved(const op2t_invocation *inv, int type) {
  for (int j = 0; j < inv->ninvolved; j++)
    if (inv->involved[j].type == type)
      return &inv->involved[j];
  return NULL;
}

static int build_graph(Priv *pv, const op2t_bound_inv *bound, int nbound, int one_group) {
  const op2t_graph *gi = &op2t_graph_info;
  int groups = one_group || op2t_groups.ngroups == 0 ? 0 : op2t_groups.ngroups;
  int dense[256];
  for (int i = 0; i < 256; i++)
    dense[i] = -1;
  int ndense = 0;
  for (int t = 0; t < gi->ntypes; t++) {
    pv->ptype[t] = -1;
    if (pv->devs[t].n <= 0)
      continue;
    int grp = groups ? op2t_groups.type_group[t] : 0;
    if (dense[grp] < 0) {
      pv->group_of_dense[ndense] = groups ? grp : -1;
      dense[grp] = ndense++;
    }
    int pt = place_add_type(pv->g, gi->types[t].name, (uint32_t)pv->devs[t].n, (uint32_t)pv->devs[t].state_bytes,
                            (uint32_t)pv->devs[t].props_bytes, gi->types[t].num_out, dense[grp]);
    if (pt < 0 || place_set_image_index(pv->g, pt, t) < 0)
      return -1;
    pv->ptype[t] = pt;
    pv->gtype[pt] = t;
    pv->first[pt] = place_device(pv->g, pt, 0);
    pv->nptypes = pt + 1;
  }
  if (place_reserve_host_keys(pv->g, gi->ninvocations) < 0)
    return -1;
  for (int b = 0; b < nbound; b++) {
    const op2t_invocation *inv = gi->invocations[bound[b].k];
    for (int j = 0; j < inv->ninvolved; j++)
      if (place_add_host_key_pin_part(pv->g, bound[b].k, pv->ptype[inv->involved[j].type], inv->involved[j].begin_pin,
                                      bound[b].part ? bound[b].part[inv->involved[j].type] : NULL) < 0)
        return -1;
    for (int i = 0; i < bound[b].nfanouts; i++)
      if (add_fanout(pv, &bound[b].fanouts[i]) < 0)
        return -1;
  }
  return 0;
}

/* The tree of bound invocation B's threads (involved: holding a device
 * that takes part), its begin multicasts, and each node's ss_inv_node. */
static void build_tree(op2t_images *im, Priv *pv, const op2t_bound_inv *b, int fanin,
                       ss_inv_node *nodes /* [nthreads][ninv] */) {
  int k = b->k;
  const op2t_invocation *inv = op2t_graph_info.invocations[k];
  op2t_image_inv *iv = &im->inv[k];
  const PlaceMachine *m = &im->machine;
  iv->bound = 1;
  iv->begin_key = (uint16_t)k;
  iv->threads = op2t_calloc(im->nthreads + 1, sizeof(uint32_t));
  iv->begins = op2t_calloc(im->nthreads + 1, sizeof(op2t_image_dest));
  uint32_t *own = op2t_calloc(im->nthreads + 1, sizeof(uint32_t));
  for (uint32_t i = 0; i < im->nthreads; i++) {
    uint32_t th = im->threads[i].index;
    for (uint32_t d = pv->p.thread_first[th]; d < pv->p.thread_first[th + 1]; d++) {
      uint32_t dev = pv->p.thread_dev[d];
      int pt = pv->nptypes - 1;
      while (pv->first[pt] > dev)
        pt--;
      int t = pv->gtype[pt];
      own[i] += involved(inv, t) && (!b->part || b->part[t][dev - pv->first[pt]]);
    }
    if (!own[i])
      continue;
    iv->devices += own[i];
    iv->threads[iv->nthreads++] = i;
    uint32_t mbox = place_thread_mbox(m, th), bit = im->threads[i].addr % (uint32_t)m->threads_per_mbox;
    if (!iv->nbegins || iv->begins[iv->nbegins - 1].mbox != mbox)
      iv->begins[iv->nbegins++].mbox = mbox;
    op2t_image_dest *b = &iv->begins[iv->nbegins - 1];
    if (bit < 32)
      b->mask_lo |= 1u << bit;
    else
      b->mask_hi |= 1u << (bit - 32);
  }
  for (uint32_t n = 0; n < iv->nthreads; n++) {
    uint32_t i = iv->threads[n];
    ss_inv_node *node = &nodes[(size_t)i * im->ninv + k];
    node->own = (uint16_t)own[i];
    node->children = (uint16_t)ss_tree_children(n, iv->nthreads, (uint32_t)fanin);
    node->end_bytes = (uint16_t)inv->end_bytes; /* both <= SS_MAX_PAYLOAD (engine_hostlink.c) */
    node->begin_bytes = (uint16_t)inv->begin_bytes;
    node->up.key = SS_KEY_END;
    if (n == 0) {
      node->up.mbox = m->host_mbox;
      node->up.mask_lo = 1;
    } else {
      const op2t_image_thread *pt = &im->threads[iv->threads[ss_tree_parent(n, (uint32_t)fanin)]];
      uint32_t bit = pt->addr % (uint32_t)m->threads_per_mbox;
      node->up.mbox = place_thread_mbox(m, pt->index);
      node->up.mask_lo = bit < 32 ? 1u << bit : 0;
      node->up.mask_hi = bit < 32 ? 0 : 1u << (bit - 32);
    }
  }
  free(own);
}

/* Per bound invocation and board, the routing key that multicasts its begin
 * from that board's router to all its threads (images.h begin_rkey). */
static int begin_keys(op2t_images *im, Priv *pv, const op2t_bound_inv *bound, int nbound) {
  uint32_t *idx = op2t_calloc(im->nthreads + 1, sizeof(uint32_t));
  int rc = 0;
  for (int b = 0; b < nbound && !rc; b++) {
    op2t_image_inv *iv = &im->inv[bound[b].k];
    iv->begin_rkey = op2t_calloc((size_t)im->machine.nboards, sizeof(uint32_t));
    for (uint32_t i = 0; i < iv->nthreads; i++)
      idx[i] = im->threads[iv->threads[i]].index;
    for (int board = 0; board < im->machine.nboards && !rc; board++)
      rc = place_multicast_key(pv->g, &im->machine, &pv->r, board, idx, iv->nthreads, iv->begin_key,
                               &iv->begin_rkey[board]);
  }
  free(idx);
  return rc;
}

/* Marks the end pins of every device of thread i in its image, and records
 * where each device lives. */
static void finish_image(op2t_images *im, Priv *pv, uint32_t i, const op2t_bound_inv *bound, int nbound) {
  op2t_image_thread *th = &im->threads[i];
  ss_thread_image h;
  memcpy(&h, th->image, sizeof(h));
  uint32_t d0 = pv->p.thread_first[th->index];
  for (uint32_t l = 0; l < h.num_devices; l++) {
    ss_device sd;
    memcpy(&sd, th->image + h.devices_off + (size_t)l * sizeof(sd), sizeof(sd));
    int t = sd.type;
    uint32_t elem = pv->p.thread_dev[d0 + l] - pv->first[pv->ptype[t]];
    im->dev[t][elem] = (op2t_image_dev){i, sd.state_off, sd.props_off};
    for (int b = 0; b < nbound; b++) {
      const op2t_involved *iv = involved(op2t_graph_info.invocations[bound[b].k], t);
      if (!iv)
        continue;
      ss_out_pin op;
      size_t at = h.out_pins_off + (size_t)(sd.out_pin_base + (uint32_t)iv->end_pin) * sizeof(op);
      memcpy(&op, th->image + at, sizeof(op));
      op.local_key = SS_END_PIN_KEY(bound[b].k);
      op.num_edges = 0;
      memcpy(th->image + at, &op, sizeof(op));
    }
  }
}

op2t_images *op2t_images_build(const op2t_devs *devs, const op2t_bound_inv *bound, int nbound,
                               const void *graph_props, const op2t_images_options *opt, char *err,
                               size_t errlen) {
  const op2t_graph *gi = &op2t_graph_info;
  if (gi->ntypes > 255) {
    snprintf(err, errlen, "%d device types: the images take at most 255", gi->ntypes);
    return NULL;
  }
  if ((uint32_t)gi->ninvocations > SS_MAX_INVOCATIONS) {
    snprintf(err, errlen, "%d invocations (op_par_loops): the softswitch takes at most %u", gi->ninvocations,
             SS_MAX_INVOCATIONS);
    return NULL;
  }
  op2t_images *im = op2t_calloc(1, sizeof(*im));
  Priv *pv = op2t_calloc(1, sizeof(*pv));
  im->priv = pv;
  pv->devs = devs;
  const char *cfg = opt && opt->config ? opt->config : OP2T_DEFAULT_CONFIG;
  int fanin = opt && opt->fanin > 0 ? opt->fanin : OP2T_DEFAULT_FANIN;
  if (op2t_machine_load(&im->machine, cfg, err, errlen) != 0) {
    op2t_images_free(im);
    return NULL;
  }
  pv->g = place_graph_new();
  PlaceOptions po = {.seed = opt ? opt->seed : 1};
  if (build_graph(pv, bound, nbound, opt && opt->one_group) < 0 || place_run(pv->g, &im->machine, &po, &pv->p) != 0) {
    fail(err, errlen, "placing the OP2 instance", pv);
    op2t_images_free(im);
    return NULL;
  }
  if (place_route(pv->g, &im->machine, &pv->p, &pv->r) != 0) {
    fail(err, errlen, "routing the OP2 instance", pv);
    op2t_images_free(im);
    return NULL;
  }
  const PlaceMachine *m = &im->machine;
  im->threads = op2t_calloc(pv->p.nthreads + 1, sizeof(op2t_image_thread));
  for (uint32_t th = 0; th < pv->p.nthreads; th++) {
    if (pv->p.thread_first[th + 1] == pv->p.thread_first[th])
      continue;
    op2t_image_thread *t = &im->threads[im->nthreads++];
    t->index = th;
    t->addr = place_thread_addr(m, th);
    t->board = place_thread_board(m, th);
    t->unit = place_thread_unit(m, th);
    /* tinselHeapBaseGeneric in the machine's own layout (a tile's DRAM
     * has fewer, larger partitions than a board's). */
    uint32_t per_dram = (uint32_t)(m->threads_per_board / m->drams_per_board), part = t->addr & (per_dram - 1);
    t->load_addr = TinselDRAMInterleavedBase + (per_dram - 1 - part) * m->thread_bytes;
  }
  im->ninv = gi->ninvocations;
  im->inv = op2t_calloc((size_t)im->ninv + 1, sizeof(op2t_image_inv));
  ss_inv_node *nodes = op2t_calloc((size_t)im->nthreads * (size_t)im->ninv + 1, sizeof(ss_inv_node));
  for (int b = 0; b < nbound; b++)
    build_tree(im, pv, &bound[b], fanin, nodes);
  if (begin_keys(im, pv, bound, nbound) != 0) {
    fail(err, errlen, "routing keys for the begins", pv);
    free(nodes);
    op2t_images_free(im);
    return NULL;
  }
  im->dev = op2t_calloc((size_t)gi->ntypes, sizeof(op2t_image_dev *));
  for (int t = 0; t < gi->ntypes; t++)
    if (devs[t].n > 0)
      im->dev[t] = op2t_calloc((size_t)devs[t].n, sizeof(op2t_image_dev));
  for (uint32_t i = 0; i < im->nthreads; i++) {
    op2t_image_thread *t = &im->threads[i];
    PlaceImageInv pi = {(uint32_t)im->ninv, nodes + (size_t)i * im->ninv, m->host_mbox};
    uint32_t flags = SS_FLAG_HOST_DRIVEN | (op2t_extra_slot() ? SS_FLAG_EXTRA_SLOT : 0u);
    if (place_image_inv(pv->g, m, &pv->p, &pv->r, t->index, graph_props, (uint32_t)gi->props_bytes, flags, fill,
                        pv, &pi, &t->image, &t->bytes) != 0) {
      fail(err, errlen, "thread images", pv);
      free(nodes);
      op2t_images_free(im);
      return NULL;
    }
    finish_image(im, pv, i, bound, nbound);
  }
  free(nodes);
  im->nunits = (int)pv->p.nunits;
  im->code_group = op2t_calloc((size_t)im->nunits + 1, sizeof(int));
  for (int u = 0; u < im->nunits; u++) // -2: unused; -1: the all-types image
    im->code_group[u] = pv->p.unit_group[u] < 0 ? -2 : pv->group_of_dense[pv->p.unit_group[u]];
  im->tables = op2t_calloc((size_t)pv->r.nboards * 4 + 1, sizeof(op2t_image_table));
  for (uint32_t b = 0; b < pv->r.nboards; b++)
    for (int ram = 0; ram < 4; ram++)
      if (pv->r.boards[b].len[ram])
        im->tables[im->ntables++] = (op2t_image_table){(int)b, ram, m->router_base, pv->r.boards[b].bytes[ram],
                                                       pv->r.boards[b].len[ram]};
  return im;
}

void op2t_images_free(op2t_images *im) {
  if (!im)
    return;
  Priv *pv = im->priv;
  for (uint32_t i = 0; i < im->nthreads; i++)
    free(im->threads[i].image);
  free(im->threads);
  for (int k = 0; k < im->ninv; k++) {
    free(im->inv[k].threads);
    free(im->inv[k].begins);
    free(im->inv[k].begin_rkey);
  }
  free(im->inv);
  for (int t = 0; im->dev && t < op2t_graph_info.ntypes; t++)
    free(im->dev[t]);
  free(im->dev);
  free(im->code_group);
  free(im->tables);
  if (pv) {
    place_routes_free(&pv->r);
    place_placement_free(&pv->p);
    place_graph_free(pv->g);
    free(pv);
  }
  free(im);
}

uint32_t op2t_images_state_addr(const op2t_images *im, int type, int elem, uint32_t *thread) {
  const op2t_image_dev *d = &im->dev[type][elem];
  if (thread)
    *thread = d->thread;
  return im->threads[d->thread].load_addr + d->state_off;
}

void op2t_images_put_states(op2t_images *im, const op2t_devs *devs) {
  for (int t = 0; t < op2t_graph_info.ntypes; t++)
    for (int e = 0; im->dev[t] && e < devs[t].n; e++) {
      const op2t_image_dev *d = &im->dev[t][e];
      memcpy(im->threads[d->thread].image + d->state_off, devs[t].state + (size_t)e * devs[t].state_bytes,
             (size_t)devs[t].state_bytes);
    }
}

void op2t_images_get_states(const op2t_images *im, op2t_devs *devs) {
  for (int t = 0; t < op2t_graph_info.ntypes; t++)
    for (int e = 0; im->dev[t] && e < devs[t].n; e++) {
      const op2t_image_dev *d = &im->dev[t][e];
      memcpy(devs[t].state + (size_t)e * devs[t].state_bytes, im->threads[d->thread].image + d->state_off,
             (size_t)devs[t].state_bytes);
    }
}

long op2t_images_put_props(op2t_images *im, const op2t_devs *devs) {
  long changed = 0;
  for (int t = 0; t < op2t_graph_info.ntypes; t++)
    for (int e = 0; im->dev[t] && e < devs[t].n; e++) {
      const op2t_image_dev *d = &im->dev[t][e];
      const char *want = devs[t].props + (size_t)e * devs[t].props_bytes;
      uint8_t *have = im->threads[d->thread].image + d->props_off;
      if (!d->props_off || !memcmp(have, want, (size_t)devs[t].props_bytes))
        continue;
      memcpy(have, want, (size_t)devs[t].props_bytes);
      changed++;
    }
  return changed;
}

int op2t_images_route(const op2t_images *im, int board, uint32_t key, PlaceDeliverFn fn, void *ctx) {
  const Priv *pv = im->priv;
  return place_router_follow(&im->machine, &pv->r, board, key, fn, ctx);
}
