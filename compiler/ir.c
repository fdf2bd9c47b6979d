// ir.c: tables of the IR (access modes, OP2 types), invocation naming and
// the textual dump (format: docs/ir.md).
#include "op2c.h"
#include "tools/poets_types.h"

#include <string.h>

const char *access_name(Access acc) {
  switch (acc) {
#define X(name, val) case ACC_##name: return #name;
    ACCESS_LIST(X)
#undef X
  }
  return "?";
}

static const TypeInfo types[] = {
    {"double", "double", 8, "double"},
    {"float", "float", 4, "float"},
    {"int", "int", 4, "int32_t"},
    {"uint", "unsigned int", 4, "uint32_t"},
    {"ll", "long long", 8, "int64_t"},
    {"ull", "unsigned long long", 8, "uint64_t"},
    {"bool", "bool", 1, "uint8_t"},
};

// Accepts OP2's optional ":soa" suffix, which only changes the layout.
const TypeInfo *type_lookup(const char *op2_type) {
  size_t n = strcspn(op2_type, ":");
  if (op2_type[n] && strcmp(op2_type + n, ":soa") != 0)
    return NULL;
  for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
    if (strlen(types[i].op2) == n && strncmp(types[i].op2, op2_type, n) == 0)
      return &types[i];
  return NULL;
}

const char *file_display_name(const File *f) { return f ? f->name : "<unknown>"; }

// Does a name begin with a type name of POETS XML declarations? The
// invocation's name starts members of the graph's state (<inv>_round), and
// graph_schema's Python lexer reads `double_it_round` as `double` `_it_round`.
static bool starts_with_xml_type(const char *name) {
  static const char *const types[] = {POETS_TYPE_NAMES, "struct"};
  for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
    if (!strncmp(name, types[i], strlen(types[i])))
      return true;
  return false;
}

// Seed 000's {invocation}: the kernel's name when one call site uses the
// kernel, else kernel_1, kernel_2, ... in source order (kernel_1_2 if a
// function or an earlier invocation already has the name), with op2_ in
// front of a kernel name that begins with a type name (starts_with_xml_type).
// Linear: the uses per kernel and the names taken are looked up, not searched.
void ir_name_invocations(Program *prog) {
  typedef struct {
    int uses, seen;
  } Count;
  StrMap counts = {0}, taken = {0};
  Count *c = xcalloc((size_t)prog->nloops + 1, sizeof(Count));
  int ncounts = 0;
  for (int i = 0; i < prog->nloops; i++) {
    Count *k = strmap_get(&counts, prog->loops[i]->kernel_name);
    if (!k)
      strmap_put(&counts, prog->loops[i]->kernel_name, k = &c[ncounts++]);
    k->uses++;
  }
  for (int i = 0; i < prog->nfuncs; i++)
    strmap_put(&taken, prog->funcs[i]->name, prog->funcs[i]);
  for (int i = 0; i < prog->nloops; i++) {
    IRLoop *loop = prog->loops[i];
    Count *k = strmap_get(&counts, loop->kernel_name);
    int ordinal = ++k->seen;
    const char *base = starts_with_xml_type(loop->kernel_name) ? format("op2_%s", loop->kernel_name) : loop->kernel_name;
    char *name = k->uses == 1 ? (char *)base : format("%s_%d", base, ordinal);
    for (int n = 2; (k->uses > 1 || base != loop->kernel_name) && strmap_get(&taken, name); n++)
      name = k->uses == 1 ? format("%s_%d", base, n) : format("%s_%d_%d", base, ordinal, n);
    loop->invocation = name;
    strmap_put(&taken, loop->invocation, loop);
  }
}

// Names apart for the N declarations whose variables are vars[i] (in
// source order): the variable for the first declaration assigned to it,
// var_2, var_3, ... for the later ones (var_2_2 if a variable or an earlier
// name already has it); "unnamed" for one assigned to none.
static char **unique_idents(char *const *vars, int n) {
  static char mark; // the value of a name taken
  StrMap taken = {0}, uses = {0};
  int *count = xcalloc((size_t)n + 1, sizeof(int)), ncount = 0;
  char **idents = xcalloc((size_t)n + 1, sizeof(char *));
  for (int i = 0; i < n; i++)
    if (vars[i])
      strmap_put(&taken, vars[i], &mark);
  for (int i = 0; i < n; i++) {
    const char *base = vars[i] ? vars[i] : "unnamed";
    int *k = strmap_get(&uses, base);
    if (!k)
      strmap_put(&uses, base, k = &count[ncount++]);
    int ordinal = ++*k;
    char *name = ordinal == 1 && vars[i] ? vars[i] : format("%s_%d", base, ordinal);
    for (int m = 2; (ordinal > 1 || !vars[i]) && strmap_get(&taken, name); m++)
      name = format("%s_%d_%d", base, ordinal, m);
    idents[i] = name;
    strmap_put(&taken, name, &mark);
  }
  return idents;
}

// IRSet.ident and IRDat.ident: each op_decl_set call its device type
// (set_<ident>), each dat its state field and message (dat_<ident>), also
// when the program assigns a variable again.
void ir_name_decls(Program *prog) {
  int most = prog->nsets > prog->ndats ? prog->nsets : prog->ndats;
  char **vars = xcalloc((size_t)most + 1, sizeof(char *)), **idents;
  for (int i = 0; i < prog->nsets; i++)
    vars[i] = prog->sets[i]->var;
  idents = unique_idents(vars, prog->nsets);
  for (int i = 0; i < prog->nsets; i++)
    prog->sets[i]->ident = idents[i];
  for (int i = 0; i < prog->ndats; i++)
    vars[i] = prog->dats[i]->var;
  idents = unique_idents(vars, prog->ndats);
  for (int i = 0; i < prog->ndats; i++)
    prog->dats[i]->ident = idents[i];
}

bool *ir_helper_flags(const Program *prog) {
  bool *flags = xcalloc((size_t)prog->nfuncs + 1, sizeof(bool));
  for (int i = 0; i < prog->nfuncs; i++)
    for (int j = 0; prog->funcs[i]->is_kernel && j < prog->funcs[i]->nhelpers; j++)
      flags[prog->funcs[i]->helpers[j]->index] = true;
  return flags;
}

static const char *or_dash(const char *s) { return s ? s : "-"; }

// A string for the dump: backslash and double quote escaped.
static char *quoted(const char *s) {
  if (!s)
    return xstrdup("-");
  char *buf = xcalloc(1, strlen(s) * 2 + 3), *p = buf;
  *p++ = '"';
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      *p++ = '\\';
    *p++ = *s;
  }
  *p = '"';
  return buf;
}

static void dump_loc(FILE *out, const Token *tok) {
  if (tok)
    fprintf(out, "  @%s:%d", file_display_name(tok->file), tok->line);
  fputc('\n', out);
}

static void dump_func(FILE *out, const IRFunc *fn) {
  fprintf(out, "func %s%s params %d", fn->name, fn->is_kernel ? " kernel" : "", fn->nparams);
  dump_loc(out, fn->tok);
  for (int i = 0; i < fn->nparams; i++)
    fprintf(out, "  param %s \"%s\"\n", fn->params[i].name, fn->params[i].type_text);
  if (!fn->is_kernel)
    return;
  fprintf(out, "  helpers");
  for (int i = 0; i < fn->nhelpers; i++)
    fprintf(out, " %s", fn->helpers[i]->name);
  fprintf(out, "\n  consts");
  for (int i = 0; i < fn->nconsts; i++)
    fprintf(out, " %s", fn->consts[i]->name);
  fputc('\n', out);
}

static void dump_arg(FILE *out, int i, const IRArg *a) {
  const char *map = a->map ? a->map->var : "OP_ID";
  fprintf(out, "  arg %d ", i);
  switch (a->kind) {
  case ARG_DAT:
    fprintf(out, "dat %s map %s idx %d dim %d %s %s", a->dat ? a->dat->var : "?", map, a->idx,
            a->dim, or_dash(a->type), access_name(a->acc));
    break;
  case ARG_GBL:
    fprintf(out, "gbl %s dim %d %s %s", a->gbl_expr, a->dim, or_dash(a->type), access_name(a->acc));
    if (a->gbl_const)
      fprintf(out, " const %s", a->gbl_const->name);
    break;
  case ARG_IDX:
    fprintf(out, "idx map %s idx %d", map, a->idx);
    break;
  case ARG_INFO:
    fprintf(out, "info %s dim %d %s ref %d", a->gbl_expr, a->dim, or_dash(a->type), a->info_ref);
    break;
  }
  if (a->opt)
    fprintf(out, " opt (%s)", a->opt_expr);
  fputc('\n', out);
}

void ir_dump(FILE *out, const Program *prog) {
  fprintf(out, "program \"%s\" %s\n", file_display_name(prog->file), prog->is_cxx ? "c++" : "c");
  for (int i = 0; i < prog->nsets; i++) {
    IRSet *s = prog->sets[i];
    fprintf(out, "set %s %s size %s", or_dash(s->var), quoted(s->name), s->size_expr);
    dump_loc(out, s->tok);
  }
  for (int i = 0; i < prog->nmaps; i++) {
    IRMap *m = prog->maps[i];
    fprintf(out, "map %s %s %s -> %s dim %d", or_dash(m->var), quoted(m->name),
            m->from ? m->from->var : "?", m->to ? m->to->var : "?", m->dim);
    dump_loc(out, m->tok);
  }
  for (int i = 0; i < prog->ndats; i++) {
    IRDat *d = prog->dats[i];
    fprintf(out, "dat %s %s %s dim %d %s%s", or_dash(d->var), quoted(d->name),
            d->set ? d->set->var : "?", d->dim, or_dash(d->type), d->temp ? " temp" : "");
    dump_loc(out, d->tok);
  }
  for (int i = 0; i < prog->nconsts; i++) {
    IRConst *c = prog->consts[i];
    fprintf(out, "const %s dim %d %s expr %s", c->name, c->dim, or_dash(c->type), c->expr);
    dump_loc(out, c->tok);
  }
  bool *helper = ir_helper_flags(prog);
  for (int i = 0; i < prog->nfuncs; i++)
    if (prog->funcs[i]->is_kernel || helper[i])
      dump_func(out, prog->funcs[i]);
  for (int i = 0; i < prog->nloops; i++) {
    IRLoop *l = prog->loops[i];
    fprintf(out, "loop %s %s kernel %s set %s args %d", or_dash(l->invocation),
            quoted(l->name), l->kernel_name, l->set ? l->set->var : "?", l->nargs);
    dump_loc(out, l->tok);
    for (int j = 0; j < l->nargs; j++)
      dump_arg(out, j, &l->args[j]);
  }
}
