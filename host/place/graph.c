/* graph.c: building a graph instance: types, dats, pins, edges, host pins;
 * and the per-pin CSR and device adjacency that placement and routing use. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

void *place_xalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    fprintf(stderr, "libop2_place: out of memory (%zu x %zu bytes)\n", n, size);
    exit(1);
  }
  return p;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(place_xalloc(n, 1), s, n);
}

int place_fail(PlaceGraph *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g->err, sizeof g->err, fmt, ap);
  va_end(ap);
  return -1;
}

const char *place_error(const PlaceGraph *g) { return g->err; }

PlaceGraph *place_graph_new(void) { return place_xalloc(1, sizeof(PlaceGraph)); }

void place_graph_free(PlaceGraph *g) {
  if (!g) return;
  for (int t = 0; t < g->ntypes; t++) free(g->types[t].name);
  for (int p = 0; p < g->npins; p++) {
    PlacePin *pin = &g->pins[p];
    free(pin->src), free(pin->dst), free(pin->label), free(pin->first);
  }
  for (int d = 0; d < g->ndats; d++) free(g->dats[d].name);
  for (int h = 0; h < g->nhost_in; h++) free(g->host_in[h].part);
  free(g->pins), free(g->dats), free(g->adj_first), free(g->adj);
  free(g);
}

static int frozen(PlaceGraph *g) {
  return g->finished ? place_fail(g, "the graph is already placed; add everything before place_run") : 0;
}

int place_add_type(PlaceGraph *g, const char *name, uint32_t count, uint32_t state_bytes,
                   uint32_t props_bytes, int num_out_pins, int group) {
  if (frozen(g)) return -1;
  if (g->ntypes == PLACE_MAX_TYPES)
    return place_fail(g, "type '%s': more than %d device types", name, PLACE_MAX_TYPES);
  if (num_out_pins < 0 || num_out_pins > 32)
    return place_fail(g, "type '%s': %d output pins; the softswitch allows 0 to 32", name, num_out_pins);
  if (group < 0)
    return place_fail(g, "type '%s': code group %d must not be negative", name, group);
  if ((uint64_t)g->ndevices + count > 0xffffffffu)
    return place_fail(g, "type '%s': %u more devices overflow the 32-bit device ids", name, count);
  PlaceType *t = &g->types[g->ntypes];
  t->name = dup_str(name);
  t->count = count;
  t->first = g->ndevices;
  t->state_bytes = state_bytes;
  t->props_bytes = props_bytes;
  t->num_out_pins = num_out_pins;
  t->group = group;
  t->image_index = 0;
  for (int u = 0; u < g->ntypes; u++) t->image_index += g->types[u].group == group;
  if (group + 1 > g->ngroups) g->ngroups = group + 1;
  g->ndevices += count;
  return g->ntypes++;
}

uint32_t place_device(const PlaceGraph *g, int type, uint32_t index) {
  return g->types[type].first + index;
}

uint32_t place_num_devices(const PlaceGraph *g) { return g->ndevices; }
int place_num_types(const PlaceGraph *g) { return g->ntypes; }

int place_type_of(const PlaceGraph *g, uint32_t device) {
  int lo = 0, hi = g->ntypes - 1;
  while (lo < hi) { /* last type whose first <= device */
    int mid = (lo + hi + 1) / 2;
    if (g->types[mid].first <= device) lo = mid; else hi = mid - 1;
  }
  return lo;
}

static int bad_type(PlaceGraph *g, int type, const char *what) {
  return type < 0 || type >= g->ntypes ? place_fail(g, "%s: no device type %d", what, type) : 0;
}

int place_add_dat(PlaceGraph *g, int type, const char *name, uint32_t elem_bytes) {
  if (frozen(g) || bad_type(g, type, name)) return -1;
  g->dats = realloc(g->dats, (size_t)(g->ndats + 1) * sizeof *g->dats);
  if (!g->dats) return place_fail(g, "out of memory");
  g->dats[g->ndats++] = (PlaceDat){dup_str(name), type, elem_bytes};
  return 0;
}

int place_add_pin(PlaceGraph *g, int src_type, int out_pin, int dst_type, int in_pin,
                  uint32_t msg_bytes, uint32_t edge_bytes) {
  if (frozen(g) || bad_type(g, src_type, "pin") || bad_type(g, dst_type, "pin")) return -1;
  const PlaceType *t = &g->types[src_type];
  if (out_pin < 0 || out_pin >= t->num_out_pins)
    return place_fail(g, "type '%s': output pin %d, but the type has %d", t->name, out_pin, t->num_out_pins);
  if (in_pin < 0 || in_pin > 255)
    return place_fail(g, "type '%s': input pin %d outside 0..255", g->types[dst_type].name, in_pin);
  if (edge_bytes != 0 && edge_bytes != 1 && edge_bytes != 2 && edge_bytes != 4)
    return place_fail(g, "type '%s' pin %d: edge properties of %u bytes; 0, 1, 2 or 4 allowed",
                      t->name, out_pin, edge_bytes);
  if (g->npins == PLACE_MAX_PINS) return place_fail(g, "more than %d pins", PLACE_MAX_PINS);
  g->pins = realloc(g->pins, (size_t)(g->npins + 1) * sizeof *g->pins);
  if (!g->pins) return place_fail(g, "out of memory");
  g->pins[g->npins] = (PlacePin){.src_type = src_type, .out_pin = out_pin, .dst_type = dst_type,
                                 .in_pin = in_pin, .msg_bytes = msg_bytes, .edge_bytes = edge_bytes};
  return g->npins++;
}

int place_add_edge(PlaceGraph *g, int pin, uint32_t src, uint32_t dst, uint32_t label) {
  if (frozen(g)) return -1;
  if (pin < 0 || pin >= g->npins) return place_fail(g, "no pin %d", pin);
  PlacePin *p = &g->pins[pin];
  const PlaceType *s = &g->types[p->src_type], *d = &g->types[p->dst_type];
  if (src >= s->count || dst >= d->count)
    return place_fail(g, "edge %s[%u] -> %s[%u]: index outside 0..%u or 0..%u", s->name, src,
                      d->name, dst, s->count - 1, d->count - 1);
  if (p->edge_bytes < 4 && label >> (8 * p->edge_bytes))
    return place_fail(g, "edge %s[%u] -> %s[%u]: label %u does not fit %u bytes of edge properties",
                      s->name, src, d->name, dst, label, p->edge_bytes);
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->src = realloc(p->src, p->cap * sizeof *p->src);
    p->dst = realloc(p->dst, p->cap * sizeof *p->dst);
    p->label = realloc(p->label, p->cap * sizeof *p->label);
    if (!p->src || !p->dst || !p->label) return place_fail(g, "out of memory for %zu edges", p->cap);
  }
  p->src[p->n] = src, p->dst[p->n] = dst, p->label[p->n] = label;
  p->n++;
  return 0;
}

int place_add_map_edges(PlaceGraph *g, const char *map_name, int from_type, int to_type,
                        int arity, const int *values, int fwd_pin, int rev_pin) {
  if (frozen(g) || bad_type(g, from_type, map_name) || bad_type(g, to_type, map_name)) return -1;
  const PlaceType *f = &g->types[from_type], *t = &g->types[to_type];
  for (uint32_t e = 0; e < f->count; e++)
    for (int k = 0; k < arity; k++) {
      int v = values[(size_t)e * arity + k];
      if (v < 0 || (uint32_t)v >= t->count)
        return place_fail(g, "map '%s': entry %u.%d is %d, outside set '%s' (0..%u)", map_name, e,
                          k, v, t->name, t->count - 1);
      if (fwd_pin >= 0 && place_add_edge(g, fwd_pin, e, (uint32_t)v, (uint32_t)k)) return -1;
      if (rev_pin >= 0 && place_add_edge(g, rev_pin, (uint32_t)v, e, (uint32_t)k)) return -1;
    }
  return 0;
}

int place_add_host_in_pin(PlaceGraph *g, int type, int in_pin) {
  if (frozen(g) || bad_type(g, type, "host pin")) return -1;
  if (g->nhost_in == PLACE_MAX_PINS) return place_fail(g, "more than %d host pins", PLACE_MAX_PINS);
  g->host_in[g->nhost_in++] = (PlaceHostPin){type, in_pin, g->nhost_keys, NULL};
  return g->nhost_keys++; /* keys 0..nhost_keys-1 are the host's on every thread */
}

int place_reserve_host_keys(PlaceGraph *g, int n) {
  if (frozen(g)) return -1;
  if (n < 0 || n > PLACE_MAX_PINS) return place_fail(g, "%d host keys: at most %d", n, PLACE_MAX_PINS);
  if (n > g->nhost_keys) g->nhost_keys = n;
  return 0;
}

int place_add_host_key_pin_part(PlaceGraph *g, int key, int type, int in_pin, const uint8_t *part) {
  if (frozen(g) || bad_type(g, type, "host pin")) return -1;
  if (key < 0 || key >= g->nhost_keys)
    return place_fail(g, "host key %d: only keys 0..%d are reserved", key, g->nhost_keys - 1);
  if (g->nhost_in == PLACE_MAX_PINS) return place_fail(g, "more than %d host pins", PLACE_MAX_PINS);
  uint8_t *copy = NULL;
  if (part) {
    copy = place_xalloc((size_t)g->types[type].count + 1, 1);
    memcpy(copy, part, g->types[type].count);
  }
  g->host_in[g->nhost_in++] = (PlaceHostPin){type, in_pin, key, copy};
  return 0;
}

int place_add_host_key_pin(PlaceGraph *g, int key, int type, int in_pin) {
  return place_add_host_key_pin_part(g, key, type, in_pin, NULL);
}

int place_set_image_index(PlaceGraph *g, int type, int index) {
  if (frozen(g) || bad_type(g, type, "image index")) return -1;
  if (index < 0 || index > 0xffff) return place_fail(g, "image index %d: expected 0..65535", index);
  g->types[type].image_index = index;
  return 0;
}

int place_add_host_out_pin(PlaceGraph *g, int type, int out_pin) {
  if (frozen(g) || bad_type(g, type, "host pin")) return -1;
  PlaceType *t = &g->types[type];
  if (out_pin < 0 || out_pin >= t->num_out_pins)
    return place_fail(g, "type '%s': host output pin %d, but the type has %d", t->name, out_pin,
                      t->num_out_pins);
  t->host_out_mask |= 1u << out_pin;
  return 0;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Sorts each pin's edges by source into CSR (a counting sort keeps the
 * order edges were added within one source), then builds the undirected
 * device adjacency without duplicates. */
int place_finish_edges(PlaceGraph *g) {
  if (g->finished) return 0;
  g->finished = 1;
  uint64_t total = 0;
  for (int pi = 0; pi < g->npins; pi++) {
    PlacePin *p = &g->pins[pi];
    uint32_t n = g->types[p->src_type].count;
    p->first = place_xalloc((size_t)n + 1, sizeof *p->first);
    for (size_t e = 0; e < p->n; e++) p->first[p->src[e] + 1]++;
    for (uint32_t i = 0; i < n; i++) p->first[i + 1] += p->first[i];
    uint32_t *pos = place_xalloc((size_t)n + 1, sizeof *pos);
    memcpy(pos, p->first, ((size_t)n + 1) * sizeof *pos);
    uint32_t *dst = place_xalloc(p->n, sizeof *dst), *lab = place_xalloc(p->n, sizeof *lab);
    for (size_t e = 0; e < p->n; e++) {
      uint32_t at = pos[p->src[e]]++;
      dst[at] = p->dst[e], lab[at] = p->label[e];
    }
    free(pos), free(p->dst), free(p->label), free(p->src);
    p->src = NULL, p->dst = dst, p->label = lab;
    total += p->n;
  }
  /* adjacency: both directions of every edge, then sort and unique per device */
  uint32_t nd = g->ndevices;
  uint32_t *deg = place_xalloc((size_t)nd + 1, sizeof *deg);
  for (int pi = 0; pi < g->npins; pi++) {
    PlacePin *p = &g->pins[pi];
    const PlaceType *s = &g->types[p->src_type], *d = &g->types[p->dst_type];
    for (uint32_t i = 0; i < s->count; i++)
      for (uint32_t e = p->first[i]; e < p->first[i + 1]; e++) {
        deg[s->first + i + 1]++;
        deg[d->first + p->dst[e] + 1]++;
      }
  }
  for (uint32_t v = 0; v < nd; v++) deg[v + 1] += deg[v];
  if (deg[nd] != 2 * total && total) { /* cannot happen; guards the arithmetic */
    free(deg);
    return place_fail(g, "internal error: adjacency count");
  }
  uint32_t *adj = place_xalloc(deg[nd], sizeof *adj);
  uint32_t *pos = place_xalloc((size_t)nd + 1, sizeof *pos);
  memcpy(pos, deg, ((size_t)nd + 1) * sizeof *pos);
  for (int pi = 0; pi < g->npins; pi++) {
    PlacePin *p = &g->pins[pi];
    const PlaceType *s = &g->types[p->src_type], *d = &g->types[p->dst_type];
    for (uint32_t i = 0; i < s->count; i++)
      for (uint32_t e = p->first[i]; e < p->first[i + 1]; e++) {
        uint32_t a = s->first + i, b = d->first + p->dst[e];
        adj[pos[a]++] = b;
        adj[pos[b]++] = a;
      }
  }
  free(pos);
  /* unique, dropping self loops; compact in place */
  uint32_t out = 0;
  for (uint32_t v = 0; v < nd; v++) {
    uint32_t lo = deg[v], hi = deg[v + 1];
    if (hi - lo > 32) qsort(adj + lo, hi - lo, sizeof *adj, cmp_u32);
    else /* insertion sort: mesh degrees are small */
    for (uint32_t i = lo + 1; i < hi; i++) {
      uint32_t x = adj[i], j = i;
      while (j > lo && adj[j - 1] > x) adj[j] = adj[j - 1], j--;
      adj[j] = x;
    }
    deg[v] = out;
    for (uint32_t i = lo; i < hi; i++)
      if (adj[i] != v && (i == lo || adj[i] != adj[i - 1])) adj[out++] = adj[i];
  }
  deg[nd] = out;
  g->adj_first = deg;
  g->adj = realloc(adj, (size_t)(out ? out : 1) * sizeof *adj);
  if (!g->adj) g->adj = adj;
  return 0;
}
