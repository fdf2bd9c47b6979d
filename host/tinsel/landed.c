/*
 * landed.c: reads the host lands itself (issue 18, item 3: a dat never
 * written after its declaration is delivered once per load and kept).
 *
 * An indirect READ goes from the device holding the dat to the landing
 * pad (<inv>_arg<i>_buffer) of each element that reads it, and lazy
 * re-sends (invoke.c fresh_reads) already keep it there between calls.
 * When no invocation has written the dat on the devices, the host's copy
 * is current, so the host can fill the pads itself: it gathers each
 * element's values through the map into the iteration type's state (the
 * mirror) and pushes them like a dat (op2t_engine.push). The read's bit
 * of begin's fresh word then stays clear in every call, so the receivers
 * count it as landed; its edges are left out of the binding (edges.c), so
 * its senders take part only if something else involves them: airfoil's
 * nodes take part in nothing.
 *
 * The pads are landed again when the dat's version moves (the host wrote
 * it, or it moved between slots), when the binding is built again, and
 * when the iteration type's states were replaced or initialised again.
 * An invocation that writes the dat makes the bindings that land it stale
 * (bindings.c): their next call binds again, now with its reads sent, and
 * the instance's generation moves. OP2_TINSEL_LAND=send (or
 * OP2_TINSEL_RESEND=always, or OP2_EMIT_INSTANCE, whose file must carry
 * every edge) sends every read as before.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "op2t_internal.h"

typedef struct {
  unsigned built;     /* op2t_fanouts.built of the binding last landed, 0: none */
  unsigned inits;     /* op2t_type_inits of the iteration type then */
  unsigned *version;  /* [nargs] op2t_dat_version of each landed arg's dat then */
} Landed;

static struct {
  bool on;
  Landed *l;          /* [ninvocations] */
  long landed;        /* args whose pads the host filled */
} ld;

void op2t_land_init(bool on) {
  ld.on = on;
  ld.l = op2t_calloc((size_t)op2t_graph_info.ninvocations + 1, sizeof(Landed));
}

bool op2t_land_on(void) { return ld.on; }

/* Can the host land arg I of a call? Its dat is bound, the kernel reads
 * it (opt on), the devices never wrote it, and its pads are whole words. */
static bool landable(const op2t_arg *a, const op_arg *arg) {
  return a->kind == OP2T_ARG_INDIRECT && a->acc == OP_READ && a->fresh_bit >= 0 && a->pad_off >= 0 && arg->dat &&
         arg->map && arg->opt && arg->dat->size == a->dat_bytes && a->pad_off % 4 == 0 && a->dat_bytes % 4 == 0 &&
         !op2t_dat_device_written(arg->dat);
}

uint32_t op2t_land_bits(const op2t_invocation *inv, const op_arg *args) {
  if (!ld.on)
    return 0;
  uint32_t ok = 0, not = 0;
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (a->fresh_bit < 0)
      continue;
    if (landable(a, &args[i]))
      ok |= 1u << a->fresh_bit;
    else
      not |= 1u << a->fresh_bit; /* every dat a message carries, or none */
  }
  return ok & ~not;
}

/* The pads of arg I of every element of the iteration set, from the host's copy. */
static void gather(const op2t_arg *a, const op_arg *arg, op2t_devs *it) {
  for (int e = 0; e < it->n; e++)
    for (int k = 0; k < a->slots; k++) {
      int to = op2t_map_target(a, arg, e, k);
      memcpy(it->state + (size_t)e * it->state_bytes + a->pad_off + (size_t)k * (size_t)a->dat_bytes,
             arg->dat->data + (size_t)to * (size_t)a->dat_bytes, (size_t)a->dat_bytes);
    }
}

void op2t_land_reads(int k, const op2t_invocation *inv, op_arg *args, const op2t_fanouts *fs, op2t_devs *devs) {
  if (!fs->landed)
    return;
  Landed *l = &ld.l[k];
  if (!l->version)
    l->version = op2t_calloc((size_t)inv->nargs + 1, sizeof(unsigned));
  int t = inv->iter_type;
  bool all = l->built != fs->built || l->inits != op2t_type_inits(t);
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (a->fresh_bit < 0 || !(fs->landed >> a->fresh_bit & 1))
      continue;
    unsigned v = op2t_dat_version(args[i].dat);
    if (!all && l->version[i] == v)
      continue;
    int bytes = a->slots * a->dat_bytes;
    op2t_stream_settle(t, a->pad_off, bytes);
    gather(a, &args[i], &devs[t]);
    const op2t_engine *e = op2t_current_engine();
    if (e->push && e->push(devs, t, a->pad_off, bytes) != 0)
      op2t_fatal("%s: the %s engine could not land dat \"%s\" in the pads of %s", inv->name, e->name,
                 args[i].dat->name, op2t_graph_info.types[t].name);
    l->version[i] = v;
    ld.landed++;
  }
  l->built = fs->built;
  l->inits = op2t_type_inits(t);
}

long op2t_landed(void) { return ld.landed; }

void op2t_land_free(void) {
  for (int k = 0; ld.l && k < op2t_graph_info.ninvocations; k++)
    free(ld.l[k].version);
  free(ld.l);
  ld.l = NULL;
}
