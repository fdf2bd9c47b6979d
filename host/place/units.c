/* units.c: which code group each core pair (unit) serves.
 *
 * A core pair's instruction memory holds the handlers of one group of
 * device types, so every device must sit on a unit of its group. Each group
 * first gets the units its devices need (thread capacity), then the rest of
 * the machine in proportion to its device count (all of it: as POLite, the
 * graph spreads over every board of the configuration). The units of each group are then interleaved along the
 * machine's unit order, so every board and most mailboxes serve every
 * large group and neighbouring devices of different types can stay close. */
#include <stdio.h>
#include <string.h>

#include "place_internal.h"

static void group_names(const PlaceGraph *g, int grp, char *buf, size_t len) {
  size_t at = 0;
  buf[0] = 0;
  for (int t = 0; t < g->ntypes && at + 1 < len; t++)
    if (g->types[t].group == grp)
      at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? "," : "", g->types[t].name);
}

/* Sizes that can never fit: a dat element or a message over the payload, a
 * device over a thread's memory. */
int place_check_sizes(PlaceGraph *g, const PlaceMachine *m) {
  uint32_t payload = place_layout_payload_limit(m), budget = place_layout_state_budget(m);
  for (int d = 0; d < g->ndats; d++)
    if (g->dats[d].elem_bytes > payload)
      return place_fail(g, "dat '%s' on '%s': an element of %u bytes does not fit one message: "
                        "%u payload bytes (BytesPerMsg %u less the softswitch header)",
                        g->dats[d].name, g->types[g->dats[d].type].name, g->dats[d].elem_bytes,
                        payload, m->bytes_per_msg);
  for (int p = 0; p < g->npins; p++)
    if (g->pins[p].msg_bytes > payload)
      return place_fail(g, "'%s' output pin %d: a message of %u payload bytes does not fit: "
                        "limit %u (BytesPerMsg %u less the softswitch header)",
                        g->types[g->pins[p].src_type].name, g->pins[p].out_pin,
                        g->pins[p].msg_bytes, payload, m->bytes_per_msg);
  for (int t = 0; t < g->ntypes; t++)
    if (place_layout_device_bytes(&g->types[t]) > budget)
      return place_fail(g, "type '%s': one device needs %u bytes of thread image (state %u, "
                        "properties %u), over a thread's partition of %u bytes for devices",
                        g->types[t].name, place_layout_device_bytes(&g->types[t]),
                        g->types[t].state_bytes, g->types[t].props_bytes, budget);
  return 0;
}

/* Fills unit_group[nunits]; GROUP_UNITS[g] is the count per group. */
int place_assign_units(PlaceGraph *g, const PlaceMachine *m, uint32_t maxdev, int *unit_group) {
  int ng = g->ngroups;
  uint64_t n[PLACE_MAX_TYPES] = {0}, bytes[PLACE_MAX_TYPES] = {0};
  int64_t alloc[PLACE_MAX_TYPES + 1] = {0};
  for (int t = 0; t < g->ntypes; t++) {
    n[g->types[t].group] += g->types[t].count;
    bytes[g->types[t].group] += (uint64_t)g->types[t].count * place_layout_device_bytes(&g->types[t]);
  }
  uint64_t total = 0, cap_threads = (uint64_t)m->nthreads * maxdev;
  for (int i = 0; i < ng; i++) total += n[i];
  if (total > cap_threads)
    return place_fail(g, "%llu devices, but configuration '%s' holds at most %llu: %d threads x %u "
                      "devices per thread", (unsigned long long)total, m->name,
                      (unsigned long long)cap_threads, m->nthreads, maxdev);
  int used = 0;
  int64_t need = 0;
  uint64_t budget = place_layout_state_budget(m);
  for (int i = 0; i < ng; i++) {
    if (!n[i]) continue;
    used++;
    uint64_t th = (n[i] + maxdev - 1) / maxdev, thb = (bytes[i] + budget - 1) / budget;
    if (thb > th) th = thb;
    alloc[i] = (int64_t)((th + (uint64_t)m->threads_per_unit - 1) / (uint64_t)m->threads_per_unit);
    need += alloc[i];
  }
  if (used > m->nunits)
    return place_fail(g, "%d code groups of device types, but configuration '%s' has only %d core "
                      "pairs (instruction memories of %u bytes), and each holds one group's handlers",
                      used, m->name, m->nunits, m->app_instr_bytes);
  if (need > m->nunits) {
    char msg[600] = "", names[200];
    size_t at = 0;
    for (int i = 0; i < ng && at + 1 < sizeof msg; i++)
      if (n[i]) {
        group_names(g, i, names, sizeof names);
        at += (size_t)snprintf(msg + at, sizeof msg - at, "; group %d (%s): %llu devices, %llu bytes, %lld pairs",
                               i, names, (unsigned long long)n[i], (unsigned long long)bytes[i],
                               (long long)alloc[i]);
      }
    return place_fail(g, "the devices need %lld core pairs but configuration '%s' has %d (%d threads "
                      "each, at most %u devices and %llu bytes per thread)%s",
                      (long long)need, m->name, m->nunits, m->threads_per_unit, maxdev,
                      (unsigned long long)budget, msg);
  }
  /* the rest in proportion to device counts, largest shortfall first */
  for (int64_t left = m->nunits - need; left > 0; left--) {
    int best = -1;
    double best_short = 0;
    for (int i = 0; i < ng; i++) {
      if (!n[i]) continue;
      double s = (double)m->nunits * (double)n[i] / (double)total - (double)alloc[i];
      if (best < 0 || s > best_short) best = i, best_short = s;
    }
    if (best < 0) break;
    alloc[best]++;
  }
  /* interleave: unit u goes to the group (or "unused", index ng) furthest
   * behind its share of the first u+1 units */
  int64_t spare = m->nunits;
  for (int i = 0; i < ng; i++) spare -= alloc[i];
  alloc[ng] = spare;
  int64_t done[PLACE_MAX_TYPES + 1] = {0};
  for (int u = 0; u < m->nunits; u++) {
    int best = -1;
    int64_t best_behind = 0;
    for (int i = 0; i <= ng; i++) {
      if (done[i] >= alloc[i]) continue;
      int64_t behind = alloc[i] * (u + 1) - done[i] * m->nunits;
      if (best < 0 || behind > best_behind) best = i, best_behind = behind;
    }
    done[best]++;
    unit_group[u] = best == ng ? -1 : best;
  }
  return 0;
}
