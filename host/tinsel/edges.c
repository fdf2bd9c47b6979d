/*
 * edges.c: the edges of one invocation, from the maps of the call (seed
 * 000's topology): for an indirect arg i through map m and every iteration
 * element e and slot k,
 *   reads:  to[m(e,k)].<inv>_<dat>_read_send -> e.<inv>_arg<i>_read_recv (edge prop: k)
 *           (none for an arg whose reads ride on another arg's message: read_send -1)
 *   writes: e.<inv>_arg<i>_write_send[_slot<k>] -> to[m(e,k)].<inv>_arg<i>_write_recv
 * and the per-device properties the maps fix: <inv>_write_recv_total (the
 * write edges a device receives, op_opt_args that are off excluded) and
 * <inv>_idx<i> for op_arg_idx.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2t_internal.h"

static op2t_fanout *fanout_for(op2t_fanouts *fs, int type, int pin, int kind, int n) {
  for (int i = 0; i < fs->n; i++)
    if (fs->f[i].type == type && fs->f[i].pin == pin)
      return &fs->f[i];
  fs->f = op2t_grow(fs->f, (size_t)fs->n + 1, sizeof(op2t_fanout));
  op2t_fanout *f = &fs->f[fs->n++];
  memset(f, 0, sizeof(*f));
  f->type = type;
  f->pin = pin;
  f->kind = kind;
  f->start = op2t_calloc((size_t)n + 1, sizeof(int));
  return f;
}

int op2t_map_target(const op2t_arg *a, const op_arg *arg, int e, int k) {
  int slot = a->slots > 1 ? k : a->idx;
  if (!arg->map || slot < 0 || slot >= arg->map->dim)
    op2t_fatal("arg through map \"%s\": slot %d is outside its dim %d", arg->map ? arg->map->name : "(null)",
               slot, arg->map ? arg->map->dim : 0);
  int to = arg->map->map[(size_t)e * arg->map->dim + slot];
  if (to < 0 || to >= arg->map->to->size)
    op2t_fatal("map \"%s\" entry %zu (element %d, slot %d) is %d, outside set \"%s\" (size %d)", arg->map->name,
               (size_t)e * arg->map->dim + slot, e, slot, to, arg->map->to->name, arg->map->to->size);
  return to;
}

/* Each (source type, pin) gets counts, then offsets, then edges. */
static void add_edges(op2t_fanouts *fs, const op2t_invocation *inv, op_arg *args, op2t_devs *devs, int pass) {
  uint32_t landed = fs->landed;
  int it = inv->iter_type, n = devs[it].n;
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (a->kind != OP2T_ARG_INDIRECT || !args[i].dat)
      continue;
    int nt = devs[a->type].n;
    for (int e = 0; e < n; e++)
      for (int k = 0; k < a->slots; k++) {
        int to = op2t_map_target(a, &args[i], e, k);
        if (a->read_send >= 0 && !(a->fresh_bit >= 0 && landed >> a->fresh_bit & 1)) {
          op2t_fanout *f = fanout_for(fs, a->type, a->read_send, OP2T_EDGE_READ, nt);
          if (pass == 0)
            f->start[to + 1]++;
          else
            f->edges[f->start[to]++] =
                (op2t_edge){e, (uint8_t)it, (uint8_t)a->read_recv, (uint8_t)k, a->slots > 1};
        }
        if (a->write_send >= 0) {
          op2t_fanout *f = fanout_for(fs, it, a->write_send + k, OP2T_EDGE_WRITE, n);
          if (pass == 0)
            f->start[e + 1]++;
          else
            f->edges[f->start[e]++] = (op2t_edge){to, (uint8_t)a->type, (uint8_t)a->write_recv, 0, 0};
        }
      }
  }
}

void op2t_build_edges(op2t_fanouts *fs, const op2t_invocation *inv, op_arg *args, op2t_devs *devs, uint32_t landed) {
  op2t_free_edges(fs);
  fs->landed = landed;
  add_edges(fs, inv, args, devs, 0);
  int **saved = op2t_calloc((size_t)fs->n + 1, sizeof(int *));
  for (int i = 0; i < fs->n; i++) {
    op2t_fanout *f = &fs->f[i];
    int nd = devs[f->type].n;
    for (int d = 0; d < nd; d++)
      f->start[d + 1] += f->start[d];
    f->edges = op2t_calloc((size_t)f->start[nd] + 1, sizeof(op2t_edge));
    saved[i] = op2t_calloc((size_t)nd + 1, sizeof(int));
    memcpy(saved[i], f->start, sizeof(int) * ((size_t)nd + 1));
  }
  add_edges(fs, inv, args, devs, 1); /* advances start[d] to start[d+1] */
  for (int i = 0; i < fs->n; i++) {
    memcpy(fs->f[i].start, saved[i], sizeof(int) * ((size_t)devs[fs->f[i].type].n + 1));
    free(saved[i]);
  }
  free(saved);
  fs->part = op2t_calloc((size_t)op2t_graph_info.ntypes + 1, sizeof(uint8_t *));
  for (int j = 0; j < inv->ninvolved; j++) {
    int t = inv->involved[j].type;
    fs->part[t] = op2t_calloc((size_t)devs[t].n + 1, 1);
    fs->parts += op2t_takes_part(inv, fs->f, fs->n, devs, t, fs->part[t]);
  }
}

void op2t_free_edges(op2t_fanouts *fs) {
  for (int i = 0; i < fs->n; i++) {
    free(fs->f[i].start);
    free(fs->f[i].edges);
  }
  for (int t = 0; fs->part && t < op2t_graph_info.ntypes; t++)
    free(fs->part[t]);
  free(fs->part);
  free(fs->f);
  memset(fs, 0, sizeof(*fs));
}

/* <inv>_write_recv_total and <inv>_idx<i> of every involved device. */
void op2t_set_props(const op2t_invocation *inv, op_arg *args, op2t_devs *devs) {
  for (int j = 0; j < inv->ninvolved; j++) {
    const op2t_involved *iv = &inv->involved[j];
    op2t_devs *dv = &devs[iv->type];
    int *total = op2t_calloc((size_t)dv->n + 1, sizeof(int));
    for (int i = 0; i < inv->nargs; i++) {
      const op2t_arg *a = &inv->args[i];
      if (a->kind != OP2T_ARG_INDIRECT || a->write_send < 0 || a->type != iv->type || !args[i].opt)
        continue;
      for (int e = 0; e < devs[inv->iter_type].n; e++)
        for (int k = 0; k < a->slots; k++)
          total[op2t_map_target(a, &args[i], e, k)]++;
    }
    for (int d = 0; d < dv->n; d++) {
      if (total[d] > UINT16_MAX)
        op2t_fatal("%s: element %d of set \"%s\" receives %d writes, more than the %d a device counts",
                   inv->name, d, dv->set->name, total[d], UINT16_MAX);
      uint16_t v = (uint16_t)total[d];
      memcpy(dv->props + (size_t)d * dv->props_bytes + iv->total_off, &v, sizeof(v));
    }
    free(total);
  }
  op2t_devs *it = &devs[inv->iter_type];
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (a->kind != OP2T_ARG_IDX || a->idx_off < 0)
      continue;
    for (int e = 0; e < it->n; e++) {
      int32_t v = args[i].map->map[(size_t)e * args[i].map->dim + a->idx];
      memcpy(it->props + (size_t)e * it->props_bytes + a->idx_off, &v, sizeof(v));
    }
  }
}

long op2t_takes_part(const op2t_invocation *inv, const op2t_fanout *f, int nf, const op2t_devs *devs, int type,
                     uint8_t *part) {
  int n = devs[type].n;
  memset(part, type == inv->iter_type, (size_t)n);
  for (int i = 0; i < nf && type != inv->iter_type; i++) {
    int ns = devs[f[i].type].n;
    for (int d = 0; f[i].type == type && d < n; d++)
      part[d] |= f[i].start[d + 1] > f[i].start[d];
    for (int e = 0; e < f[i].start[ns]; e++)
      if (f[i].edges[e].type == type)
        part[f[i].edges[e].dev] = 1;
  }
  long count = 0;
  for (int d = 0; d < n; d++)
    count += part[d];
  return count;
}
