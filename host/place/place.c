/* place.c: hierarchical placement, as POLite's (tinsel.md §6.3): METIS cuts
 * the graph into boards, each board into mailboxes, each mailbox's devices
 * of one code group into the threads of that group's core pairs there.
 *
 * METIS sees every device, whatever its group, so mesh neighbours of
 * different types stay together; each level balances every group and,
 * where it has enough devices, every type (multi-constraint,
 * type_constraints); then a board's mailboxes and each mailbox's threads
 * are evened out, so that no thread holds more than ceil(the board's mean)
 * of any type (even_out). A part may lack core pairs of some group (a mailbox
 * has two pairs but a program may have four groups), so after each level a
 * greedy pass moves the devices a part cannot hold to the nearest part with
 * room for their group, nearest meaning least mesh distance to their placed
 * neighbours. */
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

typedef struct {
  PlaceGraph *g;
  const PlaceMachine *m;
  uint32_t seed, maxdev;
  int *unit_group;
  int32_t *local;   /* device -> index in the current level's vertex list, else -1 */
  uint32_t *thread; /* result */
} Ctx;

typedef struct {
  uint64_t key; /* group-part, then internal degree */
  uint32_t i;
} Cand;

static int cmp_cand(const void *a, const void *b) {
  const Cand *p = a, *q = b;
  if (p->key != q->key) return p->key < q->key ? -1 : 1;
  return p->i < q->i ? -1 : p->i > q->i;
}

/* Greedy repair of one level: VERTS[i] is in PART[i] (0..nparts-1) with
 * group GRP[i]; CAP[g*nparts+p] is how many of group g part p may hold;
 * parts sit at (PX,PY) on a mesh. */
static int fixup(Ctx *c, const uint32_t *verts, uint32_t n, int *part, const int *grp, int ngroups,
                 int nparts, const int64_t *cap, const int *px, const int *py) {
  PlaceGraph *g = c->g;
  size_t ncell = (size_t)ngroups * nparts;
  int64_t *cnt = place_xalloc(ncell, sizeof *cnt);
  for (uint32_t i = 0; i < n; i++) cnt[(size_t)grp[i] * nparts + part[i]]++;
  int over = 0;
  for (size_t k = 0; k < ncell; k++) over |= cnt[k] > cap[k];
  if (!over) {
    free(cnt);
    return 0;
  }
  for (uint32_t i = 0; i < n; i++) c->local[verts[i]] = (int32_t)i;
  /* candidates: devices of over-full (group, part), fewest neighbours inside first */
  Cand *cand = place_xalloc(n, sizeof *cand);
  uint32_t nc = 0;
  for (uint32_t i = 0; i < n; i++) {
    size_t k = (size_t)grp[i] * nparts + part[i];
    if (cnt[k] <= cap[k]) continue;
    uint64_t inside = 0;
    for (uint32_t e = g->adj_first[verts[i]]; e < g->adj_first[verts[i] + 1]; e++) {
      int32_t j = c->local[g->adj[e]];
      inside += j >= 0 && part[j] == part[i];
    }
    cand[nc++] = (Cand){((uint64_t)k << 32) | (inside > 0xffffffffu ? 0xffffffffu : inside), i};
  }
  qsort(cand, nc, sizeof *cand, cmp_cand);
  int *orig = place_xalloc(n, sizeof *orig);
  memcpy(orig, part, n * sizeof *part);
  uint32_t nmove = 0;
  for (uint32_t a = 0; a < nc; a++) {
    uint32_t i = cand[a].i;
    size_t k = (size_t)grp[i] * nparts + part[i];
    if (cnt[k] > cap[k]) {
      cnt[k]--;
      part[i] = -1;
      cand[nmove++].i = i;
    }
  }
  /* place the displaced in device order, by distance to placed neighbours */
  int rc = 0;
  int64_t *cost = place_xalloc((size_t)nparts, sizeof *cost);
  for (uint32_t a = 0; a < nmove && !rc; a++) {
    uint32_t i = cand[a].i;
    memset(cost, 0, (size_t)nparts * sizeof *cost);
    for (uint32_t e = g->adj_first[verts[i]]; e < g->adj_first[verts[i] + 1]; e++) {
      int32_t j = c->local[g->adj[e]];
      if (j < 0 || part[j] < 0) continue;
      for (int q = 0; q < nparts; q++)
        cost[q] += abs(px[q] - px[part[j]]) + abs(py[q] - py[part[j]]);
    }
    int best = -1;
    int64_t best_cost = 0, best_d = 0;
    for (int q = 0; q < nparts; q++) {
      size_t k = (size_t)grp[i] * nparts + q;
      if (cnt[k] >= cap[k]) continue;
      int64_t d = abs(px[q] - px[orig[i]]) + abs(py[q] - py[orig[i]]);
      if (best < 0 || cost[q] < best_cost || (cost[q] == best_cost && d < best_d))
        best = q, best_cost = cost[q], best_d = d;
    }
    if (best < 0) {
      rc = place_fail(g, "internal error: no part has room for device %u", verts[i]);
      break;
    }
    part[i] = best;
    cnt[(size_t)grp[i] * nparts + best]++;
  }
  for (uint32_t i = 0; i < n; i++) c->local[verts[i]] = -1;
  free(cost), free(orig), free(cand), free(cnt);
  return rc;
}

/* Capacity of each (group, part): the group's share of the region's devices
 * in proportion to its units there, with 3% slack, within thread limits. */
static void capacities(Ctx *c, const int *grp, uint32_t n, int ngroups, int nparts,
                       const int64_t *units, int64_t *cap) {
  int64_t *count = place_xalloc((size_t)ngroups, sizeof *count);
  int64_t *total = place_xalloc((size_t)ngroups, sizeof *total);
  for (uint32_t i = 0; i < n; i++) count[grp[i]]++;
  for (int k = 0; k < ngroups; k++)
    for (int p = 0; p < nparts; p++) total[k] += units[(size_t)k * nparts + p];
  for (int k = 0; k < ngroups; k++)
    for (int p = 0; p < nparts; p++) {
      int64_t u = units[(size_t)k * nparts + p];
      int64_t hard = u * c->m->threads_per_unit * (int64_t)c->maxdev;
      int64_t share = total[k] ? (count[k] * u * 103 + total[k] * 100 - 1) / (total[k] * 100) : 0;
      cap[(size_t)k * nparts + p] = share < hard ? share : hard;
    }
  free(count), free(total);
}

/* Constraints for METIS (renumbered from 0): each group's devices are
 * balanced over the parts, and within a group whose largest type has at
 * least two devices per part, each type with one device per four parts is
 * balanced on its own. Balancing a group's count alone let a thread take
 * seven cells where another took one and six nodes (airfoil's nodes have
 * no work once the host lands p_x), and put several bedges on one thread.
 * Other types share their group's largest type's constraint: balancing
 * many constraints of a few devices each, METIS bisects down to parts with
 * none and says so on stdout. */
static int type_constraints(const PlaceGraph *g, const uint32_t *verts, uint32_t n, int nparts, int *con) {
  uint32_t count[PLACE_MAX_TYPES] = {0};
  int largest[PLACE_MAX_TYPES], map[PLACE_MAX_TYPES], ncon = 0;
  for (uint32_t i = 0; i < n; i++) count[place_type_of(g, verts[i])]++;
  for (int k = 0; k < g->ngroups; k++) largest[k] = -1;
  for (int t = 0; t < g->ntypes; t++) {
    int k = g->types[t].group;
    map[t] = -1;
    if (count[t] && (largest[k] < 0 || count[t] > count[largest[k]])) largest[k] = t;
  }
  for (int t = 0; t < g->ntypes; t++) {
    int big = largest[g->types[t].group];
    if (count[t] && (t == big || (count[big] >= 2 * (uint32_t)nparts && count[t] * 4 >= (uint32_t)nparts)))
      map[t] = ncon++;
  }
  for (int t = 0; t < g->ntypes; t++)
    if (count[t] && map[t] < 0) map[t] = map[largest[g->types[t].group]];
  for (uint32_t i = 0; i < n; i++) con[i] = map[place_type_of(g, verts[i])];
  return ncon;
}

/* METIS balances each constraint within a tolerance that, at a few devices
 * per thread, is a device or two (airfoil's edges: 1 to 5 a thread where
 * the mean is 3.45, all sets in one group), and types that share a
 * constraint are not balanced at all; the busiest thread bounds a loop.
 * Moves devices off parts over their type's cap, each to the part under it
 * that holds most of its neighbours. A part's cap for type t is its
 * threads of t's group (UNITS[group * nparts + part] core pairs of them;
 * NULL: a part is one thread) times ceil(t's devices / those threads in
 * all the parts): no thread of a mailbox then holds more than ceil(mean)
 * of a type, and no mailbox more than its threads times ceil(the board's
 * mean). */
static void even_out(Ctx *c, const uint32_t *sub, uint32_t ns, int nparts, const int64_t *units, int *part) {
  PlaceGraph *g = c->g;
  size_t nt = (size_t)g->ntypes, np = (size_t)nparts;
  uint32_t *cnt = place_xalloc(nt * np, sizeof *cnt), *cap = place_xalloc(nt * np, sizeof *cap);
  uint32_t *total = place_xalloc(nt, sizeof *total), *near = place_xalloc(np, sizeof *near);
  for (uint32_t i = 0; i < ns; i++) {
    int t = place_type_of(g, sub[i]);
    cnt[(size_t)t * np + (size_t)part[i]]++;
    total[t]++;
    c->local[sub[i]] = (int32_t)i;
  }
  for (size_t t = 0; t < nt; t++) {
    const int64_t *u = units ? units + (size_t)g->types[t].group * np : NULL;
    uint64_t all = 0, tpu = units ? (uint64_t)c->m->threads_per_unit : 1;
    for (size_t q = 0; q < np; q++) all += u ? (uint64_t)u[q] * tpu : 1;
    uint64_t per = all ? (total[t] + all - 1) / all : 0;
    for (size_t q = 0; q < np; q++) cap[t * np + q] = (uint32_t)(per * (u ? (uint64_t)u[q] * tpu : 1));
  }
  for (uint32_t i = 0; i < ns; i++) {
    size_t t = (size_t)place_type_of(g, sub[i]);
    uint32_t *cc = cnt + t * np, *ct = cap + t * np;
    if (cc[part[i]] <= ct[part[i]]) continue;
    memset(near, 0, np * sizeof *near);
    for (uint32_t e = g->adj_first[sub[i]]; e < g->adj_first[sub[i] + 1]; e++) {
      int32_t j = c->local[g->adj[e]];
      if (j >= 0) near[part[j]]++;
    }
    int best = -1; /* one exists: the caps sum to at least the type's devices */
    for (int q = 0; q < nparts; q++)
      if (cc[q] < ct[q] && (best < 0 || near[q] > near[best])) best = q;
    cc[part[i]]--, cc[best]++;
    part[i] = best;
  }
  for (uint32_t i = 0; i < ns; i++) c->local[sub[i]] = -1;
  free(cnt), free(cap), free(total), free(near);
}

/* One level: partition VERTS into the parts of a mesh W x H (boards or the
 * mailboxes of one board), part q's units being UNIT0 + q*UNITS_PER_PART
 * onward; with EVEN, each type evened out over the parts after (the
 * mailboxes; not the boards, where a move may go to a board without a
 * neighbour of it). Writes each vertex's part into OUT (by mesh position). */
static int level(Ctx *c, const uint32_t *verts, uint32_t n, int w, int h, int unit0,
                 int units_per_part, int even, int *out) {
  PlaceGraph *g = c->g;
  int nparts = w * h, ng = g->ngroups;
  int *grp = place_xalloc(n, sizeof *grp), *part = place_xalloc(n, sizeof *part);
  for (uint32_t i = 0; i < n; i++) grp[i] = g->types[place_type_of(g, verts[i])].group;
  int *con = place_xalloc(n, sizeof *con);
  int ncon = type_constraints(g, verts, n, nparts, con);
  int rc = place_partition(g, verts, n, nparts, con, ncon, c->seed, c->local, part);
  free(con);
  if (rc) {
    free(grp), free(part);
    return rc;
  }
  int *order = place_xalloc((size_t)nparts, sizeof *order);
  int *px = place_xalloc((size_t)nparts, sizeof *px), *py = place_xalloc((size_t)nparts, sizeof *py);
  place_mesh_order(w, h, order);
  for (uint32_t i = 0; i < n; i++) part[i] = order[part[i]];
  for (int q = 0; q < nparts; q++) px[q] = q % w, py[q] = q / w;
  int64_t *units = place_xalloc((size_t)ng * nparts, sizeof *units);
  int64_t *cap = place_xalloc((size_t)ng * nparts, sizeof *cap);
  for (int q = 0; q < nparts; q++)
    for (int u = 0; u < units_per_part; u++) {
      int grp_u = c->unit_group[unit0 + q * units_per_part + u];
      if (grp_u >= 0) units[(size_t)grp_u * nparts + q]++;
    }
  capacities(c, grp, n, ng, nparts, units, cap);
  rc = fixup(c, verts, n, part, grp, ng, nparts, cap, px, py);
  if (!rc && even) even_out(c, verts, n, nparts, units, part);
  memcpy(out, part, n * sizeof *part);
  free(units), free(cap), free(order), free(px), free(py), free(grp), free(part);
  return rc;
}

/* Bucket VERTS by PART (0..nparts-1), keeping their order. */
static uint32_t *bucket(const uint32_t *verts, uint32_t n, const int *part, int nparts,
                        uint32_t *first) {
  memset(first, 0, ((size_t)nparts + 1) * sizeof *first);
  for (uint32_t i = 0; i < n; i++) first[part[i] + 1]++;
  for (int q = 0; q < nparts; q++) first[q + 1] += first[q];
  uint32_t *out = place_xalloc(n, sizeof *out), *pos = place_xalloc((size_t)nparts, sizeof *pos);
  memcpy(pos, first, (size_t)nparts * sizeof *pos);
  for (uint32_t i = 0; i < n; i++) out[pos[part[i]]++] = verts[i];
  free(pos);
  return out;
}

/* Devices of one mailbox: per group, METIS over the threads of the group's
 * units in the mailbox, then each type evened out. */
static int threads_of_mailbox(Ctx *c, const uint32_t *verts, uint32_t n, int mbox_global) {
  PlaceGraph *g = c->g;
  const PlaceMachine *m = c->m;
  uint32_t *sub = place_xalloc(n, sizeof *sub), *threads = place_xalloc((size_t)m->threads_per_mbox, sizeof *threads);
  int *part = place_xalloc(n, sizeof *part);
  int *con = place_xalloc(n, sizeof *con);
  int rc = 0;
  for (int k = 0; k < g->ngroups && !rc; k++) {
    uint32_t ns = 0;
    for (uint32_t i = 0; i < n; i++)
      if (g->types[place_type_of(g, verts[i])].group == k) sub[ns++] = verts[i];
    if (!ns) continue;
    int nt = 0;
    for (int u = 0; u < m->units_per_mbox; u++) {
      int unit = mbox_global * m->units_per_mbox + u;
      if (c->unit_group[unit] == k)
        for (int t = 0; t < m->threads_per_unit; t++)
          threads[nt++] = (uint32_t)(unit * m->threads_per_unit + t);
    }
    if (!nt) {
      rc = place_fail(g, "internal error: mailbox %d holds group %d devices but no unit of it", mbox_global, k);
      break;
    }
    int ncon = type_constraints(g, sub, ns, nt, con);
    rc = place_partition(g, sub, ns, nt, con, ncon, c->seed, c->local, part);
    if (!rc) even_out(c, sub, ns, nt, NULL, part);
    for (uint32_t i = 0; i < ns && !rc; i++) c->thread[sub[i]] = threads[part[i]];
  }
  free(sub), free(threads), free(part);
  free(con);
  return rc;
}

static int place_metis(Ctx *c) {
  PlaceGraph *g = c->g;
  const PlaceMachine *m = c->m;
  uint32_t n = g->ndevices;
  uint32_t *all = place_xalloc(n, sizeof *all);
  for (uint32_t v = 0; v < n; v++) all[v] = v;
  int *board = place_xalloc(n, sizeof *board);
  int upb = m->units_per_mbox * m->mboxes_per_board;
  int rc = level(c, all, n, m->boards_x, m->boards_y, 0, upb, 0, board);
  uint32_t *bfirst = place_xalloc((size_t)m->nboards + 1, sizeof *bfirst);
  uint32_t *by_board = bucket(all, n, board, m->nboards, bfirst);
  free(board), free(all);
  int *mb = place_xalloc(n, sizeof *mb);
  uint32_t *mfirst = place_xalloc((size_t)m->mboxes_per_board + 1, sizeof *mfirst);
  for (int b = 0; b < m->nboards && !rc; b++) {
    const uint32_t *bv = by_board + bfirst[b];
    uint32_t bn = bfirst[b + 1] - bfirst[b];
    rc = level(c, bv, bn, m->mbox_x, m->mbox_y, b * upb, m->units_per_mbox, 1, mb);
    if (rc) break;
    uint32_t *by_mbox = bucket(bv, bn, mb, m->mboxes_per_board, mfirst);
    for (int q = 0; q < m->mboxes_per_board && !rc; q++)
      rc = threads_of_mailbox(c, by_mbox + mfirst[q], mfirst[q + 1] - mfirst[q],
                              b * m->mboxes_per_board + q);
    free(by_mbox);
  }
  free(mb), free(mfirst), free(bfirst), free(by_board);
  return rc;
}

/* The naive baseline: each group's devices dealt round robin to its threads. */
static void place_round_robin(Ctx *c) {
  PlaceGraph *g = c->g;
  const PlaceMachine *m = c->m;
  uint32_t *threads = place_xalloc((size_t)m->nthreads, sizeof *threads);
  for (int k = 0; k < g->ngroups; k++) {
    uint32_t nt = 0;
    for (int u = 0; u < m->nunits; u++)
      if (c->unit_group[u] == k)
        for (int t = 0; t < m->threads_per_unit; t++) threads[nt++] = (uint32_t)(u * m->threads_per_unit + t);
    uint64_t next = 0;
    for (int t = 0; t < g->ntypes; t++)
      if (g->types[t].group == k)
        for (uint32_t i = 0; i < g->types[t].count; i++) c->thread[g->types[t].first + i] = threads[next++ % nt];
  }
  free(threads);
}

/* Moves devices off threads over the device or byte limit onto the least
 * loaded thread of the same group in the same mailbox. */
static int repair_capacity(Ctx *c, uint32_t *count, uint64_t *bytes) {
  PlaceGraph *g = c->g;
  const PlaceMachine *m = c->m;
  uint64_t budget = place_layout_state_budget(m);
  for (uint32_t v = 0; v < g->ndevices; v++) {
    uint32_t t = c->thread[v];
    uint64_t db = place_layout_device_bytes(&g->types[place_type_of(g, v)]);
    if (count[t] <= c->maxdev && bytes[t] <= budget) continue;
    /* candidates: threads of units of the same group in the same mailbox */
    uint32_t mb0 = t / (uint32_t)m->threads_per_mbox * (uint32_t)m->threads_per_mbox;
    int grp = c->unit_group[place_thread_unit(m, t)];
    uint32_t best = t;
    for (uint32_t u = mb0; u < mb0 + (uint32_t)m->threads_per_mbox; u++)
      if (c->unit_group[place_thread_unit(m, u)] == grp && count[u] < c->maxdev &&
          bytes[u] + db <= budget && (best == t || count[u] < count[best]))
        best = u;
    if (best == t)
      return place_fail(g, "thread %u (mailbox 0x%x): %u devices and %llu bytes of state, over the "
                        "limit of %u devices and %llu bytes, and its mailbox has no room left",
                        t, place_thread_mbox(m, t), count[t], (unsigned long long)bytes[t], c->maxdev,
                        (unsigned long long)budget);
    count[t]--, bytes[t] -= db;
    count[best]++, bytes[best] += db;
    c->thread[v] = best;
  }
  return 0;
}

static int run(PlaceGraph *g, const PlaceMachine *m, const PlaceOptions *opt, PlacePlacement *p) {
  if (place_check_sizes(g, m) || place_finish_edges(g)) return -1;
  Ctx c = {g, m, opt ? opt->seed : 1, 0, NULL, NULL, NULL};
  c.maxdev = opt && opt->max_devices_per_thread ? opt->max_devices_per_thread : place_layout_max_devices();
  if (c.maxdev > place_layout_max_devices()) c.maxdev = place_layout_max_devices();
  p->ndevices = g->ndevices;
  p->nthreads = (uint32_t)m->nthreads;
  p->nunits = (uint32_t)m->nunits;
  p->unit_group = place_xalloc((size_t)m->nunits, sizeof *p->unit_group);
  p->thread = place_xalloc(g->ndevices, sizeof *p->thread);
  c.unit_group = p->unit_group;
  c.thread = p->thread;
  if (place_assign_units(g, m, c.maxdev, p->unit_group)) return -1;
  c.local = place_xalloc(g->ndevices, sizeof *c.local);
  memset(c.local, 0xff, (size_t)g->ndevices * sizeof *c.local);
  int rc = 0;
  if (opt && opt->round_robin) place_round_robin(&c);
  else rc = place_metis(&c);
  free(c.local);
  if (rc) return rc;
  /* per-thread lists, in device order */
  uint32_t *count = place_xalloc(p->nthreads, sizeof *count);
  uint64_t *bytes = place_xalloc(p->nthreads, sizeof *bytes);
  for (uint32_t v = 0; v < g->ndevices; v++) {
    count[p->thread[v]]++;
    bytes[p->thread[v]] += place_layout_device_bytes(&g->types[place_type_of(g, v)]);
  }
  rc = repair_capacity(&c, count, bytes);
  if (!rc) {
    p->thread_first = place_xalloc((size_t)p->nthreads + 1, sizeof *p->thread_first);
    p->thread_dev = place_xalloc(g->ndevices, sizeof *p->thread_dev);
    p->local = place_xalloc(g->ndevices, sizeof *p->local);
    p->thread_bytes = place_xalloc(p->nthreads, sizeof *p->thread_bytes);
    for (uint32_t t = 0; t < p->nthreads; t++) {
      p->thread_first[t + 1] = p->thread_first[t] + count[t];
      p->thread_bytes[t] = (uint32_t)bytes[t];
    }
    memset(count, 0, p->nthreads * sizeof *count);
    for (uint32_t v = 0; v < g->ndevices; v++) {
      uint32_t t = p->thread[v];
      p->local[v] = count[t]++;
      p->thread_dev[p->thread_first[t] + p->local[v]] = v;
    }
  }
  free(count), free(bytes);
  return rc;
}

/* On failure nothing is left allocated in P. */
int place_run(PlaceGraph *g, const PlaceMachine *m, const PlaceOptions *opt, PlacePlacement *p) {
  memset(p, 0, sizeof *p);
  int rc = run(g, m, opt, p);
  if (rc) place_placement_free(p);
  return rc;
}

void place_placement_free(PlacePlacement *p) {
  free(p->thread), free(p->local), free(p->thread_first), free(p->thread_dev);
  free(p->unit_group), free(p->thread_bytes);
  memset(p, 0, sizeof *p);
}

void place_cut_stats(const PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p,
                     PlaceCutStats *s) {
  memset(s, 0, sizeof *s);
  for (int pi = 0; pi < g->npins; pi++) {
    const PlacePin *pin = &g->pins[pi];
    const PlaceType *st = &g->types[pin->src_type], *dt = &g->types[pin->dst_type];
    for (uint32_t i = 0; i < st->count; i++)
      for (uint32_t e = pin->first[i]; e < pin->first[i + 1]; e++) {
        uint32_t a = p->thread[st->first + i], b = p->thread[dt->first + pin->dst[e]];
        int ba = place_thread_board(m, a), bb = place_thread_board(m, b);
        s->edges++;
        if (a == b) s->same_thread++;
        else if (place_thread_mbox(m, a) == place_thread_mbox(m, b)) s->same_mbox++;
        else if (ba == bb) s->same_board++;
        else s->other_board++;
        s->cut += a != b;
        s->hops += (uint64_t)(abs(ba % m->boards_x - bb % m->boards_x) + abs(ba / m->boards_x - bb / m->boards_x));
      }
  }
  for (uint32_t t = 0; t < p->nthreads; t++) {
    uint32_t k = p->thread_first[t + 1] - p->thread_first[t];
    if (k > s->max_devices_per_thread) s->max_devices_per_thread = k;
    s->threads_used += k > 0;
  }
}

void place_type_balance(const PlaceGraph *g, const PlaceMachine *m, const PlacePlacement *p, int type,
                        PlaceTypeBalance *b) {
  memset(b, 0, sizeof *b);
  if (type < 0 || type >= g->ntypes) return;
  const PlaceType *ty = &g->types[type];
  uint32_t *count = place_xalloc(p->nthreads, sizeof *count);
  for (uint32_t i = 0; i < ty->count; i++) count[p->thread[ty->first + i]]++;
  b->name = ty->name;
  b->devices = ty->count;
  b->min = UINT32_MAX;
  for (uint32_t t = 0; t < p->nthreads; t++) {
    if (p->unit_group[place_thread_unit(m, t)] != ty->group) continue;
    b->threads++;
    if (count[t] < b->min) b->min = count[t];
    if (count[t] > b->max) b->max = count[t];
  }
  if (!b->threads) b->min = 0;
  free(count);
}
