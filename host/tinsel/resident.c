/*
 * resident.c: dats live on the devices between invocations (seed 000: a
 * dat is device state) and come back to the host only when it reads them.
 *
 * Each dat has at most one device copy: the field of its type's state at
 * the arg's dat_off (a "slot"). A slot holds one dat at a time. The host's
 * op_dat is stale when an invocation wrote the device copy and nothing has
 * read it back since; libop2_seq's hooks (op_rt_set_hooks) bring it back
 * before any host read (op_fetch_data and friends) and drop the device
 * copy after a host write (op_decl_dat). A dat loses its slot when another
 * dat takes it or its type is bound to another set; a stale host copy is
 * synced first, so nothing is lost.
 *
 * The runtime keeps a mirror of every device state (op2t_devs.state). The
 * functional engine runs on the mirror; an engine whose devices live
 * elsewhere moves slot bytes with its fetch and push (op2t_engine.h).
 */
#include <stdbool.h>
#include <string.h>

#include "op2t_internal.h"
#include "op_internal.h"

typedef struct {
  int type, off;      /* its slot; type -1: no device copy */
  bool host_stale;    /* the device copy is newer */
  unsigned version;   /* res.clock when the device copy last changed (or was dropped) */
  bool dev_written;   /* an invocation wrote it: the host cannot land its reads (landed.c) */
} Where;

static struct {
  Where *w;           /* by op_dat index */
  int n;
  op2t_dat_counts counts;
  unsigned clock;     /* one tick per change of any dat's device copy */
} res;

static Where *where(op_dat dat) {
  if (dat->index >= res.n) {
    int n = dat->index + 16;
    res.w = op2t_grow(res.w, (size_t)n, sizeof(Where));
    for (int i = res.n; i < n; i++)
      res.w[i] = (Where){-1, 0, false, 0, false};
    res.n = n;
  }
  return &res.w[dat->index];
}

/* The live dat whose device copy is in slot (TYPE, OFF), or NULL. */
static op_dat occupant(int type, int off) {
  for (int i = 0; i < res.n && i < op_state.ndats; i++)
    if (res.w[i].type == type && res.w[i].off == off && op_state.dats[i])
      return op_state.dats[i];
  return NULL;
}

static void engine_move(int (*move)(const op2t_devs *, int, int, int), const char *what, op_dat dat, int type,
                        int off) {
  if (move && move(op2t_bound_devs(), type, off, dat->size) != 0)
    op2t_fatal("dat \"%s\": the %s engine could not %s the devices of %s", dat->name, op2t_current_engine()->name,
               what, op2t_graph_info.types[type].name);
}

/* Device copy -> host copy, when the host's is stale. */
static void sync_to_host(op_dat dat) {
  Where *w = where(dat);
  if (w->type < 0 || !w->host_stale)
    return;
  const op2t_devs *d = &op2t_bound_devs()[w->type];
  op2t_stream_drain(); /* invocations under way may still write it */
  engine_move(op2t_current_engine()->fetch, "fetch from", dat, w->type, w->off);
  for (int e = 0; e < d->n; e++)
    memcpy(dat->data + (size_t)e * dat->size, d->state + (size_t)e * d->state_bytes + w->off, (size_t)dat->size);
  w->host_stale = false;
  res.counts.to_host++;
}

static void drop(op_dat dat) {
  sync_to_host(dat);
  where(dat)->type = -1;
  where(dat)->version = ++res.clock;
}

void op2t_dat_to_devices(op_dat dat, int type, int off) {
  Where *w = where(dat);
  if (w->type == type && w->off == off)
    return;
  op2t_stream_settle(type, off, dat->size); /* invocations under way may still use the slot */
  if (w->type >= 0)
    drop(dat);
  op_dat other = occupant(type, off);
  if (other)
    drop(other);
  op2t_devs *d = &op2t_bound_devs()[type];
  for (int e = 0; e < d->n; e++)
    memcpy(d->state + (size_t)e * d->state_bytes + off, dat->data + (size_t)e * dat->size, (size_t)dat->size);
  op2t_record_push(type, off, dat->size);
  engine_move(op2t_current_engine()->push, "push to", dat, type, off);
  *w = (Where){type, off, false, ++res.clock, w->dev_written};
  res.counts.to_devices++;
}

void op2t_dat_written(op_dat dat) {
  where(dat)->host_stale = true;
  where(dat)->dev_written = true;
  where(dat)->version = ++res.clock;
}

/* Changes when the device copy of dat may hold other values: an invocation
 * wrote it, or the host's copy was moved in. invoke.c sends a read again
 * only when its dats' versions moved since the receivers last got it. */
unsigned op2t_dat_version(op_dat dat) { return where(dat)->version; }

int op2t_dat_device_written(op_dat dat) { return where(dat)->dev_written; }

void op2t_type_unbinding(int type) {
  for (int i = 0; i < res.n && i < op_state.ndats; i++)
    if (res.w[i].type == type && op_state.dats[i])
      drop(op_state.dats[i]);
}

const op2t_dat_counts *op2t_dat_moves(void) { return &res.counts; }

/* --- libop2_seq's hooks */

static void host_read(op_dat dat) {
  sync_to_host(dat);
  res.counts.host_reads++;
}

static void host_wrote(op_dat dat) {
  where(dat)->type = -1;
  where(dat)->version = ++res.clock;
}

static void freed(op_dat dat) { *where(dat) = (Where){-1, 0, false, ++res.clock, false}; }

static void at_exit(void) {
  op2t_stream_drain();
  op2t_engine_finish();
  op2t_bindings_free();
  op2t_land_free();
}

void op2t_resident_init(void) {
  op_rt_hooks h = {.host_read = host_read, .host_wrote = host_wrote, .freed = freed, .exiting = at_exit,
                   .timers = op2t_stream_drain};
  op_rt_set_hooks(&h);
}

/* After an engine read whole device states back into the mirror: the
 * slots whose host copy is current get the host's values again (a dat the
 * host wrote, or just moved in, is newer than what the devices held). */
void op2t_resident_reapply(void) {
  for (int i = 0; i < res.n && i < op_state.ndats; i++) {
    op_dat dat = op_state.dats[i];
    if (!dat || res.w[i].type < 0 || res.w[i].host_stale)
      continue;
    op2t_devs *d = &op2t_bound_devs()[res.w[i].type];
    for (int e = 0; e < d->n; e++)
      memcpy(d->state + (size_t)e * d->state_bytes + res.w[i].off, dat->data + (size_t)e * dat->size,
             (size_t)dat->size);
  }
}

/* Every dat whose host copy is stale comes back (an engine about to
 * reload the devices: the mirror then holds what they held). */
void op2t_resident_sync_all(void) {
  for (int i = 0; i < res.n && i < op_state.ndats; i++)
    if (op_state.dats[i])
      sync_to_host(op_state.dats[i]);
}
