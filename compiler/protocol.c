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
//   {iter}.{inv}_arg{i}_write_send    an indirect WRITE/RW/INC arg's buffer
//   {to_set}.{inv}_arg{i}_write_recv  applied to the dat (INC adds, else copies)
//
// Vector args (idx -m) read or write m slots: one recv/send per slot, the
// slot carried as an edge property, as in the graph_schema prototype.
// Globals: READ, MIN and MAX start from the host's value on {inv}_begin;
// INC, MIN and MAX partial results return on {inv}_end; consts are graph
// properties.
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

static ProtoPin *find_read_send(ProtoInvocation *inv, IRDat *dat) {
  for (int i = 0; i < inv->npins; i++)
    if (inv->pins[i].kind == PIN_READ_SEND && inv->pins[i].dat == dat)
      return &inv->pins[i];
  return NULL;
}

static bool reads(Access acc) { return acc == ACC_READ || acc == ACC_RW; }
static bool writes(Access acc) { return acc != ACC_READ; }

static void lower_indirect(ProtoInvocation *inv, const IRLoop *loop, int i) {
  const IRArg *a = &loop->args[i];
  IRSet *iter = loop->set, *to = a->dat->set;
  int slots = a->idx <= -2 ? -a->idx : 1;
  int bytes = elem_bytes(a);
  add_set(inv, to);
  if (reads(a->acc)) {
    if (!find_read_send(inv, a->dat))
      add_pin(inv, (ProtoPin){PIN_READ_SEND, to, format("%s_%s_read_send", loop->invocation, a->dat->var),
                              a->dat, -1, 1, ACC_READ, bytes});
    add_pin(inv, (ProtoPin){PIN_READ_RECV, iter, format("%s_arg%d_read_recv", loop->invocation, i),
                            a->dat, i, slots, a->acc, bytes});
    inv->read_recv_per_elem += slots;
  }
  if (writes(a->acc)) {
    add_pin(inv, (ProtoPin){PIN_WRITE_SEND, iter, format("%s_arg%d_write_send", loop->invocation, i),
                            a->dat, i, slots, a->acc, bytes});
    add_pin(inv, (ProtoPin){PIN_WRITE_RECV, to, format("%s_arg%d_write_recv", loop->invocation, i),
                            a->dat, i, slots, a->acc, bytes});
    inv->write_send_per_elem += slots;
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

static ProtoInvocation *lower_loop(const IRLoop *loop) {
  ProtoInvocation *inv = xcalloc(1, sizeof(ProtoInvocation));
  inv->loop = loop;
  add_set(inv, loop->set);
  for (int i = 0; i < loop->nargs; i++)
    inv->begin_bytes += loop->args[i].opt ? 1 : 0;
  for (int i = 0; i < loop->nargs; i++) {
    const IRArg *a = &loop->args[i];
    if (a->kind == ARG_DAT && a->map && a->dat)
      lower_indirect(inv, loop, i);
    else if (a->kind == ARG_GBL)
      lower_gbl(inv, a);
    else if (a->kind == ARG_IDX)
      inv->nidx++; // a static value per element: a device property, not a message
  }
  add_pin(inv, (ProtoPin){PIN_BEGIN, NULL, format("%s_begin", loop->invocation), NULL, -1, 1,
                          ACC_READ, inv->begin_bytes});
  add_pin(inv, (ProtoPin){PIN_END, NULL, format("%s_end", loop->invocation), NULL, -1, 1, ACC_READ,
                          inv->end_bytes});
  return inv;
}

Protocol *protocol_lower(const Program *prog) {
  Protocol *p = xcalloc(1, sizeof(Protocol));
  p->prog = prog;
  for (int i = 0; i < prog->nloops; i++)
    VEC_PUSH(p->invocations, p->ninvocations, lower_loop(prog->loops[i]));
  return p;
}

// Checks every message of the protocol against a payload limit (Tinsel:
// 64-byte messages less the header the back end reserves).
void protocol_check_sizes(const Protocol *p, int max_payload) {
  for (int i = 0; i < p->ninvocations; i++) {
    const ProtoInvocation *inv = p->invocations[i];
    for (int j = 0; j < inv->npins; j++) {
      const ProtoPin *pin = &inv->pins[j];
      if (pin->bytes <= max_payload)
        continue;
      const Token *at = pin->arg >= 0 ? inv->loop->args[pin->arg].tok : inv->loop->tok;
      if (pin->dat)
        error_tok(at, "message %s carries %d bytes (dat '%s': %d x %s), more than the %d a message can hold",
                  pin->name, pin->bytes, pin->dat->var, pin->dat->dim, pin->dat->type, max_payload);
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
        fprintf(out, " dat %s %s", pin->dat->var, access_name(pin->acc));
      if (pin->slots > 1)
        fprintf(out, " slots %d", pin->slots);
      fprintf(out, " bytes %d\n", pin->bytes);
    }
  }
}
