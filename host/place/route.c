/* route.c: where each (device, output pin)'s messages go.
 *
 * Destinations are grouped by thread, then by mailbox: receivers on the
 * sender's own thread share one in-group key and are delivered without the
 * network; each other mailbox on the sender's board gets one hardware
 * multicast (a thread mask and a key free in every receiving thread, as
 * POLite's findKey); the mailboxes of other boards get MRM records reached
 * through one routing key (progrouter.c). Keys 0..H-1 of every thread are
 * the host's input pins, so the host can multicast one begin per mailbox. */
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

typedef struct {
  uint16_t key;
  PlaceRecv r;
} Entry;

typedef struct {
  uint64_t *used;   /* bitmap of keys */
  uint32_t nwords, nkeys;
  Entry *e;
  uint32_t n, cap;
} ThreadTab;

typedef struct {
  uint32_t thread;
  PlaceRecv r;
} Dest;

static int cmp_dest(const void *a, const void *b) {
  const Dest *p = a, *q = b;
  if (p->thread != q->thread) return p->thread < q->thread ? -1 : 1;
  if (p->r.local != q->r.local) return p->r.local < q->r.local ? -1 : 1;
  if (p->r.in_pin != q->r.in_pin) return p->r.in_pin < q->r.in_pin ? -1 : 1;
  return p->r.label < q->r.label ? -1 : p->r.label > q->r.label;
}

static void add_entry(ThreadTab *t, uint16_t key, PlaceRecv r) {
  if (t->n == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->e = realloc(t->e, t->cap * sizeof *t->e);
    if (!t->e) place_xalloc((size_t)1 << 62, 1); /* reports out of memory and exits */
  }
  t->e[t->n++] = (Entry){key, r};
}

static void mark(ThreadTab *t, uint32_t key) {
  uint32_t w = key / 64;
  if (w >= t->nwords) {
    uint32_t n = t->nwords ? t->nwords : 1;
    while (n <= w) n *= 2;
    t->used = realloc(t->used, n * sizeof *t->used);
    if (!t->used) place_xalloc((size_t)1 << 62, 1);
    memset(t->used + t->nwords, 0, (n - t->nwords) * sizeof *t->used);
    t->nwords = n;
  }
  t->used[w] |= 1ull << (key % 64);
}

/* The smallest key free in every thread of D[0..n) (a run of one mailbox). */
static int free_key(PlaceGraph *g, ThreadTab *tabs, const Dest *d, size_t n, uint16_t *key) {
  for (uint32_t w = 0;; w++) {
    uint64_t busy = 0;
    for (size_t i = 0; i < n; i++) {
      ThreadTab *t = &tabs[d[i].thread];
      if (w < t->nwords) busy |= t->used[w];
    }
    if (busy != ~0ull) {
      uint32_t k = w * 64 + (uint32_t)__builtin_ctzll(~busy);
      if (k >= PLACE_MAX_KEYS)
        return place_fail(g, "thread %u: more than %u in-groups (16-bit keys)", d[0].thread, PLACE_MAX_KEYS);
      *key = (uint16_t)k;
      return 0;
    }
  }
}

/* Gives the receivers D[0..n) (sorted by thread) one key and records them. */
static int deliver(PlaceGraph *g, ThreadTab *tabs, const Dest *d, size_t n, uint16_t *key) {
  if (free_key(g, tabs, d, n, key)) return -1;
  for (size_t i = 0; i < n; i++) {
    if (i == 0 || d[i].thread != d[i - 1].thread) mark(&tabs[d[i].thread], *key);
    add_entry(&tabs[d[i].thread], *key, d[i].r);
  }
  return 0;
}

static int add_send(PlaceGraph *g, PlaceRoutes *r, size_t *cap, PlaceSend s) {
  size_t n = r->send_first[r->nout + 1];
  if (n == *cap) {
    *cap = *cap ? 2 * *cap : 1024;
    r->sends = realloc(r->sends, *cap * sizeof *r->sends);
    if (!r->sends) return place_fail(g, "out of memory for %zu sends", *cap);
  }
  r->sends[n] = s;
  r->send_first[r->nout + 1]++;
  return 0;
}

/* Keys in use: every receiver's key and every reserved host key is marked. */
static uint32_t key_count(const ThreadTab *t) {
  uint32_t keys = 0;
  for (uint32_t w = 0; w < t->nwords; w++)
    if (t->used[w]) keys = w * 64 + 64 - (uint32_t)__builtin_clzll(t->used[w]);
  return keys;
}

/* Per-thread tables into the CSR of PlaceRoutes, receivers ordered by key. */
static void finish_tables(PlaceRoutes *r, ThreadTab *tabs) {
  uint64_t ngroups = 0, nrecv = 0;
  for (uint32_t t = 0; t < r->nthreads; t++) {
    tabs[t].nkeys = key_count(&tabs[t]);
    ngroups += tabs[t].nkeys;
    nrecv += tabs[t].n;
  }
  r->group_first = place_xalloc((size_t)r->nthreads + 1, sizeof *r->group_first);
  r->group_recv_first = place_xalloc(ngroups + 1, sizeof *r->group_recv_first);
  r->recvs = place_xalloc(nrecv, sizeof *r->recvs);
  uint32_t gbase = 0, rbase = 0;
  for (uint32_t t = 0; t < r->nthreads; t++) {
    ThreadTab *tt = &tabs[t];
    uint32_t keys = tt->nkeys;
    r->group_first[t] = gbase;
    uint32_t *cnt = r->group_recv_first + gbase; /* counting sort by key */
    for (uint32_t i = 0; i < tt->n; i++) cnt[tt->e[i].key + 1]++;
    cnt[0] = rbase;
    for (uint32_t k = 0; k < keys; k++) cnt[k + 1] += cnt[k];
    uint32_t *pos = place_xalloc((size_t)keys + 1, sizeof *pos);
    memcpy(pos, cnt, ((size_t)keys + 1) * sizeof *pos);
    for (uint32_t i = 0; i < tt->n; i++) r->recvs[pos[tt->e[i].key]++] = tt->e[i].r;
    free(pos);
    gbase += keys;
    rbase += tt->n;
    free(tt->e), free(tt->used);
  }
  r->group_first[r->nthreads] = gbase;
  r->group_recv_first[gbase] = rbase;
}

int place_route(PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p, PlaceRoutes *r) {
  memset(r, 0, sizeof *r);
  r->nthreads = p->nthreads;
  r->nboards = (uint32_t)m->nboards;
  r->boards = place_xalloc((size_t)m->nboards, sizeof *r->boards);
  ThreadTab *tabs = place_xalloc(p->nthreads, sizeof *tabs);
  /* host keys first: the same numbers on every thread, even where no device takes them */
  for (uint32_t t = 0; t < p->nthreads; t++) {
    for (int h = 0; h < g->nhost_keys; h++) mark(&tabs[t], (uint32_t)h);
    for (int h = 0; h < g->nhost_in; h++) {
      for (uint32_t i = p->thread_first[t]; i < p->thread_first[t + 1]; i++)
        if (place_type_of(g, p->thread_dev[i]) == g->host_in[h].type &&
            (!g->host_in[h].part || g->host_in[h].part[p->thread_dev[i] - g->types[g->host_in[h].type].first]))
          add_entry(&tabs[t], (uint16_t)g->host_in[h].key,
                    (PlaceRecv){(uint16_t)(i - p->thread_first[t]), (uint8_t)g->host_in[h].in_pin, 0, 0});
    }
  }
  uint64_t nout = 0;
  for (int t = 0; t < g->ntypes; t++) nout += (uint64_t)g->types[t].count * g->types[t].num_out_pins;
  r->out_first = place_xalloc((size_t)g->ndevices + 1, sizeof *r->out_first);
  r->local_key = place_xalloc(nout, sizeof *r->local_key);
  r->send_first = place_xalloc(nout + 1, sizeof *r->send_first);
  size_t send_cap = 0, dcap = 64;
  Dest *d = place_xalloc(dcap, sizeof *d);
  PlaceRemote *rem = place_xalloc(dcap, sizeof *rem);
  int rc = 0;
  for (int ti = 0; ti < g->ntypes && !rc; ti++) {
    const PlaceType *ty = &g->types[ti];
    for (uint32_t i = 0; i < ty->count && !rc; i++) {
      uint32_t dev = ty->first + i, src = p->thread[dev];
      int src_board = place_thread_board(m, src);
      r->out_first[dev] = r->nout;
      for (int op = 0; op < ty->num_out_pins && !rc; op++) {
        /* every edge of this output pin, whatever pin record declared it */
        size_t nd = 0;
        for (int pi = 0; pi < g->npins; pi++) {
          const PlacePin *pin = &g->pins[pi];
          if (pin->src_type != ti || pin->out_pin != op) continue;
          const PlaceType *dt = &g->types[pin->dst_type];
          for (uint32_t e = pin->first[i]; e < pin->first[i + 1]; e++) {
            if (nd == dcap) {
              dcap *= 2;
              d = realloc(d, dcap * sizeof *d), rem = realloc(rem, dcap * sizeof *rem);
              if (!d || !rem) return place_fail(g, "out of memory for %zu destinations", dcap);
            }
            uint32_t to = dt->first + pin->dst[e];
            d[nd++] = (Dest){p->thread[to], {(uint16_t)p->local[to], (uint8_t)pin->in_pin,
                                             (uint8_t)pin->edge_bytes, pin->label[e]}};
          }
        }
        qsort(d, nd, sizeof *d, cmp_dest);
        uint32_t o = r->nout;
        r->send_first[o + 1] = r->send_first[o];
        r->local_key[o] = PLACE_NO_KEY;
        size_t nrem = 0;
        for (size_t a = 0; a < nd && !rc;) {
          uint32_t mb = place_thread_mbox(m, d[a].thread);
          size_t b = a;
          uint64_t mask = 0;
          if (d[a].thread == src) { /* thread-local: no network */
            while (b < nd && d[b].thread == src) b++;
            uint16_t key;
            rc = deliver(g, tabs, d + a, b - a, &key);
            r->local_key[o] = key;
            r->local_sends++;
            a = b;
            continue;
          }
          while (b < nd && d[b].thread != src && place_thread_mbox(m, d[b].thread) == mb) {
            mask |= 1ull << (d[b].thread % (uint32_t)m->threads_per_mbox);
            b++;
          }
          uint16_t key;
          rc = deliver(g, tabs, d + a, b - a, &key);
          int board = place_thread_board(m, d[a].thread);
          if (rc) break;
          if (board == src_board) {
            rc = add_send(g, r, &send_cap, (PlaceSend){PLACE_TO_MAILBOX, key, mb, mask});
            r->mailbox_sends++;
          } else {
            int in_board = (int)(d[a].thread % (uint32_t)m->threads_per_board) / m->threads_per_mbox;
            int mx = in_board % m->mbox_x, my = in_board / m->mbox_x;
            rem[nrem++] = (PlaceRemote){(my << m->mbox_x_bits) | mx, mask, key, board};
          }
          a = b;
        }
        if (!rc && nrem) {
          uint32_t rkey;
          rc = place_route_remote(g, m, r, src_board, rem, nrem, &rkey);
          if (!rc) rc = add_send(g, r, &send_cap, (PlaceSend){PLACE_TO_KEY, 0, m->mailbox_routing_key, rkey});
          r->key_sends++;
        }
        if (!rc && (ty->host_out_mask >> op & 1))
          rc = add_send(g, r, &send_cap, (PlaceSend){PLACE_TO_HOST, 0, m->host_mbox, 1});
        r->nout++;
      }
    }
  }
  r->out_first[g->ndevices] = r->nout;
  free(d), free(rem);
  finish_tables(r, tabs);
  free(tabs);
  if (rc) place_routes_free(r);
  return rc;
}

void place_routes_free(PlaceRoutes *r) {
  free(r->out_first), free(r->local_key), free(r->send_first), free(r->sends);
  free(r->group_first), free(r->group_recv_first), free(r->recvs);
  if (r->boards)
    for (uint32_t b = 0; b < r->nboards; b++)
      for (int i = 0; i < 4; i++) free(r->boards[b].bytes[i]);
  free(r->boards);
  memset(r, 0, sizeof *r);
}

int place_multicast_key(PlaceGraph *g, const PlaceMachine *m, PlaceRoutes *r, int from, const uint32_t *threads,
                        size_t n, uint16_t local_key, uint32_t *key) {
  PlaceRemote *rem = place_xalloc(n + 1, sizeof *rem);
  size_t nrem = 0;
  uint32_t tpm = (uint32_t)m->threads_per_mbox;
  for (size_t i = 0; i < n; i++) { /* THREADS ascending: one entry per mailbox */
    uint32_t t = threads[i];
    if (i && threads[i - 1] >= t) {
      free(rem);
      return place_fail(g, "multicast key: threads must be ascending (%u after %u)", t, threads[i - 1]);
    }
    if (!nrem || t / tpm != threads[i - 1] / tpm) {
      int in_board = (int)(t % (uint32_t)m->threads_per_board) / m->threads_per_mbox;
      int mx = in_board % m->mbox_x, my = in_board / m->mbox_x;
      rem[nrem++] = (PlaceRemote){(my << m->mbox_x_bits) | mx, 0, local_key, place_thread_board(m, t)};
    }
    rem[nrem - 1].mask |= 1ull << (t % tpm);
  }
  int rc = place_route_remote(g, m, r, from, rem, nrem, key);
  free(rem);
  return rc;
}
