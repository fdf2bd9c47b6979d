/*
 * invoke.c: one op_par_loop on the devices. The host's part of seed 000:
 * bind the invocation's tables to the call's sets, maps and dats, give the
 * devices their data and the per-device properties the maps fix, send
 * begin (with READ/MIN/MAX globals and op_opt_arg flags) to every involved
 * device, take their ends (combining INC/MIN/MAX partial results), and
 * bring written globals back. On the wire (issue 6 item 3) begin
 * goes once per thread and ends come folded up a tree of threads
 * (threads.c places the devices; OP2_TINSEL_BEGIN_END=device, FANIN,
 * CONFIG); logically every involved device still takes part.
 *
 * Dats stay resident in the device states between invocations: a call
 * loads only the dats not already there, and the host copy of a written
 * dat is brought back only when the host reads it (resident.c, through
 * libop2_seq's hooks). The engine is chosen by OP2_TINSEL_ENGINE
 * (engines.c); OP2_TINSEL_SEED seeds the functional engine's delivery order.
 * On engines that can, calls are streamed: op_par_loop returns once the
 * begin is sent, and the host waits only where the program needs a value
 * ("streamed invocations" below; OP2_TINSEL_STREAM).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2t_internal.h"
#include "softswitch.h"

static struct {
  op2t_devs *devs;          /* [ntypes] */
  char *graph_props;
  char *init_props;         /* graph properties the devices were initialised with */
  uint32_t round;
  uint64_t seed;
  const op2t_engine *engine;
  int per_device;           /* OP2_TINSEL_BEGIN_END=device: seed 000 on the wire */
  int fanin;                /* OP2_TINSEL_FANIN */
  uint32_t place_seed;      /* OP2_TINSEL_PLACE_SEED */
  int resend_always;        /* OP2_TINSEL_RESEND=always: every read every call (seed 000 as written) */
  unsigned *inits;          /* [ntypes] op2t_type_inits */
  int gbl_at_call;          /* OP2_TINSEL_GBL_WAIT=call: every call that writes a global waits for its end */
  struct sent {             /* [ninvocations]: what each arg's reads last carried to the receivers */
    unsigned generation;    /* the instance they were sent in (0: never) */
    op_dat *dat;            /* [nargs] */
    unsigned *version;      /* [nargs] op2t_dat_version then */
  } *sent;
} rt;

static void stream_init(void);
static void retire_through(unsigned order);

static void start(void) {
  const op2t_graph *g = &op2t_graph_info;
  if (g->ntypes > 127)
    op2t_fatal("graph %s has %d device types; the runtime handles at most 127", g->id, g->ntypes);
  rt.devs = op2t_calloc((size_t)g->ntypes, sizeof(op2t_devs));
  rt.graph_props = op2t_calloc((size_t)g->props_bytes, 1);
  rt.init_props = op2t_calloc((size_t)g->props_bytes, 1);
  const char *seed = getenv("OP2_TINSEL_SEED");
  rt.seed = seed && *seed ? strtoull(seed, NULL, 0) : 1;
  rt.engine = op2t_choose_engine();
  const char *grain = getenv("OP2_TINSEL_BEGIN_END");
  if (grain && *grain && strcmp(grain, "thread") != 0 && strcmp(grain, "device") != 0)
    op2t_fatal("OP2_TINSEL_BEGIN_END=%s: expected thread or device", grain);
  rt.per_device = grain && !strcmp(grain, "device");
  const char *fanin = getenv("OP2_TINSEL_FANIN");
  char *end = NULL;
  long f = fanin && *fanin ? strtol(fanin, &end, 10) : OP2T_DEFAULT_FANIN;
  if (fanin && *fanin && (*end || f < 1 || f > 1 << 16))
    op2t_fatal("OP2_TINSEL_FANIN=%s: expected a number of children per tree node, 1..65536", fanin);
  rt.fanin = (int)f;
  const char *ps = getenv("OP2_TINSEL_PLACE_SEED");
  unsigned long long v = ps && *ps ? strtoull(ps, &end, 10) : 1;
  if (ps && *ps && (*end || *ps == '-' || v > 0xffffffffull))
    op2t_fatal("OP2_TINSEL_PLACE_SEED=%s: expected a seed, 0..4294967295", ps);
  rt.place_seed = (uint32_t)v;
  const char *resend = getenv("OP2_TINSEL_RESEND");
  if (resend && *resend && strcmp(resend, "changed") != 0 && strcmp(resend, "always") != 0)
    op2t_fatal("OP2_TINSEL_RESEND=%s: expected changed (the default) or always", resend);
  rt.resend_always = resend && !strcmp(resend, "always");
  rt.sent = op2t_calloc((size_t)g->ninvocations + 1, sizeof(*rt.sent));
  if (ss_num_invocations != (uint32_t)g->ninvocations)
    op2t_fatal("the device code folds ends for %u invocations, the host tables have %d", ss_num_invocations,
               g->ninvocations);
  op2t_resident_init();
  op2t_report_init();
  const char *land = getenv("OP2_TINSEL_LAND");
  if (land && *land && strcmp(land, "host") != 0 && strcmp(land, "send") != 0)
    op2t_fatal("OP2_TINSEL_LAND=%s: expected host (the default) or send", land);
  /* RESEND=always is seed 000 as written, and the instance file must carry every edge */
  op2t_land_init(!(land && !strcmp(land, "send")) && !rt.resend_always && !op2t_instance_path);
  rt.inits = op2t_calloc((size_t)g->ntypes, sizeof(unsigned));
  const char *gw = getenv("OP2_TINSEL_GBL_WAIT");
  if (gw && *gw && strcmp(gw, "use") != 0 && strcmp(gw, "call") != 0)
    op2t_fatal("OP2_TINSEL_GBL_WAIT=%s: expected use (the default: where the program uses the global) or call", gw);
  rt.gbl_at_call = gw && !strcmp(gw, "call");
  stream_init();
}

void op2t_set_const(int k, const void *data, size_t bytes) {
  const op2t_graph *g = &op2t_graph_info;
  if (!rt.devs)
    start();
  if (k < 0 || k >= g->nconsts)
    op2t_fatal("const %d does not exist (the program has %d)", k, g->nconsts);
  if ((size_t)g->consts[k].bytes != bytes)
    op2t_fatal("const \"%s\" is %zu bytes in the program but %d in the graph properties", g->consts[k].name,
               bytes, g->consts[k].bytes);
  /* calls under way, or held until the first load, ran with the old value */
  if (memcmp(rt.graph_props + g->consts[k].off, data, bytes) != 0)
    op2t_stream_drain();
  memcpy(rt.graph_props + g->consts[k].off, data, bytes);
}

/* Type t holds set s's elements from now on (new devices if it changed). */
static void bind(int t, op_set s, const char *inv, bool *fresh) {
  op2t_devs *d = &rt.devs[t];
  const op2t_type *ty = &op2t_graph_info.types[t];
  if (d->set == s && d->n == s->size)
    return;
  if (s->size >= 1 << 24)
    op2t_fatal("%s: set \"%s\" has %d elements; the functional engine takes at most %d", inv, s->name,
               s->size, (1 << 24) - 1);
  op2t_type_unbinding(t);
  free(d->props);
  free(d->state);
  d->set = s;
  d->n = s->size;
  d->props_bytes = ty->props_bytes;
  d->state_bytes = ty->state_bytes;
  op2t_bindings_drop_type(t);
  d->props = op2t_calloc((size_t)d->n, (size_t)d->props_bytes);
  d->state = op2t_calloc((size_t)d->n, (size_t)d->state_bytes);
  for (int e = 0; e < d->n; e++) {
    int32_t index = e;
    memcpy(d->props + (size_t)e * d->props_bytes + ty->index_off, &index, sizeof(index));
  }
  fresh[t] = true;
}

/* Would binding type T to set S replace the devices it has? */
static bool replaces(int t, op_set s) {
  const op2t_devs *d = &rt.devs[t];
  return d->set && (d->set != s || d->n != s->size);
}

static void bind_all(const op2t_invocation *inv, op_set set, op_arg *args, bool *fresh) {
  const op2t_graph *g = &op2t_graph_info;
  op_set *seen = op2t_calloc((size_t)g->ntypes, sizeof(op_set));
  seen[inv->iter_type] = set;
  for (int i = 0; i < inv->nargs; i++) {
    int t = inv->args[i].type;
    if (t < 0 || !args[i].dat)
      continue;
    const op_map m = args[i].map;
    if (inv->args[i].kind == OP2T_ARG_INDIRECT && (!m || m->from != set || m->to != args[i].dat->set))
      op2t_fatal("%s: arg %d goes from set \"%s\" to dat \"%s\" on set \"%s\", but its map \"%s\" is %s -> %s",
                 inv->name, i, set->name, args[i].dat->name, args[i].dat->set->name, m ? m->name : "(none)",
                 m ? m->from->name : "?", m ? m->to->name : "?");
    if (seen[t] && seen[t] != args[i].dat->set)
      op2t_fatal("%s: arg %d's dat \"%s\" is on set \"%s\", but %s is bound to set \"%s\" in this call", inv->name,
                 i, args[i].dat->name, args[i].dat->set->name, g->types[t].name, seen[t]->name);
    seen[t] = args[i].dat->set;
  }
  for (int j = 0; j < inv->ninvolved; j++) {
    int t = inv->involved[j].type;
    if (!seen[t])
      op2t_fatal("%s: no arg of this call names a dat on %s's set (an op_opt_arg without a dat?)", inv->name,
                 g->types[t].name);
    if (replaces(t, seen[t]))
      op2t_stream_drain(); /* calls under way, or held, use those devices */
  }
  for (int j = 0; j < inv->ninvolved; j++)
    bind(inv->involved[j].type, seen[inv->involved[j].type], inv->name, fresh);
  free(seen);
}

/* OnInit of every device whose type is new, or of all when the consts changed. */
static void init_devices(const bool *fresh) {
  const op2t_graph *g = &op2t_graph_info;
  bool changed = memcmp(rt.graph_props, rt.init_props, (size_t)g->props_bytes) != 0;
  if (changed)
    op2t_instance_changed();
  for (int t = 0; t < g->ntypes; t++) {
    op2t_devs *d = &rt.devs[t];
    rt.inits[t] += fresh[t] || changed; /* the pads the host landed start again (landed.c) */
    if (!(fresh[t] || changed) || !d->n || !ss_dev_types[t].init)
      continue;
    for (int e = 0; e < d->n; e++)
      ss_dev_types[t].init(rt.graph_props, d->props + (size_t)e * d->props_bytes,
                           d->state + (size_t)e * d->state_bytes);
  }
  memcpy(rt.init_props, rt.graph_props, (size_t)g->props_bytes);
}

/* The call's dats into the device states (unless already resident); the
 * host copies of those it may write are stale afterwards (resident.c). */
static void dats_to_devices(const op2t_invocation *inv, op_arg *args) {
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    op_dat dat = args[i].dat;
    if (a->dat_off < 0 || !dat)
      continue;
    if (dat->size != a->dat_bytes)
      op2t_fatal("%s: arg %d's dat \"%s\" has %d bytes per element, the device state %d", inv->name, i,
                 dat->name, dat->size, a->dat_bytes);
    op2t_dat_to_devices(dat, a->type, a->dat_off);
  }
}

static void dats_written(const op2t_invocation *inv, op_arg *args) {
  for (int i = 0; i < inv->nargs; i++)
    if (inv->args[i].dat_off >= 0 && args[i].dat && inv->args[i].acc != OP_READ && args[i].opt) {
      op2t_dat_written(args[i].dat);
      op2t_bindings_unland(args[i].dat);
    }
}

/* Begin's fresh word: a bit per kind of read message of invocation k, set
 * when one of the dats it carries may have changed since the receivers got
 * it (op2t_dat_version), when the call reads another dat, or when the
 * instance was built or loaded again since (its buffers start empty). The
 * receivers keep the rest from the last call (lazy re-sends, issue 18). */
static uint32_t fresh_reads(int k, const op2t_invocation *inv, const op_arg *args, uint32_t landed) {
  struct sent *s = &rt.sent[k];
  unsigned generation = op2t_instance_generation() + 1; /* never 0 */
  if (!s->dat) {
    s->dat = op2t_calloc((size_t)inv->nargs + 1, sizeof(op_dat));
    s->version = op2t_calloc((size_t)inv->nargs + 1, sizeof(unsigned));
  }
  bool all = rt.resend_always || s->generation != generation;
  uint32_t fresh = 0;
  for (int i = 0; i < inv->nargs; i++) {
    int bit = inv->args[i].fresh_bit;
    if (bit >= 0 && (all || s->dat[i] != args[i].dat ||
                     (args[i].dat && s->version[i] != op2t_dat_version(args[i].dat))))
      fresh |= 1u << bit;
  }
  fresh &= ~landed; /* the host landed them (landed.c) */
  for (int i = 0; i < inv->nargs; i++)
    if (inv->args[i].fresh_bit >= 0 && fresh >> inv->args[i].fresh_bit & 1) {
      s->dat[i] = args[i].dat;
      s->version[i] = args[i].dat ? op2t_dat_version(args[i].dat) : 0;
    }
  s->generation = generation;
  return fresh;
}

/* The controller's side: partial results of INC, MIN and MAX globals; with
 * op_arg_info args, also the contributing ends folded by the invocation's
 * combine (fw_combine.c), as the threads fold them, for the elements that
 * found the MIN/MAX values. */
typedef struct {
  op_arg *args;
  char **acc;        /* [nargs] running value of each global */
  ss_combine_fn combine;
  char *end, *in;    /* op_arg_info: the ends folded so far, and the next one (aligned copies) */
  bool have_end;
  long ends;
  uint32_t round;
} Controller;

#define REDUCE(T)                                                                                  \
  do {                                                                                             \
    T *x = (T *)acc;                                                                               \
    const T *y = (const T *)in;                                                                    \
    for (int k = 0; k < n; k++)                                                                    \
      x[k] = mode == OP_INC ? (T)(x[k] + y[k]) : mode == OP_MIN ? (y[k] < x[k] ? y[k] : x[k])       \
                                                                 : (y[k] > x[k] ? y[k] : x[k]);     \
  } while (0)

static void reduce(int type, int mode, char *acc, const char *in, int bytes) {
  switch (type) {
  case OP2T_DOUBLE: { int n = bytes / 8; REDUCE(double); break; }
  case OP2T_FLOAT: { int n = bytes / 4; REDUCE(float); break; }
  case OP2T_INT: { int n = bytes / 4; REDUCE(int); break; }
  case OP2T_UINT: { int n = bytes / 4; REDUCE(unsigned); break; }
  case OP2T_LL: { int n = bytes / 8; REDUCE(long long); break; }
  case OP2T_ULL: { int n = bytes / 8; REDUCE(unsigned long long); break; }
  default: { int n = bytes; REDUCE(unsigned char); break; }
  }
}

static void on_end(op2t_run *r, int type, int dev, long devices, const void *payload) {
  Controller *c = r->controller;
  const char *p = payload;
  uint32_t round;
  memcpy(&round, p, sizeof(round));
  if (round != c->round && type < 0)
    op2t_fatal("%s: the tree of threads (%ld devices) ended round %u during round %u", r->inv->name, devices,
               round, c->round);
  if (round != c->round)
    op2t_fatal("%s: %s %d ended round %u during round %u", r->inv->name, r->graph->types[type].name, dev, round,
               c->round);
  c->ends += devices;
  if (!p[r->inv->contributes_off])
    return;
  for (int i = 0; i < r->inv->nargs; i++) {
    const op2t_arg *a = &r->inv->args[i];
    if (a->kind == OP2T_ARG_GBL && a->end_off >= 0 && c->args[i].opt)
      reduce(a->gbl_type, a->acc, c->acc[i], p + a->end_off, a->gbl_bytes);
  }
  if (c->end) {
    memcpy(c->have_end ? c->in : c->end, p, (size_t)r->inv->end_bytes);
    if (c->have_end)
      c->combine(c->end, c->in);
    c->have_end = true;
  }
}

/* op_arg_info: the info of the element the folded ends name, if one found
 * a better MIN/MAX value than the host's; else the host's info stays. */
static void info_result(const op2t_invocation *inv, const Controller *c) {
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    uint32_t elem;
    if (a->kind != OP2T_ARG_INFO || !c->have_end || !c->args[i].data)
      continue;
    if (c->args[i].size != a->gbl_bytes)
      op2t_fatal("%s: arg %d is a %d-byte op_arg_info in the call, %d in the table", inv->name, i, c->args[i].size,
                 a->gbl_bytes);
    memcpy(&elem, c->end + a->elem_off, sizeof(elem));
    if (elem != UINT32_MAX)
      memcpy(c->args[i].data, c->end + a->end_off, (size_t)a->gbl_bytes);
  }
}

/* ------------------------------------------------ streamed invocations
 *
 * Issue 18 item 2: with an engine that can (op2t_engine.start), a call
 * sends its begin and returns; the threads run it as soon as their devices
 * are done with the invocations before it (softswitch.c holds begins that
 * come early). The host waits only where it must:
 * - a call that writes a global (INC, MIN, MAX, WRITE, RW, op_arg_info)
 *   returns when its end is in: the program reads the variable next;
 * - before a call of an invocation still under way (its landing pads and
 *   counters are per invocation), and before one that writes a dat
 *   through a map that a call under way uses at all (the write would land
 *   in the receiver's state while the earlier call may still read it);
 *   reads through maps, and direct access, need no wait: a device runs the
 *   later call after its own part of the earlier one, which includes every
 *   write it receives;
 * - when the host moves a dat (op_fetch_data and the other host reads,
 *   op_decl_dat and pushes), reads the timers, changes the instance (new
 *   sets, maps or constants: the engine reloads), and at op_exit.
 * OP2_TINSEL_STREAM=0 runs one invocation at a time with a barrier after
 * each (seed 000 as written, the reference); N (1..SS_MAX_HELD_BEGINS, the
 * default) is how many may be under way at once.
 *
 * Held calls (issue 19): an engine that loads the instance holds the
 * calls made before anything is loaded (op2t_engine.holding) and loads
 * once, at the first wait, with every invocation bound by then. Until
 * then a held call is not on the threads: the instance may grow under it
 * (new bindings, new devices of other types, dats moved into state it does
 * not use) and it takes no place in the window; the engine keeps the
 * window and the calls each must follow when it sends them. What a held
 * call sees must not change: a call of the same invocation, new constants,
 * devices replaced and a dat moved into state a held call uses wait for
 * it (the load) first, as for calls under way. */

typedef struct {
  bool live;
  int k;
  unsigned order;          /* issue order: the threads run calls in it */
  op2t_run run;
  Controller c;
  op_arg *args;            /* a copy: the caller's array is gone when the end comes */
  char *begin;
  op2t_inv_record *rec;
  long involved;
  bool deferred;           /* writes globals whose results land at its retirement (op2t_gbl_ready) */
} Flight;

static struct {
  Flight *f;               /* [nslots] */
  int nslots;              /* the window, or one per invocation (held calls) */
  int n;                   /* under way */
  int window;              /* OP2_TINSEL_STREAM: at most this many (0: no streaming) */
  unsigned seq;            /* the last call's Flight.order */
  unsigned generation;     /* the instance they were started in */
  int draining;
} st;

/* op2c defines it (returning 1) in op2_host.c when a kernel may print: the
 * devices' lines of a call must come before the host's next line, so such
 * a program runs its invocations one at a time. */
__attribute__((weak)) int op2t_device_prints(void) { return 0; }
/* op2c defines it (returning 1) when built with --count-events: the
 * devices' softswitch counts every message received and every step. */
__attribute__((weak)) int op2t_counts_events(void) { return 0; }

static void stream_init(void) {
  const char *e = getenv("OP2_TINSEL_STREAM");
  char *end = NULL;
  long w = e && *e ? strtol(e, &end, 10) : (long)SS_MAX_HELD_BEGINS;
  if (e && *e && (*end || w < 0 || w > (long)SS_MAX_HELD_BEGINS))
    op2t_fatal("OP2_TINSEL_STREAM=%s: expected 0 (a barrier after every invocation) or how many may be under "
               "way, 1..%u", e, SS_MAX_HELD_BEGINS);
  st.window = rt.engine->start && rt.engine->wait && !rt.per_device && !op2t_device_prints() ? (int)w : 0;
  st.nslots = op2t_graph_info.ninvocations > (int)SS_MAX_HELD_BEGINS ? op2t_graph_info.ninvocations
                                                                      : (int)SS_MAX_HELD_BEGINS;
  st.f = op2t_calloc((size_t)st.nslots, sizeof(Flight)); /* never moves: engines keep &f->run */
}

/* Are the calls started now held by the engine (not on the threads)? */
static bool held(void) { return st.window && rt.engine->holding && rt.engine->holding(); }

static void complete(Flight *f) {
  const op2t_invocation *inv = f->run.inv;
  if (f->c.ends != f->involved)
    op2t_fatal("%s: %ld of %ld involved devices ended the invocation (a protocol deadlock)", inv->name, f->c.ends,
               f->involved);
  f->rec->counts.calls++;
  f->rec->counts.devices += f->involved;
}

static void release(Flight *f) {
  for (int i = 0; i < f->run.inv->nargs; i++)
    free(f->c.acc[i]);
  free(f->c.acc);
  free(f->c.end);
  free(f->c.in);
  free(f->begin);
  free(f->args);
  f->live = false;
}

static void wait_flight(Flight *f) {
  if (rt.engine->wait(&f->run))
    op2t_fatal("%s: the %s engine failed", f->run.inv->name, rt.engine->name);
  complete(f);
  st.n--;
}

static Flight *oldest(void) {
  Flight *o = NULL;
  for (int i = 0; i < st.nslots; i++)
    if (st.f[i].live && (!o || st.f[i].order < o->order))
      o = &st.f[i];
  return o;
}

/* The call's written globals from the controller into the program's variables. */
static void write_back(Flight *f) {
  const op2t_invocation *inv = f->run.inv;
  info_result(inv, &f->c);
  for (int i = 0; i < inv->nargs; i++)
    if (f->c.acc[i] && inv->args[i].acc != OP_READ)
      memcpy(f->args[i].data, f->c.acc[i], (size_t)inv->args[i].gbl_bytes);
}

/* Waits for the oldest call under way and frees its slot; false if none. */
static bool retire_oldest(void) {
  Flight *o = oldest();
  if (!o)
    return false;
  wait_flight(o);
  if (o->deferred)
    write_back(o);
  release(o);
  return true;
}

/* Every invocation under way has ended; the devices' output is out. */
void op2t_stream_drain(void) {
  if (st.draining || !st.n)
    return;
  st.draining = 1;
  while (retire_oldest()) {
  }
  if (rt.engine->flush)
    rt.engine->flush();
  st.draining = 0;
}

/* --- Globals whose results land later (op_tinsel.h OP2T_GBL_SCOPE, OP2T_GBL).
 * A call that writes a global waits for its end before op_par_loop returns,
 * unless op2c guards the variable: then every use of it waits (op2t_gbl_ready),
 * and so does the end of its scope, for the calls under way that write it,
 * and the result is written when the call retires. */

typedef struct GblScope {
  const char *addr;
  size_t bytes;
  struct GblScope *next;
} GblScope;
static GblScope *scopes;
static long deferred_calls;

static bool guarded(const void *addr, size_t bytes) {
  for (const GblScope *g = scopes; g; g = g->next)
    if ((const char *)addr >= g->addr && (const char *)addr + bytes <= g->addr + g->bytes)
      return true;
  return false;
}

/* Must the call wait for its end (a global it writes is not guarded, or an op_arg_info)? */
static bool writes_gbl(const op2t_invocation *inv, const op_arg *args) {
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (!args[i].opt || (a->kind != OP2T_ARG_INFO && (a->kind != OP2T_ARG_GBL || a->acc == OP_READ)))
      continue;
    if (a->kind == OP2T_ARG_INFO || rt.gbl_at_call || !args[i].data || !guarded(args[i].data, (size_t)a->gbl_bytes))
      return true;
  }
  return false;
}

/* Waits for the calls under way that write a global overlapping [ADDR, ADDR + BYTES). */
static void wait_written(const void *addr, size_t bytes) {
  unsigned last = 0;
  for (int i = 0; i < st.nslots; i++) {
    const Flight *f = &st.f[i];
    for (int j = 0; f->live && f->deferred && j < f->run.inv->nargs; j++) {
      const op2t_arg *a = &f->run.inv->args[j];
      const char *p = f->args[j].data;
      if (a->kind == OP2T_ARG_GBL && a->acc != OP_READ && f->args[j].opt && p &&
          p < (const char *)addr + bytes && (const char *)addr < p + a->gbl_bytes && f->order > last)
        last = f->order;
    }
  }
  if (last)
    retire_through(last);
}

void *op2t_gbl_scope_begin(void *addr, size_t bytes) {
  GblScope *g = op2t_calloc(1, sizeof(GblScope));
  *g = (GblScope){addr, bytes, scopes};
  scopes = g;
  return g;
}

void op2t_gbl_scope_end(void **guard) {
  GblScope *g = *guard, **p = &scopes;
  wait_written(g->addr, g->bytes);
  while (*p && *p != g)
    p = &(*p)->next;
  if (*p)
    *p = g->next;
  free(g);
}

void *op2t_gbl_ready(void *addr, size_t bytes) {
  wait_written(addr, bytes);
  return addr;
}

long op2t_deferred_calls(void) { return deferred_calls; }

/* Must a call with ARGS wait for F, under way? (A call of F's own
 * invocation has waited already: op2t_invoke's follow_same.) */
static bool must_wait(const Flight *f, const op2t_invocation *inv, const op_arg *args) {
  for (int i = 0; i < inv->nargs; i++) {
    if (inv->args[i].kind != OP2T_ARG_INDIRECT || inv->args[i].acc == OP_READ || !args[i].dat || !args[i].opt)
      continue;
    for (int j = 0; j < f->run.inv->nargs; j++)
      if (f->args[j].dat == args[i].dat)
        return true;
  }
  return false;
}

/* Waits for call ORDER and every call before it (the threads run them in order anyway). */
static void retire_through(unsigned order) {
  while (oldest() && oldest()->order <= order)
    retire_oldest();
}

/* Waits for the call of invocation K under way, and every call before it. */
static void follow_same(int k) {
  for (int i = 0; i < st.nslots; i++)
    if (st.f[i].live && st.f[i].k == k)
      retire_through(st.f[i].order);
}

/* Waits for what a call of INV with ARGS must follow (held: notes the latest in *AFTER),
 * and for room in the window; returns a free slot. */
static Flight *make_room(const op2t_invocation *inv, const op_arg *args, unsigned *after) {
  bool hold = held();
  if (st.n && !hold && st.generation != op2t_instance_generation())
    op2t_stream_drain();
  for (int i = 0; i < st.nslots; i++) {
    Flight *f = &st.f[i];
    if (!f->live || !must_wait(f, inv, args))
      continue;
    if (hold)
      *after = f->order > *after ? f->order : *after;
    else
      retire_through(f->order);
  }
  while (!hold && st.n >= st.window)
    retire_oldest();
  for (int i = 0; i < st.nslots; i++)
    if (!st.f[i].live)
      return &st.f[i];
  op2t_fatal("no room for another invocation under way"); /* one per invocation at most */
}

/* Does a call under way use bytes [OFF, OFF + BYTES) of TYPE's state? */
static bool uses_state(int type, int off, int bytes) {
  for (int i = 0; i < st.nslots; i++)
    for (int j = 0; st.f[i].live && j < st.f[i].run.inv->nargs; j++) {
      const op2t_arg *a = &st.f[i].run.inv->args[j];
      if (a->dat_off >= 0 && a->type == type && a->dat_off < off + bytes && off < a->dat_off + a->dat_bytes)
        return true;
    }
  return false;
}

/* Before those bytes change in the mirror (a dat moved in, resident.c):
 * held calls that do not use them may stay held; else every call under
 * way must end first. */
void op2t_stream_settle(int type, int off, int bytes) {
  if (st.n && (!held() || uses_state(type, off, bytes)))
    op2t_stream_drain();
}

/* The begin message of a call: its round, the fresh word, op_opt_arg flags,
 * READ/MIN/MAX globals; the controller's running values start from the host's. */
static char *make_begin(int k, const op2t_invocation *inv, op_arg *args, uint32_t landed, Controller *c) {
  char *begin = op2t_calloc((size_t)inv->begin_bytes, 1);
  memcpy(begin, &c->round, sizeof(c->round));
  if (inv->fresh_off > 0) {
    uint32_t fresh = fresh_reads(k, inv, args, landed);
    memcpy(begin + inv->fresh_off, &fresh, sizeof(fresh));
  }
  for (int i = 0; i < inv->nargs; i++) {
    const op2t_arg *a = &inv->args[i];
    if (a->opt_off >= 0)
      begin[a->opt_off] = (char)(args[i].opt != 0);
    if ((a->kind != OP2T_ARG_GBL && a->kind != OP2T_ARG_INFO) || !args[i].opt || !args[i].data)
      continue;
    if (args[i].size != a->gbl_bytes)
      op2t_fatal("%s: arg %d is a %d-byte global in the call, %d in the table", inv->name, i, args[i].size,
                 a->gbl_bytes);
    if (a->begin_off >= 0)
      memcpy(begin + a->begin_off, args[i].data, (size_t)a->gbl_bytes);
    if (a->kind == OP2T_ARG_INFO)
      continue; /* its value comes from the folded ends (info_result) */
    c->acc[i] = op2t_calloc((size_t)a->gbl_bytes, 1);
    memcpy(c->acc[i], args[i].data, (size_t)a->gbl_bytes);
  }
  return begin;
}

/* Bind call K's sets, place and initialise new devices, bind its edges
 * and move its dats in. */
static void prepare(int k, const op2t_invocation *inv, op_set set, op_arg *args, const op2t_fanouts **fs) {
  const op2t_graph *g = &op2t_graph_info;
  bool *fresh = op2t_calloc((size_t)g->ntypes, sizeof(bool));
  bind_all(inv, set, args, fresh);
  bool replace = false;
  for (int t = 0; t < g->ntypes; t++)
    replace |= fresh[t];
  if (replace && !rt.per_device)
    op2t_place(rt.devs, g->ntypes);
  /* New constants: OnInit loads them into the kernels' globals, which the
   * engines that run device code on the host share with calls under way. */
  if (st.n && memcmp(rt.graph_props, rt.init_props, (size_t)g->props_bytes) != 0)
    op2t_stream_drain();
  init_devices(fresh);
  free(fresh);
  *fs = op2t_bind_call(k, set, args, rt.devs);
  dats_to_devices(inv, args);
  op2t_land_reads(k, inv, args, *fs, rt.devs);
}

void op2t_invoke(const op2t_invocation *inv, const char *name, op_set set, int nargs, op_arg *args) {
  const op2t_graph *g = &op2t_graph_info;
  if (!rt.devs)
    start();
  double t0 = op_rt_loop_enter(name, set, nargs, args);
  if (nargs != inv->nargs)
    op2t_fatal("%s: called with %d args, the table has %d", inv->name, nargs, inv->nargs);
  int k = 0;
  while (g->invocations[k] != inv)
    k++;
  /* its landing pads and counters, and a binding held calls may still need */
  follow_same(k);
  /* the globals it reads or writes, as calls under way will leave them (its begin carries them) */
  for (int i = 0; i < nargs; i++)
    if ((inv->args[i].kind == OP2T_ARG_GBL || inv->args[i].kind == OP2T_ARG_INFO) && args[i].opt && args[i].data)
      wait_written(args[i].data, (size_t)inv->args[i].gbl_bytes);
  const op2t_fanouts *fs;
  prepare(k, inv, set, args, &fs);
  bool sync = !st.window || writes_gbl(inv, args);
  if (!st.window)
    op2t_stream_drain();
  unsigned after = 0;
  Flight *f = st.window ? make_room(inv, args, &after) : &st.f[0];
  *f = (Flight){.live = true, .k = k, .order = ++st.seq, .deferred = !sync};
  f->args = op2t_calloc((size_t)nargs + 1, sizeof(op_arg));
  if (nargs) /* args may be NULL then */
    memcpy(f->args, args, (size_t)nargs * sizeof(op_arg));
  f->c = (Controller){f->args, op2t_calloc((size_t)nargs + 1, sizeof(char *)), ss_end_combine[k], NULL, NULL, false,
                      0, ++rt.round};
  for (int i = 0; i < nargs; i++)
    if (inv->args[i].kind == OP2T_ARG_INFO && !f->c.end) {
      f->c.end = op2t_calloc((size_t)inv->end_bytes, 1);
      f->c.in = op2t_calloc((size_t)inv->end_bytes, 1);
    }
  f->begin = make_begin(k, inv, args, fs->landed, &f->c);
  f->rec = op2t_record(inv);
  op2t_record_step(k, f->begin, inv->begin_bytes, rt.graph_props);
  f->run = (op2t_run){.graph = g, .inv = inv, .devs = rt.devs, .graph_props = rt.graph_props, .fanouts = fs->f,
                      .nfanouts = fs->n, .part = (const uint8_t *const *)fs->part, .k = k,
                      .instance = op2t_instance_generation(), .order = f->order,
                      .after = after, .window = st.window, .begin = f->begin,
                      .on_end = on_end, .controller = &f->c, .counts = &f->rec->counts,
                      .seed = rt.seed ^ ((uint64_t)rt.round << 32)};
  if (!rt.per_device) {
    f->run.thread = op2t_threads();
    f->run.threads_per_mbox = op2t_threads_per_mbox();
    f->run.fanin = rt.fanin;
    f->run.combine = ss_end_combine[k];
  }
  f->involved = fs->parts;
  op2t_record_call(f->rec, inv, fs, rt.devs);
  if (!st.window) {
    if (rt.engine->run(&f->run))
      op2t_fatal("%s: the %s engine failed", inv->name, rt.engine->name);
    complete(f);
  } else {
    if (rt.engine->start(&f->run))
      op2t_fatal("%s: the %s engine failed", inv->name, rt.engine->name);
    st.n++;
    st.generation = f->run.instance;
    if (sync)
      wait_flight(f);
  }
  dats_written(inv, args);
  if (sync) {
    write_back(f);
    release(f);
  } else {
    for (int i = 0; i < nargs; i++)
      if (inv->args[i].kind == OP2T_ARG_GBL && inv->args[i].acc != OP_READ && args[i].opt) {
        deferred_calls++; /* a written global, guarded: its result lands at retirement */
        break;
      }
  }
  op_rt_loop_exit(name, set, nargs, args, t0);
}

const char *op2t_grain(void) {
  static char buf[160];
  if (rt.per_device)
    return "begin and end per device";
  snprintf(buf, sizeof(buf), "begin per thread, ends up a %d-ary tree of threads, on %s", rt.fanin,
           op2t_config_name());
  return buf;
}

op2t_devs *op2t_bound_devs(void) { return rt.devs; }

unsigned op2t_type_inits(int type) { return rt.inits[type]; }

/* OP2_TINSEL_PLACE_SEED=N: METIS's seed for every placement of the run
 * (default 1): the same instance placed another way, e.g. to tell a
 * change's effect on the simulated cycles from the placement's. */
uint32_t op2t_place_seed(void) { return rt.place_seed; }
