// protocol.c: lowers each par-loop to seed 000's invocation protocol.
//
// Every set becomes a device type. An invocation involves the iteration set
// and every set reached through a map (its indirect read and write sets);
// each involved device takes one {inv}_begin and gives one {inv}_end. Data
// moves on pins:
//
//   {to_set}.{inv}_{dat}_read_send    a dat an indirect READ/RW arg reads,
//                                     sent once and fanned out to every user
//   {iter}.{inv}_arg{i}_read_recv     lands in {inv}_arg{i}_buffer
//
// Reads through the same map and slot share a message up to max_payload:
// {to_set}.{inv}_{dat1}_and_{dat2}_read_send carries both dats, and the
// read_recv pin of the first such arg lands each in its arg's buffer (the
// other args have no read pins of their own).
//   {iter}.{inv}_arg{i}_write_send    an indirect WRITE/RW/INC arg's buffer
//   {to_set}.{inv}_arg{i}_write_recv  applied to the dat (INC adds, else copies)
//
// An element's writes share a message up to max_payload, one array per arg:
// {iter}.{inv}_arg{i}_and_arg{j}_write_send goes to every element either
// arg writes, and arg i's write_recv takes arg i's values (res_calc: an
// edge sends both its cells' increments in one multicast).
//
// Vector args (idx -m) read or write m slots: one recv/send per slot, the
// slot carried as an edge property, as in the graph_schema prototype.
// Globals: READ, MIN and MAX start from the host's value on {inv}_begin;
// INC, MIN and MAX partial results return on {inv}_end; consts are graph
// properties. An op_arg_info value rides with the globals both ways, and on
// end with the element that found it (argmin/argmax, docs/tinsel-backend.md).
// Direct args use the device's own dat. This pass only describes the
// protocol; a back end turns it into handlers, and the host runtime counts
// per-device totals (write_recv_total) from the mesh.
#include "op2c.h"

#include <string.h>

static int elem_bytes(const IRArg *a) {
  const TypeInfo *ti = a->type ? type_lookup(a->type) : NULL;
  return ti && a->dim > 0 ? ti->size * a->dim : -1;
}

static void add_set(ProtoInvocation *inv, IRSet *s) {
  for (int i = 0; i < inv->nsets; i++)
    if (inv->sets[i] == s)
      return;
  VEC_PUSH(inv->sets, inv->nsets, s);
}

static void add_pin(ProtoInvocation *inv, ProtoPin pin) { VEC_PUSH(inv->pins, inv->npins, pin); }

static ProtoPin *find_read_send(ProtoInvocation *inv, IRDat **dats, int ndats) {
  for (int i = 0; i < inv->npins; i++) {
    ProtoPin *p = &inv->pins[i];
    if (p->kind != PIN_READ_SEND || p->ndats != ndats)
      continue;
    int k = 0;
    while (k < ndats && p->dats[k] == dats[k])
      k++;
    if (k == ndats)
      return p;
  }
  return NULL;
}

static bool reads(Access acc) { return acc == ACC_READ || acc == ACC_RW; }
static bool writes(Access acc) { return acc != ACC_READ; }
static bool reads_indirect(const IRArg *a) { return a->kind == ARG_DAT && a->map && a->dat && reads(a->acc); }

// The reads of an element through one map slot (or one vector of slots):
// a single message from each source element carries every dat they read,
// once each, so a source sends one multicast instead of one per dat and an
// element receives one message instead of one per arg.
typedef struct {
  IRDat **dats; int ndats;
  int *args; int nargs;
} ReadGroup;

// Payload of a message carrying these dats as C lays it out (each array
// aligned to its element, the struct to its largest); -1 if a type is unknown.
static int dats_bytes(IRDat *const *dats, int n) {
  int off = 0, align = 1;
  for (int i = 0; i < n; i++) {
    const TypeInfo *ti = type_lookup(dats[i]->type);
    if (!ti || ti->size <= 0 || dats[i]->dim <= 0)
      return -1;
    off = (off + ti->size - 1) / ti->size * ti->size + ti->size * dats[i]->dim;
    align = ti->size > align ? ti->size : align;
  }
  return (off + align - 1) / align * align;
}

// Whether a message carrying dats[0..n) and then d still fits max_payload.
static bool fits_with(IRDat *const *dats, int n, IRDat *d, int max_payload) {
  IRDat **all = xcalloc((size_t)n + 1, sizeof(IRDat *));
  memcpy(all, dats, sizeof(IRDat *) * (size_t)n);
  all[n] = d;
  int bytes = dats_bytes(all, n + 1);
  return bytes >= 0 && bytes <= max_payload;
}

// Whether group g can take arg a: the same map and slot(s), and its dat
// already carried or still fitting max_payload.
static bool group_takes(const IRLoop *loop, const ReadGroup *g, const IRArg *a, int max_payload) {
  const IRArg *first = &loop->args[g->args[0]];
  if (first->map != a->map || first->idx != a->idx)
    return false;
  for (int k = 0; k < g->ndats; k++)
    if (g->dats[k] == a->dat)
      return true;
  return fits_with(g->dats, g->ndats, a->dat, max_payload);
}

// Groups the reading indirect args; group_of[i]: arg i's group or -1.
static ReadGroup *read_groups(const IRLoop *loop, int max_payload, int *group_of, int *ngroups) {
  ReadGroup *groups = NULL;
  *ngroups = 0;
  for (int i = 0; i < loop->nargs; i++) {
    const IRArg *a = &loop->args[i];
    group_of[i] = -1;
    if (!reads_indirect(a))
      continue;
    int g = 0;
    while (g < *ngroups && !group_takes(loop, &groups[g], a, max_payload))
      g++;
    if (g == *ngroups)
      VEC_PUSH(groups, *ngroups, ((ReadGroup){0}));
    ReadGroup *rg = &groups[g];
    int k = 0;
    while (k < rg->ndats && rg->dats[k] != a->dat)
      k++;
    if (k == rg->ndats)
      VEC_PUSH(rg->dats, rg->ndats, a->dat);
    VEC_PUSH(rg->args, rg->nargs, i);
    group_of[i] = g;
  }
  return groups;
}

// The writes of an element: one message carries every indirect write arg's
// values, each in its own field, to every element they go to, where each
// write_recv pin takes its arg's field. An element then sends one
// multicast instead of one message per arg (res_calc: an edge's two
// increments of p_res). Vector args (one send per slot) and op_opt_args
// (whose sends the host may switch off) keep groups of their own.
typedef struct {
  int *args; int nargs;
  IRDat **dats; int ndats; // args' dats in arg order, for the layout (a dat may repeat)
  bool alone;              // a vector or optional arg: nothing joins it
} WriteGroup;

static bool writes_indirect(const IRArg *a) { return a->kind == ARG_DAT && a->map && a->dat && writes(a->acc); }

// Groups the indirect write args, first fit up to max_payload; group_of[i]:
// arg i's group or -1.
static WriteGroup *write_groups(const IRLoop *loop, int max_payload, int *group_of, int *ngroups) {
  WriteGroup *groups = NULL;
  *ngroups = 0;
  for (int i = 0; i < loop->nargs; i++) {
    const IRArg *a = &loop->args[i];
    group_of[i] = -1;
    if (!writes_indirect(a))
      continue;
    bool alone = a->idx < 0 || a->opt;
    int g = 0;
    while (g < *ngroups &&
           (alone || groups[g].alone || !fits_with(groups[g].dats, groups[g].ndats, a->dat, max_payload)))
      g++;
    if (g == *ngroups)
      VEC_PUSH(groups, *ngroups, ((WriteGroup){.alone = alone}));
    VEC_PUSH(groups[g].args, groups[g].nargs, i);
    VEC_PUSH(groups[g].dats, groups[g].ndats, a->dat);
    group_of[i] = g;
  }
  return groups;
}

// Name part for a write group's pin and message: arg6, or arg6_and_arg7.
static char *args_name(const WriteGroup *wg) {
  char *s = format("arg%d", wg->args[0]);
  for (int k = 1; k < wg->nargs; k++)
    s = format("%s_and_arg%d", s, wg->args[k]);
  return s;
}

// Name part for the dats of a message: p_q, or p_q_and_p_adt.
static char *dats_name(IRDat *const *dats, int n) {
  char *s = xstrdup(dats[0]->var);
  for (int k = 1; k < n; k++)
    s = format("%s_and_%s", s, dats[k]->var);
  return s;
}

static void lower_indirect(ProtoInvocation *inv, const IRLoop *loop, int i, const ReadGroup *rg,
                           const WriteGroup *wg) {
  const IRArg *a = &loop->args[i];
  IRSet *iter = loop->set, *to = a->dat->set;
  int slots = a->idx <= -2 ? -a->idx : 1;
  int bytes = elem_bytes(a);
  add_set(inv, to);
  if (rg && rg->args[0] == i) { // the group's first arg stands for all of them
    int rbytes = rg->ndats == 1 ? bytes : dats_bytes(rg->dats, rg->ndats);
    if (!find_read_send(inv, rg->dats, rg->ndats))
      add_pin(inv, (ProtoPin){PIN_READ_SEND, to,
                              format("%s_%s_read_send", loop->invocation, dats_name(rg->dats, rg->ndats)),
                              a->dat, -1, 1, ACC_READ, rbytes, rg->dats, rg->ndats, NULL, 0});
    add_pin(inv, (ProtoPin){PIN_READ_RECV, iter, format("%s_arg%d_read_recv", loop->invocation, i),
                            a->dat, i, slots, a->acc, rbytes, rg->dats, rg->ndats, rg->args, rg->nargs});
    inv->read_recv_per_elem += slots;
  }
  if (wg) { // an arg that writes
    int wbytes = wg->nargs > 1 ? dats_bytes(wg->dats, wg->ndats) : bytes;
    if (wg->args[0] == i) { // a group's first arg sends for all of them
      add_pin(inv, (ProtoPin){PIN_WRITE_SEND, iter, format("%s_%s_write_send", loop->invocation, args_name(wg)),
                              a->dat, i, slots, a->acc, wbytes, NULL, 0, wg->args, wg->nargs});
      inv->write_send_per_elem += slots;
    }
    add_pin(inv, (ProtoPin){PIN_WRITE_RECV, to, format("%s_arg%d_write_recv", loop->invocation, i),
                            a->dat, i, slots, a->acc, wbytes, NULL, 0, wg->args, wg->nargs});
  }
}

// READ, MIN and MAX globals start from the host's value, carried by begin;
// INC, MIN and MAX globals return partial results on end. An optional arg's
// flag is decided by the host at run time, so it rides on begin too.
static void lower_gbl(ProtoInvocation *inv, const IRArg *a) {
  const TypeInfo *ti = type_lookup(a->type);
  int bytes = a->dim * (ti ? ti->size : 0);
  if (a->gbl_const)
    return; // a graph property, not a message
  if (a->acc != ACC_INC)
    inv->begin_bytes += bytes;
  if (a->acc != ACC_READ)
    inv->end_bytes += bytes;
}

// op_arg_info: its value starts from the host's on begin and returns on end
// with the number of the element that found it (uint32_t; graph.c, fw_combine.c).
static void lower_info(ProtoInvocation *inv, const IRArg *a) {
  const TypeInfo *ti = type_lookup(a->type);
  int bytes = a->dim * (ti ? ti->size : 0);
  inv->begin_bytes += bytes;
  inv->end_bytes += bytes + 4;
}

static ProtoInvocation *lower_loop(const IRLoop *loop, int max_payload) {
  ProtoInvocation *inv = xcalloc(1, sizeof(ProtoInvocation));
  inv->loop = loop;
  int ngroups, *group_of = xcalloc((size_t)loop->nargs + 1, sizeof(int));
  ReadGroup *groups = read_groups(loop, max_payload, group_of, &ngroups);
  int nwgroups, *wgroup_of = xcalloc((size_t)loop->nargs + 1, sizeof(int));
  WriteGroup *wgroups = write_groups(loop, max_payload, wgroup_of, &nwgroups);
  add_set(inv, loop->set);
  for (int i = 0; i < loop->nargs; i++)
    inv->begin_bytes += loop->args[i].opt ? 1 : 0;
  for (int i = 0; i < loop->nargs; i++) {
    const IRArg *a = &loop->args[i];
    if (a->kind == ARG_DAT && a->map && a->dat)
      lower_indirect(inv, loop, i, group_of[i] >= 0 ? &groups[group_of[i]] : NULL,
                     wgroup_of[i] >= 0 ? &wgroups[wgroup_of[i]] : NULL);
    else if (a->kind == ARG_GBL)
      lower_gbl(inv, a);
    else if (a->kind == ARG_IDX)
      inv->nidx++; // a static value per element: a device property, not a message
    else if (a->kind == ARG_INFO)
      lower_info(inv, a);
  }
  add_pin(inv, (ProtoPin){PIN_BEGIN, NULL, format("%s_begin", loop->invocation), NULL, -1, 1,
                          ACC_READ, inv->begin_bytes, NULL, 0, NULL, 0});
  add_pin(inv, (ProtoPin){PIN_END, NULL, format("%s_end", loop->invocation), NULL, -1, 1, ACC_READ,
                          inv->end_bytes, NULL, 0, NULL, 0});
  return inv;
}

Protocol *protocol_lower(const Program *prog, int max_payload) {
  Protocol *p = xcalloc(1, sizeof(Protocol));
  p->prog = prog;
  for (int i = 0; i < prog->nloops; i++)
    VEC_PUSH(p->invocations, p->ninvocations, lower_loop(prog->loops[i], max_payload));
  return p;
}

// The bytes op_arg_info adds to a loop's end (lower_info); *values: without
// the element numbers.
static int info_bytes(const IRLoop *l, int *values) {
  int bytes = 0;
  *values = 0;
  for (int i = 0; i < l->nargs; i++)
    if (l->args[i].kind == ARG_INFO) {
      *values += elem_bytes(&l->args[i]);
      bytes += elem_bytes(&l->args[i]) + 4;
    }
  return bytes;
}

// Checks every message of the protocol against a payload limit (Tinsel:
// 64-byte messages less the header the back end reserves).
void protocol_check_sizes(const Protocol *p, int max_payload) {
  for (int i = 0; i < p->ninvocations; i++) {
    const ProtoInvocation *inv = p->invocations[i];
    if (protocol_read_sends(inv) > 32)
      error_tok(inv->loop->tok, "invocation %s sends %d kinds of read message (dats through maps); begin's "
                "32-bit fresh word names at most 32", inv->loop->invocation, protocol_read_sends(inv));
    for (int j = 0; j < inv->npins; j++) {
      const ProtoPin *pin = &inv->pins[j];
      if (pin->bytes <= max_payload)
        continue;
      const Token *at = pin->arg >= 0 ? inv->loop->args[pin->arg].tok : inv->loop->tok;
      int values;
      if (pin->dat)
        error_tok(at, "message %s carries %d bytes (dat '%s': %d x %s), more than the %d a message can hold",
                  pin->name, pin->bytes, pin->dat->var, pin->dat->dim, pin->dat->type, max_payload);
      else if (pin->kind == PIN_END && info_bytes(inv->loop, &values))
        error_tok(at, "message %s carries %d bytes of globals (op_arg_info: %d bytes of values and %d of element "
                      "numbers), more than the %d a message can hold",
                  pin->name, pin->bytes, values, info_bytes(inv->loop, &values) - values, max_payload);
      else
        error_tok(at, "message %s carries %d bytes of globals, more than the %d a message can hold",
                  pin->name, pin->bytes, max_payload);
    }
  }
}

static const char *pin_kind_name(PinKind k) {
  static const char *names[] = {
      [PIN_BEGIN] = "begin", [PIN_READ_SEND] = "read_send", [PIN_READ_RECV] = "read_recv",
      [PIN_WRITE_SEND] = "write_send", [PIN_WRITE_RECV] = "write_recv", [PIN_END] = "end",
  };
  return names[k];
}

void protocol_dump(FILE *out, const Protocol *p) {
  for (int i = 0; i < p->ninvocations; i++) {
    const ProtoInvocation *inv = p->invocations[i];
    fprintf(out, "invocation %s kernel %s iter %s sets", inv->loop->invocation,
            inv->loop->kernel_name, inv->loop->set->var);
    for (int j = 0; j < inv->nsets; j++)
      fprintf(out, " %s", inv->sets[j]->var);
    fprintf(out, "\n  per-element read_recv %d write_send %d\n", inv->read_recv_per_elem,
            inv->write_send_per_elem);
    for (int j = 0; j < inv->npins; j++) {
      const ProtoPin *pin = &inv->pins[j];
      fprintf(out, "  %-10s %s%s%s", pin_kind_name(pin->kind), pin->set ? pin->set->var : "controller",
              pin->set ? "." : ":", pin->name);
      if (pin->dat)
        fprintf(out, " dat %s %s", pin->ndats > 1 ? dats_name(pin->dats, pin->ndats) : pin->dat->var,
                access_name(pin->acc));
      bool write = pin->kind == PIN_WRITE_SEND || pin->kind == PIN_WRITE_RECV;
      for (int k = write ? 0 : 1; k < pin->nargs && (!write || pin->nargs > 1); k++)
        fprintf(out, "%s%d", k == !write ? (write ? " message of args " : " also args ") : ",", pin->args[k]);
      if (pin->slots > 1)
        fprintf(out, " slots %d", pin->slots);
      fprintf(out, " bytes %d\n", pin->bytes);
    }
  }
}

const ProtoPin *protocol_read_recv_of(const ProtoInvocation *inv, int arg) {
  for (int i = 0; i < inv->npins; i++)
    if (inv->pins[i].kind == PIN_READ_RECV && inv->pins[i].arg == arg)
      return &inv->pins[i];
  return NULL;
}

const ProtoPin *protocol_write_send_of(const ProtoInvocation *inv, int arg) {
  for (int i = 0; i < inv->npins; i++) {
    const ProtoPin *p = &inv->pins[i];
    for (int k = 0; p->kind == PIN_WRITE_SEND && k < p->nargs; k++)
      if (p->args[k] == arg)
        return p;
  }
  return NULL;
}

const ProtoPin *protocol_read_send_of(const ProtoInvocation *inv, const ProtoPin *recv) {
  return find_read_send((ProtoInvocation *)inv, recv->dats, recv->ndats);
}

// Lazy re-sends (docs/tinsel-backend.md "Reads sent only when changed"):
// begin's `fresh` word has a bit per read_send pin of the invocation, in pin
// order; the host sets it when a dat the pin carries changed since the
// receivers last got it.
int protocol_read_sends(const ProtoInvocation *inv) {
  int n = 0;
  for (int i = 0; i < inv->npins; i++)
    n += inv->pins[i].kind == PIN_READ_SEND;
  return n;
}

int protocol_fresh_bit(const ProtoInvocation *inv, const ProtoPin *read_send) {
  int n = 0;
  for (int i = 0; i < inv->npins; i++) {
    if (&inv->pins[i] == read_send)
      return n;
    n += inv->pins[i].kind == PIN_READ_SEND;
  }
  return -1;
}
