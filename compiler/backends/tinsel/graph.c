// graph.c: builds the POETS graph type of an OP2 program from its protocol.
//
// One device type per set (set_{set}). Its state holds the set's dats and,
// per invocation it takes part in, the seed's counters and masks; for the
// invocations it iterates over, the landing pads of indirect args and
// globals. Every handler is a small C fragment; the counters make them
// tolerate any arrival order: a read or write for an invocation may arrive
// before its begin, and nothing is lost because a device counts what it has
// seen against totals fixed by the mesh.
#include "graph.h"

#include <string.h>

typedef struct {
  FILE *f;
  char *data;
  size_t len;
} Buf;

static FILE *buf_open(Buf *b) {
  b->f = open_memstream(&b->data, &b->len);
  if (!b->f)
    die(__FILE__, __LINE__, "open_memstream failed");
  return b->f;
}

// The text, as a recorded allocation like the rest of the graph (xfree_all).
static char *buf_close(Buf *b) {
  fclose(b->f);
  char *s = xstrndup(b->data, b->len);
  free(b->data);
  return s;
}

static const TypeInfo *arg_type(const IRArg *a) { return type_lookup(a->type); }

// Copies and clears of dats and globals in handlers: unrolled word copies
// when the elements are words or wider (memcpy is a library call under
// -fno-builtin, ~30 instructions for 16 bytes, and makes the handler save
// registers; the unrolled copy is 2 instructions a word and keeps handlers
// leaves). may_alias: the words are floats, ints or halves of doubles.
static const char *copy_helpers =
    "typedef uint32_t __attribute__((may_alias)) op2_word_;\n"
    "static inline __attribute__((always_inline)) void op2_copy_words(void *d, const void *s, unsigned n) {\n"
    "  op2_word_ *dw = (op2_word_ *)d;\n  const op2_word_ *sw = (const op2_word_ *)s;\n"
    "  _Pragma(\"GCC unroll 16\") for (unsigned i = 0; i < n / 4; i++) dw[i] = sw[i];\n}\n"
    "static inline __attribute__((always_inline)) void op2_zero_words(void *d, unsigned n) {\n"
    "  op2_word_ *dw = (op2_word_ *)d;\n"
    "  _Pragma(\"GCC unroll 16\") for (unsigned i = 0; i < n / 4; i++) dw[i] = 0;\n}\n";

static bool word_elems(const char *op2_type) {
  const TypeInfo *ti = op2_type ? type_lookup(op2_type) : NULL;
  return ti && ti->size >= 4 && ti->size % 4 == 0;
}

// dst = src, both arrays of op2_type (sizeof the first argument of sizeof_of).
static char *copy_stmt(const char *op2_type, const char *dst, const char *src, const char *size_of) {
  return format("%s(%s, %s, sizeof(%s));\n", word_elems(op2_type) ? "op2_copy_words" : "memcpy", dst, src,
                size_of);
}

static char *zero_stmt(const char *op2_type, const char *dst) {
  return word_elems(op2_type) ? format("op2_zero_words(%s, sizeof(%s));\n", dst, dst)
                              : format("memset(%s, 0, sizeof(%s));\n", dst, dst);
}

// The words a table step moves.

static void add_copy(GPin *pin, const char *op2_type, char *state, char *msg) {
  VEC_PUSH(pin->copies, pin->ncopies, ((GCopy){state, msg, word_elems(op2_type), NULL, NULL}));
}

// The pin's step from op2_steps.inc's tables, when its copies fit them.
static void table_step(GPin *pin, GStepKind kind, char *mask) {
  if (pin->ncopies > GSTEP_MAX_COPIES)
    return;
  for (int i = 0; i < pin->ncopies; i++)
    if (!pin->copies[i].words)
      return;
  pin->step = kind;
  pin->mask = mask;
}



//
// Message types
//

static GMessageType *find_msg(GGraphType *g, const char *id) { return strmap_get(&g->msg_index, id); }

static GMessageType *add_msg(GGraphType *g, char *id, char *decl, int bytes) {
  GMessageType *m = find_msg(g, id);
  if (m)
    return m;
  m = xcalloc(1, sizeof(GMessageType));
  m->id = id;
  m->decl = decl;
  m->bytes = bytes;
  VEC_PUSH(g->msgs, g->nmsgs, m);
  strmap_put(&g->msg_index, m->id, m);
  return m;
}

static GMessageType *dat_msg(GGraphType *g, const IRDat *d) {
  const TypeInfo *ti = type_lookup(d->type);
  return add_msg(g, format("dat_%s", d->ident), format("%s value[%d];", ti->fixed, d->dim),
                 ti->size * d->dim);
}

// Globals the host sends with begin: READ, MIN and MAX values, op_arg_info
// values, and opt flags.
// OP_WORK globals are scratch: each device has its own, neither sent nor returned.
static bool gbl_on_begin(const IRArg *a) {
  return (a->kind == ARG_GBL && !a->gbl_const && a->acc != ACC_INC && a->acc != ACC_WORK) || a->kind == ARG_INFO;
}
// Globals returned with end: INC, MIN and MAX partial results, op_arg_info values.
bool graph_gbl_on_end(const IRArg *a) {
  return (a->kind == ARG_GBL && !a->gbl_const && a->acc != ACC_READ && a->acc != ACC_WORK) || a->kind == ARG_INFO;
}

// Message payloads as C lays them out (each scalar aligned to its size,
// the struct to its largest member), so the size checked is the size sent.
typedef struct {
  Buf b;
  FILE *f;
  int off, align;
  GField *fields; int nfields;
} Layout;

static void field(Layout *m, const char *ctype, int size, const char *name, int count) {
  fprintf(m->f, "%s%s %s", m->off ? " " : "", ctype, name);
  if (count > 1 || strncmp(name, "gbl", 3) == 0 || strncmp(name, "value_", 6) == 0) // arrays: memcpy takes them
    fprintf(m->f, "[%d]", count);
  fprintf(m->f, ";");
  m->off = (m->off + size - 1) / size * size;
  VEC_PUSH(m->fields, m->nfields, ((GField){(char *)name, m->off, size * count}));
  m->off += size * count;
  m->align = size > m->align ? size : m->align;
}

static GMessageType *finish_msg(GGraphType *g, Layout *m, char *id) {
  int bytes = (m->off + m->align - 1) / m->align * m->align;
  GMessageType *msg = add_msg(g, id, buf_close(&m->b), bytes);
  if (!msg->fields) {
    msg->fields = m->fields;
    msg->nfields = m->nfields;
  }
  return msg;
}

static void gbl_field(Layout *m, const IRArg *a, int i) {
  field(m, arg_type(a)->fixed, arg_type(a)->size, format("gbl%d", i), a->dim);
}

// Begin: the round, the fresh word when the invocation sends reads (a bit
// per read_send pin: send it this time, protocol_fresh_bit), READ/MIN/MAX
// globals, then the op_opt_arg flags (bytes last, so they add no padding).
static GMessageType *begin_msg(GGraphType *g, const ProtoInvocation *inv) {
  const IRLoop *l = inv->loop;
  Layout m = {.align = 1};
  m.f = buf_open(&m.b);
  field(&m, "uint32_t", 4, "round", 1);
  if (protocol_read_sends(inv))
    field(&m, "uint32_t", 4, "fresh", 1);
  for (int i = 0; i < l->nargs; i++)
    if (gbl_on_begin(&l->args[i]))
      gbl_field(&m, &l->args[i], i);
  for (int i = 0; i < l->nargs; i++)
    if (l->args[i].opt)
      field(&m, "uint8_t", 1, format("opt%d", i), 1);
  return finish_msg(g, &m, format("%s_begin", l->invocation));
}

static GMessageType *end_msg(GGraphType *g, const IRLoop *l) {
  Layout m = {.align = 1};
  m.f = buf_open(&m.b);
  field(&m, "uint32_t", 4, "round", 1);
  field(&m, "uint8_t", 1, "contributes", 1);
  for (int i = 0; i < l->nargs; i++)
    if (graph_gbl_on_end(&l->args[i]))
      gbl_field(&m, &l->args[i], i);
  for (int i = 0; i < l->nargs; i++) // op_arg_info: the element that found the value (fw_combine.c)
    if (l->args[i].kind == ARG_INFO)
      field(&m, "uint32_t", 4, format("elem%d", i), 1);
  return finish_msg(g, &m, format("%s_end", l->invocation));
}

// The message of a read pin: dat_<var> {value} for one dat; for reads that
// share a message (protocol.c), read_<d1>_and_<d2> with one array per dat,
// value_<var>.
static GMessageType *read_msg(GGraphType *g, const ProtoPin *p) {
  if (p->ndats <= 1)
    return dat_msg(g, p->dat);
  Layout m = {.align = 1};
  m.f = buf_open(&m.b);
  char *id = xstrdup("read");
  for (int k = 0; k < p->ndats; k++) {
    const TypeInfo *ti = type_lookup(p->dats[k]->type);
    field(&m, ti->fixed, ti->size, format("value_%s", p->dats[k]->var), p->dats[k]->dim);
    id = format("%s%s%s", id, k ? "_and_" : "_", p->dats[k]->var);
  }
  return finish_msg(g, &m, id);
}

// The message of a write pin: dat_<var> {value} for an arg alone; for a
// write group (protocol.c) write_<inv>_arg<i>_and_arg<j> with one array
// per arg, value_arg<i>.
static GMessageType *write_msg(GGraphType *g, const IRLoop *l, const ProtoPin *p) {
  if (p->nargs <= 1)
    return dat_msg(g, p->dat);
  Layout m = {.align = 1};
  m.f = buf_open(&m.b);
  char *id = format("write_%s", l->invocation);
  for (int k = 0; k < p->nargs; k++) {
    const IRDat *d = l->args[p->args[k]].dat;
    const TypeInfo *ti = type_lookup(d->type);
    field(&m, ti->fixed, ti->size, format("value_arg%d", p->args[k]), d->dim);
    id = format("%s%sarg%d", id, k ? "_and_" : "_", p->args[k]);
  }
  return finish_msg(g, &m, id);
}

// The field of a write pin's message that carries arg i's values.
static char *write_field(const ProtoPin *p, int i) { return p->nargs <= 1 ? xstrdup("value") : format("value_arg%d", i); }

// The field of a read pin's message that carries dat d.
static char *read_field(const ProtoPin *p, const IRDat *d) {
  return p->ndats <= 1 ? xstrdup("value") : format("value_%s", d->var);
}

//
// Device types
//

// A pin whose step runs its fragment (table_step may change that).
static GPin new_pin(char *name, GMessageType *msg, bool is_output, char *edge_props, char *code) {
  return (GPin){.name = name, .msg = msg, .is_output = is_output, .edge_props = edge_props, .code = code,
                .rts_index = is_output ? 0 : -1, .part = -1, .step = GSTEP_CODE};
}

static GPin *add_pin(GDeviceType *t, GPin pin) {
  pin.part = t->nparts; // the invocation being built (build_type)
  if (pin.is_output)
    pin.rts_index = t->noutputs++;
  VEC_PUSH(t->pins, t->npins, pin);
  return &t->pins[t->npins - 1];
}

// Marks the device as taking part in the invocation on the first of begin,
// read_recv and write_recv, whichever arrives first. Its reads go out only
// once begin has said which are fresh (begin_pin): until then the read mask
// stays 0, as the last end left it (the end waits for it to be 0).
static void touch(FILE *f, const char *inv) { fprintf(f, "deviceState->%s_in_progress = 1;\n", inv); }

static char *buffer_decl(const IRLoop *l, int i) {
  const IRArg *a = &l->args[i];
  int slots = a->idx <= -2 ? -a->idx : 1;
  if (slots > 1)
    return format("%s %s_arg%d_buffer[%d][%d];", arg_type(a)->fixed, l->invocation, i, slots, a->dim);
  return format("%s %s_arg%d_buffer[%d];", arg_type(a)->fixed, l->invocation, i, a->dim);
}

typedef struct {
  GGraphType *g;
  const ProtoInvocation *inv;
  GDeviceType *t;
  bool is_iter;
  unsigned read_mask, write_mask; // RTS flags of this type's read_send / write_send pins
  FILE *shared;                   // the type's shared code (kernel functions)
  int exec_rts, end_rts;          // RTS bits of the execute and end pins, -1 if none
  unsigned fresh_rts[32];         // by begin's fresh bit: the RTS flag of this type's read_send pin, 0 if none
} TypeCtx;

// The ready-to-send bit of output pin i; none past the 32 of the word, which
// build_type reports once all pins are known.
static unsigned rts_bit(int i) { return i < 32 ? 1u << i : 0; }

static void kernel_if_last(FILE *f, const TypeCtx *c);

static void state_for_invocation(FILE *state, FILE *props, TypeCtx *c) {
  const IRLoop *l = c->inv->loop;
  const char *inv = l->invocation;
  // In this order, so they lie at the same offsets from <inv>_round in
  // every type (op2_steps.inc's OP2_COUNT...; firmware.c asserts them),
  // and a table step reads the count and both flags in one word.
  fprintf(state, "uint32_t %s_round; uint16_t %s_read_recv_count; uint8_t %s_in_progress; uint8_t %s_executed;\n",
          inv, inv, inv, inv);
  fprintf(state, "uint32_t %s_read_send_mask; uint32_t %s_write_send_mask; uint16_t %s_write_recv_count;\n", inv,
          inv, inv);
  fprintf(props, "uint16_t %s_write_recv_total;\n", inv);
  if (!c->is_iter)
    return;
  // A read's buffers first, one after another in its message's order, so
  // that its words land as one copy (read_recv_pins merges them).
  bool *declared = xcalloc((size_t)l->nargs + 1, sizeof(bool));
  for (int j = 0; j < c->inv->npins; j++) {
    const ProtoPin *p = &c->inv->pins[j];
    for (int k = 0; p->kind == PIN_READ_RECV && p->set == c->t->set && k < p->nargs; k++)
      if (!declared[p->args[k]]) {
        fprintf(state, "%s\n", buffer_decl(l, p->args[k]));
        declared[p->args[k]] = true;
      }
  }
  for (int i = 0; i < l->nargs; i++) {
    const IRArg *a = &l->args[i];
    if (a->kind == ARG_DAT && a->map && !declared[i])
      fprintf(state, "%s\n", buffer_decl(l, i));
    else if ((a->kind == ARG_GBL && !a->gbl_const) || a->kind == ARG_INFO)
      fprintf(state, "%s %s_gbl%d[%d];\n", arg_type(a)->fixed, inv, i, a->dim);
    else if (a->kind == ARG_IDX && a->map)
      fprintf(props, "int32_t %s_idx%d;\n", inv, i);
    if (a->kind == ARG_INFO)
      fprintf(state, "uint32_t %s_elem%d;\n", inv, i);
    if (a->opt)
      fprintf(state, "uint8_t %s_opt%d;\n", inv, i);
  }
}

// The reads of the iteration type each fresh bit stands for (slots).
static void fresh_slots(const TypeCtx *c, int slots[32]) {
  const ProtoInvocation *inv = c->inv;
  memset(slots, 0, 32 * sizeof(int));
  if (!c->is_iter)
    return;
  for (int j = 0; j < inv->npins; j++)
    if (inv->pins[j].kind == PIN_READ_RECV)
      slots[protocol_fresh_bit(inv, protocol_read_send_of(inv, &inv->pins[j])) & 31] += inv->pins[j].slots;
}

// The same as op2_step_begin's table, when the bits fit it.

static void fresh_table(GPin *pin, const TypeCtx *c) {
  memcpy(pin->fresh_rts, c->fresh_rts, sizeof(pin->fresh_rts));
  fresh_slots(c, pin->fresh_slots);
  int n = 0;
  for (int k = 0; k < 32; k++)
    n += pin->fresh_rts[k] || pin->fresh_slots[k];
  pin->step = n <= GSTEP_MAX_FRESH ? GSTEP_BEGIN : GSTEP_CODE;
}

// Begin's fresh word: this type's read_send pins whose bit is set go out;
// the iteration type counts the reads of the others as landed, as it still
// holds them from an earlier call (their buffers are this invocation's
// alone). Before its begin a device has counted only reads that came, so
// it cannot reach its total early.
static void fresh_on_begin(FILE *f, const TypeCtx *c) {
  const ProtoInvocation *inv = c->inv;
  const char *name = inv->loop->invocation;
  for (int k = 0; k < 32; k++)
    if (c->fresh_rts[k])
      fprintf(f, "if (message->fresh & 0x%xu)\n  deviceState->%s_read_send_mask |= 0x%xu;\n", 1u << k, name,
              c->fresh_rts[k]);
  if (!c->is_iter || !inv->read_recv_per_elem)
    return;
  int slots[32];
  fresh_slots(c, slots);
  fprintf(f, "deviceState->%s_read_recv_count +=", name); // counted as landed: they are not coming
  for (int k = 0, n = 0; k < 32; k++)
    if (slots[k])
      fprintf(f, "%s\n    (message->fresh & 0x%xu ? 0 : %d)", n++ ? " +" : "", 1u << k, slots[k]);
  fprintf(f, ";\n");
}

static void begin_pin(TypeCtx *c) {
  const IRLoop *l = c->inv->loop;
  bool table = true; // no globals or optional args: op2_step_begin's table
  Buf b;
  FILE *f = buf_open(&b);
  touch(f, l->invocation);
  fprintf(f, "deviceState->%s_round = message->round;\n", l->invocation);
  fresh_on_begin(f, c);
  for (int i = 0; c->is_iter && i < l->nargs; i++) {
    const IRArg *a = &l->args[i];
    table = table && !gbl_on_begin(a) && !a->opt;
    if (gbl_on_begin(a))
      fputs(copy_stmt(a->type, format("deviceState->%s_gbl%d", l->invocation, i), format("message->gbl%d", i),
                      format("message->gbl%d", i)), f);
    if (a->opt)
      fprintf(f, "deviceState->%s_opt%d = message->opt%d;\n", l->invocation, i, i);
  }
  fprintf(f, "deviceState->%s_read_recv_count++;\n", l->invocation);
  kernel_if_last(f, c);
  GPin *pin = add_pin(c->t, new_pin(format("%s_begin", l->invocation), begin_msg(c->g, c->inv), false, NULL,
                                    buf_close(&b)));
  if (table)
    fresh_table(pin, c);
}

static void read_send_pins(TypeCtx *c) {
  const ProtoInvocation *inv = c->inv;
  for (int j = 0; j < inv->npins; j++) {
    const ProtoPin *p = &inv->pins[j];
    if (p->kind != PIN_READ_SEND || p->set != c->t->set)
      continue;
    GPin *pin = add_pin(c->t, new_pin(p->name, read_msg(c->g, p), true, NULL, NULL));
    Buf b;
    FILE *f = buf_open(&b);
    for (int k = 0; k < p->ndats; k++) {
      char *field = read_field(p, p->dats[k]);
      char *msg = format("message->%s", field);
      fputs(copy_stmt(p->dats[k]->type, msg, format("deviceState->dat_%s", p->dats[k]->ident), msg), f);
      add_copy(pin, p->dats[k]->type, format("dat_%s", p->dats[k]->ident), field);
    }
    fprintf(f, "deviceState->%s_read_send_mask &= ~(1u << %d);\n", inv->loop->invocation, pin->rts_index);
    pin->code = buf_close(&b);
    table_step(pin, GSTEP_SEND, format("%s_read_send_mask", inv->loop->invocation));
    c->read_mask |= rts_bit(pin->rts_index);
    c->fresh_rts[protocol_fresh_bit(inv, p) & 31] = rts_bit(pin->rts_index);
  }
}

// Where read pin p lands dat d in its message, or -1.
static int dat_index(const ProtoPin *p, const IRDat *d) {
  for (int k = 0; k < p->ndats; k++)
    if (p->dats[k] == d)
      return k;
  return -1;
}

// Do the words read pin p lands for its arg k lie right after those for
// arg k - 1, in the state and in the message, with nothing between? In
// the state, state_for_invocation declares a pin's buffers one after
// another (an arg is in one read pin: protocol.c read_groups); both are
// arrays of 4-byte elements (no padding before either); and the message
// carries arg k's dat in the field after arg k - 1's. firmware.c asserts it.
static bool follows(const IRLoop *l, const ProtoPin *p, int k) {
  const IRArg *a = &l->args[p->args[k - 1]], *b = &l->args[p->args[k]];
  int at = dat_index(p, a->dat);
  return p->slots == 1 && type_lookup(a->dat->type)->size == 4 && type_lookup(b->dat->type)->size == 4 &&
         at >= 0 && dat_index(p, b->dat) == at + 1;
}

static void read_recv_pins(TypeCtx *c) {
  const ProtoInvocation *inv = c->inv;
  const char *name = inv->loop->invocation;
  for (int j = 0; j < inv->npins; j++) {
    const ProtoPin *p = &inv->pins[j];
    if (p->kind != PIN_READ_RECV || p->set != c->t->set)
      continue;
    Buf b;
    FILE *f = buf_open(&b);
    touch(f, name);
    GPin pin = new_pin(p->name, read_msg(c->g, p), false, p->slots > 1 ? "uint8_t index;" : NULL, NULL);
    const char *slot = p->slots > 1 ? "[edgeProperties->index]" : "";
    for (int k = 0; k < p->nargs; k++) { // every arg the message lands (one unless merged)
      char *field = read_field(p, inv->loop->args[p->args[k]].dat);
      char *msg = format("message->%s", field);
      fputs(copy_stmt(inv->loop->args[p->args[k]].dat->type,
                      format("deviceState->%s_arg%d_buffer%s", name, p->args[k], slot), msg, msg), f);
      if (k > 0 && follows(inv->loop, p, k)) { // one copy through both
        pin.copies[pin.ncopies - 1].state_last = format("%s_arg%d_buffer", name, p->args[k]);
        pin.copies[pin.ncopies - 1].msg_last = field;
      } else {
        add_copy(&pin, inv->loop->args[p->args[k]].dat->type, format("%s_arg%d_buffer", name, p->args[k]), field);
      }
    }
    fprintf(f, "deviceState->%s_read_recv_count++;\n", name);
    kernel_if_last(f, c);
    pin.code = buf_close(&b);
    if (p->slots == 1) // else the slot is the edge's
      table_step(&pin, GSTEP_READ, NULL);
    add_pin(c->t, pin);
  }
}

// The kernel's argument i, as an expression over the device's state.
static char *kernel_arg(const IRLoop *l, int i, FILE *pre) {
  const IRArg *a = &l->args[i];
  const IRParam *p = &l->kernel->params[i];
  const char *inv = l->invocation;
  char *cast = format("(%s)", p->type_text);
  char *e;
  if (a->kind == ARG_DAT && a->map && a->idx <= -2) {
    char *elem = format("%s%s *", p->is_const ? "const " : "", p->base);
    fprintf(pre, "%sv%d[%d] = {", elem, i, -a->idx);
    for (int k = 0; k < -a->idx; k++)
      fprintf(pre, "%sdeviceState->%s_arg%d_buffer[%d]", k ? ", " : "", inv, i, k);
    fprintf(pre, "};\n");
    e = format("v%d", i);
  } else if (a->kind == ARG_DAT && a->map) {
    e = format("%sdeviceState->%s_arg%d_buffer", cast, inv, i);
  } else if (a->kind == ARG_DAT) {
    e = format("%sdeviceState->dat_%s", cast, a->dat->ident);
  } else if (a->kind == ARG_GBL && a->gbl_const) {
    e = format("%s%s%s", cast, a->gbl_const->dim == 1 ? "&" : "", a->gbl_const->name);
  } else if (a->kind == ARG_GBL || a->kind == ARG_INFO) {
    e = format("%sdeviceState->%s_gbl%d", cast, inv, i);
  } else if (a->map) {
    e = format("%s&deviceProperties->%s_idx%d", cast, inv, i);
  } else {
    e = format("%s&deviceProperties->index", cast);
  }
  if (a->opt)
    e = format("deviceState->%s_opt%d ? %s : NULL", inv, i, e);
  return e;
}

// op_arg_info (argmin/argmax): the element is a candidate when its kernel
// call moved the MIN/MAX value it goes with past the value begin brought
// (the host's); its number then goes to the end with the info, else
// UINT32_MAX. fw_combine.c keeps the best value and, of equal ones, the
// smallest element: the element OP2's sequential order reaches first.
static void info_before(FILE *f, const IRLoop *l) {
  for (int i = 0; i < l->nargs; i++)
    if (l->args[i].kind == ARG_INFO)
      fprintf(f, "const %s op2_was%d = deviceState->%s_gbl%d[0];\n", arg_type(&l->args[l->args[i].info_ref])->c, i,
              l->invocation, l->args[i].info_ref);
}

static void info_after(FILE *f, const IRLoop *l) {
  for (int i = 0; i < l->nargs; i++)
    if (l->args[i].kind == ARG_INFO)
      fprintf(f, "deviceState->%s_elem%d = deviceState->%s_gbl%d[0] %s op2_was%d ? (uint32_t)deviceProperties->index : UINT32_MAX;\n",
              l->invocation, i, l->invocation, l->args[i].info_ref,
              l->args[l->args[i].info_ref].acc == ACC_MIN ? "<" : ">", i);
}

// The kernel call of the iteration set: INC buffers zeroed, the kernel on
// the landing pads and the state, then the write sends raised.
static void kernel_call(FILE *f, TypeCtx *c) {
  const IRLoop *l = c->inv->loop;
  const char *inv = l->invocation;
  for (int i = 0; i < l->nargs; i++) {
    const IRArg *a = &l->args[i];
    if (a->acc == ACC_INC && a->kind == ARG_DAT && a->map)
      fputs(zero_stmt(a->type, format("deviceState->%s_arg%d_buffer", inv, i)), f);
    if (a->acc == ACC_INC && a->kind == ARG_GBL && !a->gbl_const)
      fputs(zero_stmt(a->type, format("deviceState->%s_gbl%d", inv, i)), f);
  }
  Buf args;
  FILE *fa = buf_open(&args);
  for (int i = 0; i < l->nargs; i++)
    fprintf(fa, "%s\n    %s", i ? "," : "", kernel_arg(l, i, f));
  info_before(f, l);
  fprintf(f, "%s(%s);\n", l->kernel_name, buf_close(&args));
  info_after(f, l);
  if (c->write_mask)
    fprintf(f, "deviceState->%s_write_send_mask = 0x%xu;\n", inv, c->write_mask);
}

// Only the iteration set computes, on an output pin without edges whose
// send runs the kernel and cancels. Not the iteration set: no execute pin,
// the end waits for begin itself (rts_for_invocation). The iteration set of
// an invocation that neither sends nor receives writes here needs none
// either: its end runs the kernel (end_pin). Each saves a send round per
// device and invocation, and the handler's code.
static bool fused_end(const TypeCtx *c) {
  if (!c->is_iter || c->write_mask)
    return false;
  for (int j = 0; j < c->inv->npins; j++)
    if (c->inv->pins[j].kind == PIN_WRITE_RECV && c->inv->pins[j].set == c->t->set)
      return false;
  return true;
}

static void execute_pin(TypeCtx *c) {
  const char *inv = c->inv->loop->invocation;
  Buf b;
  FILE *f = buf_open(&b);
  fprintf(f, "*doSend = false; // no edges: sending is computing\n");
  kernel_call(f, c);
  fprintf(f, "deviceState->%s_executed = 1;\n", inv);
  c->exec_rts = add_pin(c->t, new_pin(format("%s_execute", inv), add_msg(c->g, "none", "uint8_t unused;", 0),
                                            true, NULL, buf_close(&b)))->rts_index;
}

// The iteration set's kernel, when nothing of the device's own must go out
// before it runs (its type sends no reads in the invocation) and it writes
// (else its end runs it): a function that begin and each read call when
// theirs is the last to land, so the kernel needs no send round of its own
// (no execute pin: one pass of the softswitch's loop less per device).
static bool kernel_on_recv(const TypeCtx *c) { return c->is_iter && !fused_end(c) && !c->read_mask; }

char *gs_graph_props_t(const GGraphType *g) { return format("%s_properties_t", g->id); }
char *gs_props_t(const GGraphType *g, const GDeviceType *t) { return format("%s_%s_properties_t", g->id, t->id); }
char *gs_state_t(const GGraphType *g, const GDeviceType *t) { return format("%s_%s_state_t", g->id, t->id); }
char *gs_msg_t(const GGraphType *g, const GMessageType *m) { return format("%s_%s_message_t", g->id, m->id); }

static char *kernel_fn(const TypeCtx *c) { return format("%s__%s_kernel", c->t->id, c->inv->loop->invocation); }

static void kernel_function(TypeCtx *c) {
  const char *inv = c->inv->loop->invocation;
  fprintf(c->shared, "static void %s(const void *gp_, const void *dp_, void *ds_) {\n", kernel_fn(c));
  // Explicit casts and graph_schema's type names: the XML's code compiles as C++ too.
  char *gp = gs_graph_props_t(c->g), *dp = gs_props_t(c->g, c->t), *ds = gs_state_t(c->g, c->t);
  fprintf(c->shared, "  const %s *graphProperties = (const %s *)gp_;\n", gp, gp);
  fprintf(c->shared, "  const %s *deviceProperties = (const %s *)dp_;\n", dp, dp);
  fprintf(c->shared, "  %s *deviceState = (%s *)ds_;\n  (void)graphProperties, (void)deviceProperties;\n", ds, ds);
  Buf b;
  FILE *f = buf_open(&b);
  kernel_call(f, c);
  fprintf(f, "deviceState->%s_executed = 1;\n", inv);
  for (char *line = buf_close(&b), *next; *line; line = next) { // indented
    next = line + strcspn(line, "\n");
    next += *next == '\n';
    fprintf(c->shared, "  %.*s", (int)(next - line), line);
  }
  fprintf(c->shared, "}\n\n");
}


// In begin and the read handlers, after the count: the kernel, if this was the last.
static void kernel_if_last(FILE *f, const TypeCtx *c) {
  if (kernel_on_recv(c))
    fprintf(f, "if (deviceState->%s_read_recv_count == %d)\n  %s(graphProperties, deviceProperties, deviceState);\n",
            c->inv->loop->invocation, 1 + c->inv->read_recv_per_elem, kernel_fn(c));
}

static void write_send_pins(TypeCtx *c) {
  const ProtoInvocation *inv = c->inv;
  for (int j = 0; j < inv->npins; j++) {
    const ProtoPin *p = &inv->pins[j];
    if (p->kind != PIN_WRITE_SEND || p->set != c->t->set)
      continue;
    for (int k = 0; k < p->slots; k++) {
      char *name = p->slots > 1 ? format("%s_slot%d", p->name, k) : p->name;
      GPin *pin = add_pin(c->t, new_pin(name, write_msg(c->g, inv->loop, p), true, NULL, NULL));
      // An op_opt_arg switched off writes nothing; the host leaves its
      // edges out of the receivers' write_recv totals. (protocol.c groups
      // no optional arg with others.)
      const char *opt = inv->loop->args[p->arg].opt
                            ? format("if (!deviceState->%s_opt%d)\n  *doSend = false;\n",
                                     inv->loop->invocation, p->arg)
                            : "";
      char *copies = "";
      for (int a = 0; a < p->nargs; a++) { // each arg of its write group
        int arg = p->args[a];
        const IRDat *d = inv->loop->args[arg].dat;
        char *buffer = format("%s_arg%d_buffer%s", inv->loop->invocation, arg, p->slots > 1 ? format("[%d]", k) : "");
        char *msg = format("message->%s", write_field(p, arg));
        copies = format("%s%s", copies, copy_stmt(d->type, msg, format("deviceState->%s", buffer), msg));
        add_copy(pin, d->type, buffer, write_field(p, arg));
      }
      pin->code = format("%s%sdeviceState->%s_write_send_mask &= ~(1u << %d);\n", copies, opt,
                         inv->loop->invocation, pin->rts_index);
      if (!inv->loop->args[p->arg].opt) // else the step may cancel
        table_step(pin, GSTEP_SEND, format("%s_write_send_mask", inv->loop->invocation));
      c->write_mask |= rts_bit(pin->rts_index);
    }
  }
}

// Arg's write_recv pin on set s, or NULL.
static const ProtoPin *write_recv_of(const ProtoInvocation *inv, int arg, const IRSet *s) {
  for (int j = 0; j < inv->npins; j++)
    if (inv->pins[j].kind == PIN_WRITE_RECV && inv->pins[j].arg == arg && inv->pins[j].set == s)
      return &inv->pins[j];
  return NULL;
}

static void write_recv_pins(TypeCtx *c) {
  const ProtoInvocation *inv = c->inv;
  const char *name = inv->loop->invocation;
  for (int j = 0; j < inv->npins; j++) {
    const ProtoPin *p = &inv->pins[j];
    if (p->kind != PIN_WRITE_RECV || p->set != c->t->set)
      continue;
    Buf b;
    FILE *f = buf_open(&b);
    touch(f, name);
    char *v = format("message->%s", write_field(p, p->arg)); // its arg's values
    if (p->acc == ACC_INC && !strcmp(type_lookup(p->dat->type)->op2, "bool")) // uint8_t kept 0 or 1, as bool +=
      fprintf(f, "for (int d = 0; d < %d; d++)\n  deviceState->dat_%s[d] = (deviceState->dat_%s[d] + %s[d]) != 0;\n",
              p->dat->dim, p->dat->ident, p->dat->ident, v);
    else if (p->acc == ACC_INC && p->dat->dim <= 4) // unrolled: -Os keeps the loop, 3 more instructions an element
      for (int d = 0; d < p->dat->dim; d++)
        fprintf(f, "deviceState->dat_%s[%d] += %s[%d];\n", p->dat->ident, d, v, d);
    else if (p->acc == ACC_INC)
      fprintf(f, "for (int d = 0; d < %d; d++)\n  deviceState->dat_%s[d] += %s[d];\n", p->dat->dim,
              p->dat->ident, v);
    else
      fputs(copy_stmt(p->dat->type, format("deviceState->dat_%s", p->dat->ident), v, v), f);
    fprintf(f, "deviceState->%s_write_recv_count++;\n", name);
    GPin *pin = add_pin(c->t, new_pin(p->name, write_msg(c->g, inv->loop, p), false, NULL, buf_close(&b)));
    pin->write_recv = true;
    const ProtoPin *first = p->nargs > 1 && p->args[0] != p->arg ? write_recv_of(inv, p->args[0], p->set) : NULL;
    if (first && first->dat == p->dat && first->acc == p->acc) { // its code but for the field, at offset 0 there
      pin->same_as = first->name;
      pin->msg_field = write_field(p, p->arg);
    }
  }
}

static void end_pin(TypeCtx *c) {
  const IRLoop *l = c->inv->loop;
  const char *inv = l->invocation;
  Buf b;
  FILE *f = buf_open(&b);
  GPin pin = new_pin(format("%s_end", inv), end_msg(c->g, l), true, NULL, NULL);
  bool table = !fused_end(c); // op2_step_end's, unless the end runs the kernel or names an element
  if (fused_end(c))
    kernel_call(f, c);
  fprintf(f, "message->round = deviceState->%s_round;\n", inv);
  fprintf(f, "message->contributes = %d;\n", c->is_iter);
  for (int i = 0; c->is_iter && i < l->nargs; i++)
    if (graph_gbl_on_end(&l->args[i])) {
      fputs(copy_stmt(l->args[i].type, format("message->gbl%d", i), format("deviceState->%s_gbl%d", inv, i),
                      format("message->gbl%d", i)), f);
      add_copy(&pin, l->args[i].type, format("%s_gbl%d", inv, i), format("gbl%d", i));
    }
  for (int i = 0; c->is_iter && i < l->nargs; i++)
    if (l->args[i].kind == ARG_INFO) {
      fprintf(f, "message->elem%d = deviceState->%s_elem%d;\n", i, inv, i);
      table = false;
    }
  fprintf(f, "deviceState->%s_in_progress = 0;\ndeviceState->%s_executed = 0;\n", inv, inv);
  fprintf(f, "deviceState->%s_read_recv_count = 0;\ndeviceState->%s_write_recv_count = 0;\n", inv, inv);
  pin.code = buf_close(&b);
  pin.contributes = c->is_iter;
  if (table)
    table_step(&pin, GSTEP_END, NULL);
  c->end_rts = add_pin(c->t, pin)->rts_index;
}

static void rts_for_invocation(FILE *f, const TypeCtx *c, int read_recv_total) {
  const char *inv = c->inv->loop->invocation;
  int exec = c->exec_rts, end = c->end_rts;
  fprintf(f, "if (deviceState->%s_in_progress) {\n", inv);
  fprintf(f, "  *readyToSend |= deviceState->%s_read_send_mask | deviceState->%s_write_send_mask;\n", inv, inv);
  if (exec >= 0) {
    fprintf(f, "  if (!deviceState->%s_executed && deviceState->%s_read_recv_count == %d)\n", inv, inv,
            read_recv_total);
    fprintf(f, "    *readyToSend |= 1u << %d; // %s_execute\n", exec, inv);
    fprintf(f, "  if (deviceState->%s_executed && !deviceState->%s_read_send_mask &&\n", inv, inv);
  } else { // no execute pin: begin and the reads are all the end waits for (its send may run the kernel)
    fprintf(f, "  if (deviceState->%s_read_recv_count == %d && !deviceState->%s_read_send_mask &&\n", inv,
            read_recv_total, inv);
  }
  fprintf(f, "      !deviceState->%s_write_send_mask &&\n", inv);
  fprintf(f, "      deviceState->%s_write_recv_count == deviceProperties->%s_write_recv_total)\n", inv, inv);
  fprintf(f, "    *readyToSend |= 1u << %d; // %s_end\n}\n", end, inv);
}

// What a set's device type is built from: the invocations that involve the
// set and the dats on it, in program order (gathered once for all sets).
typedef struct {
  const ProtoInvocation **invs; int ninvs;
  IRDat **dats; int ndats;
} SetParts;

static GDeviceType *build_type(GGraphType *g, const SetParts *parts, IRSet *s) {
  GDeviceType *t = xcalloc(1, sizeof(GDeviceType));
  t->id = format("set_%s", s->ident);
  t->set = s;
  Buf state, props, rts;
  Buf shared;
  FILE *fs = buf_open(&state), *fp = buf_open(&props), *fr = buf_open(&rts), *fsh = buf_open(&shared);
  fprintf(fp, "int32_t index; // the element's number in its set\n");
  for (int i = 0; i < parts->ndats; i++)
    fprintf(fs, "%s dat_%s[%d];\n", type_lookup(parts->dats[i]->type)->fixed, parts->dats[i]->ident, parts->dats[i]->dim);
  fprintf(fr, "*readyToSend = 0;\n");
  for (int i = 0; i < parts->ninvs; i++) {
    const ProtoInvocation *inv = parts->invs[i];
    TypeCtx c = {g, inv, t, inv->loop->set == s, 0, 0, fsh, -1, -1, {0}};
    state_for_invocation(fs, fp, &c);
    // Output pins first fix the masks that the input handlers load.
    read_send_pins(&c);
    if (c.is_iter)
      write_send_pins(&c);
    begin_pin(&c);
    read_recv_pins(&c);
    if (kernel_on_recv(&c))
      kernel_function(&c);
    else if (c.is_iter && !fused_end(&c))
      execute_pin(&c);
    write_recv_pins(&c);
    end_pin(&c);
    Buf part;
    FILE *fpart = buf_open(&part);
    int read_recv_total = 1 + (c.is_iter ? inv->read_recv_per_elem : 0);
    rts_for_invocation(fpart, &c, read_recv_total);
    char *code = buf_close(&part);
    fputs(code, fr);
    int nparts = t->nparts;
    VEC_PUSH(t->parts, nparts, ((GPart){inv->loop->invocation, c.exec_rts, c.end_rts, read_recv_total,
                                       kernel_on_recv(&c) ? kernel_fn(&c) : NULL}));
    VEC_PUSH(t->rts_parts, t->nparts, code);
  }
  t->state = buf_close(&state);
  t->props = buf_close(&props);
  t->rts = buf_close(&rts);
  t->init = xstrdup("");
  t->shared = buf_close(&shared);
  int outputs = 0;
  for (int i = 0; i < t->npins; i++)
    outputs += t->pins[i].is_output;
  if (outputs > 31) // bit 31 of a step's result says "cancelled" (softswitch.h ss_step_fn)
    error_tok(s->tok, "device type %s needs %d output pins; a ready-to-send word holds 31", t->id,
              outputs);
  if (t->npins - outputs > 255)
    error_tok(s->tok, "device type %s needs %d input pins; the softswitch numbers them in a byte (255)",
              t->id, t->npins - outputs);
  return t;
}

// Consts as globals of the C types the kernels use (scalars when dim is 1).
static char *const_globals(const Program *prog) {
  Buf b;
  FILE *f = buf_open(&b);
  for (int i = 0; i < prog->nconsts; i++) {
    IRConst *c = prog->consts[i];
    const TypeInfo *ti = type_lookup(c->type);
    if (c->dim == 1)
      fprintf(f, "%s %s;\n", ti->c, c->name);
    else
      fprintf(f, "%s %s[%d];\n", ti->c, c->name, c->dim);
  }
  return buf_close(&b);
}

// Kernels and their helpers, helpers first, each once.
static char *kernel_code(const Program *prog) {
  Buf b;
  FILE *f = buf_open(&b);
  bool *done = xcalloc((size_t)prog->nfuncs + 1, sizeof(bool));
  bool *is_helper = ir_helper_flags(prog);
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < prog->nfuncs; i++) {
      IRFunc *fn = prog->funcs[i];
      if (done[i] || !(pass == 0 ? is_helper[i] : fn->is_kernel))
        continue;
      done[i] = true;
      bool has_static = strncmp(fn->text, "static", 6) == 0;
      fprintf(f, "\n%s%s\n", has_static ? "" : "static ", fn->text);
    }
  return buf_close(&b);
}

// Dats that share storage: on POETS each device holds its elements of
// every dat in its own state, so a write through one would not be seen
// through the other.
static void refuse_overlays(const Program *prog) {
  for (int i = 0; i < prog->ndats; i++)
    if (prog->dats[i]->overlay_of)
      error_tok(prog->dats[i]->tok, "op_decl_dat_overlay cannot run on POETS: dat '%s' would share storage "
                "with dat '%s', but each device keeps its elements of every dat in its own state, so a "
                "write through one would not be seen through the other (use op_decl_dat and copy)",
                prog->dats[i]->var, prog->dats[i]->overlay_of->var);
}

GGraphType *graph_build(const Program *prog, const Protocol *proto) {
  refuse_overlays(prog);
  GGraphType *g = xcalloc(1, sizeof(GGraphType));
  g->prog = prog;
  const char *base = strrchr(prog->file->name, '/');
  base = base ? base + 1 : prog->file->name;
  g->id = format("op2_%.*s", (int)strcspn(base, "."), base);
  Buf props;
  FILE *fp = buf_open(&props);
  for (int i = 0; i < prog->nconsts; i++)
    fprintf(fp, "%s global_%s[%d];\n", type_lookup(prog->consts[i]->type)->fixed, prog->consts[i]->name,
            prog->consts[i]->dim);
  g->props = buf_close(&props);
  g->consts = const_globals(prog);
  g->kernels = kernel_code(prog);
  g->macros = prog->macros ? prog->macros : "";
  g->helpers = copy_helpers;
  g->shared = format("%s%s%s%s", g->helpers, g->macros, g->consts, g->kernels);
  SetParts *parts = xcalloc((size_t)prog->nsets + 1, sizeof(SetParts));
  for (int i = 0; i < proto->ninvocations; i++)
    for (int k = 0; k < proto->invocations[i]->nsets; k++) {
      SetParts *p = &parts[proto->invocations[i]->sets[k]->index];
      VEC_PUSH(p->invs, p->ninvs, proto->invocations[i]);
    }
  for (int i = 0; i < prog->ndats; i++)
    if (prog->dats[i]->set)
      VEC_PUSH(parts[prog->dats[i]->set->index].dats, parts[prog->dats[i]->set->index].ndats, prog->dats[i]);
  for (int i = 0; i < prog->nsets; i++)
    VEC_PUSH(g->types, g->ntypes, build_type(g, &parts[i], prog->sets[i]));
  int errors = diag_errors;
  for (int i = 0; i < proto->ninvocations; i++) {
    const IRLoop *l = proto->invocations[i]->loop;
    for (int k = 0; k < l->nargs; k++) { // the elements' candidates are compared by one value (fw_combine.c)
      const IRArg *a = &l->args[k];
      if (a->kind == ARG_INFO && l->args[a->info_ref].dim != 1)
        error_tok(a->acc_tok, "op_arg_info on POETS needs its global to have dim 1: arg %d (OP_%s) has dim %d, and "
                              "the devices pick the element by that one value",
                  a->info_ref, access_name(l->args[a->info_ref].acc), l->args[a->info_ref].dim);
    }
    GMessageType *msgs[2] = {begin_msg(g, proto->invocations[i]), end_msg(g, l)};
    VEC_PUSH(g->controller_pins, g->ncontroller_pins,
             new_pin(format("%s_begin", l->invocation), msgs[0], true, NULL, NULL));
    VEC_PUSH(g->controller_pins, g->ncontroller_pins,
             new_pin(format("%s_end", l->invocation), msgs[1], false, NULL, NULL));
    // The protocol checks the bytes of the values; alignment can add a few.
    for (int k = 0; k < 2 && diag_errors == errors; k++)
      if (msgs[k]->bytes > TINSEL_MAX_PAYLOAD)
        error_tok(l->tok, "message %s takes %d bytes as laid out in C (%s), more than the %d a message can hold",
                  msgs[k]->id, msgs[k]->bytes, msgs[k]->decl, TINSEL_MAX_PAYLOAD);
  }
  return g;
}
static void write_fold(FILE *f, const IRArg *a, int i) {
  const char *x = format("acc->gbl%d[k]", i), *y = format("in->gbl%d[k]", i);
  fprintf(f, "  for (int k = 0; k < %d; k++)\n    ", a->dim);
  if (a->acc == ACC_INC && !strcmp(type_lookup(a->type)->op2, "bool")) // uint8_t in messages: 0 or 1, as bool +=
    fprintf(f, "%s = (%s + %s) != 0;\n", x, x, y);
  else if (a->acc == ACC_INC)
    fprintf(f, "%s += %s;\n", x, y);
  else
    fprintf(f, "if (%s %s %s)\n      %s = %s;\n", y, a->acc == ACC_MIN ? "<" : ">", x, x, y);
}

// op_arg_info i with its MIN/MAX global r (graph.c): in's candidate (value,
// info, element) replaces acc's when acc has none, when its value is better,
// or when the values are equal and its element comes first in OP2's order
// (the smaller number; UINT32_MAX: no candidate). Before r's own fold, so
// acc->gbl<r> is still the best value acc has seen.
static void write_info_fold(FILE *f, const IRLoop *l, int i) {
  int r = l->args[i].info_ref;
  const char *better = l->args[r].acc == ACC_MIN ? "<" : ">";
  fprintf(f, "  if (in->elem%d != UINT32_MAX && (acc->elem%d == UINT32_MAX || in->gbl%d[0] %s acc->gbl%d[0] ||\n", i,
          i, r, better, r);
  fprintf(f, "      (in->gbl%d[0] == acc->gbl%d[0] && in->elem%d < acc->elem%d))) {\n", r, r, i, i);
  fprintf(f, "    for (int k = 0; k < %d; k++)\n      acc->gbl%d[k] = in->gbl%d[k];\n", l->args[i].dim, i, i);
  fprintf(f, "    acc->elem%d = in->elem%d;\n  }\n", i, i);
}

// The fold of one end message `in` into `acc` (pointers to the invocation's
// end message type): op_arg_info values first, then each INC/MIN/MAX global.
void graph_write_end_fold(FILE *f, const IRLoop *l) {
  for (int i = 0; i < l->nargs; i++)
    if (l->args[i].kind == ARG_INFO)
      write_info_fold(f, l, i);
  for (int i = 0; i < l->nargs; i++) {
    const IRArg *a = &l->args[i];
    if (a->kind == ARG_GBL && !a->gbl_const && (a->acc == ACC_INC || a->acc == ACC_MIN || a->acc == ACC_MAX))
      write_fold(f, a, i);
  }
}
