// schedule.c: loop-chain analysis of one program (docs/schedule.md).
//
// For the program's invocations in source order it works out which dats
// and globals carry a dependence between two of them (RAW, WAR, WAW, and
// through which map), the dats no loop writes, where the host code reads
// or writes each global, and the for/while/do statements around the
// invocations, whose bodies repeat: there the last invocations of the
// body come before the first ones again (loop-carried dependences).
//
// Access modes: READ reads; WRITE writes; RW reads and writes; INC, MIN
// and MAX write (their result combines with the value before, so one
// after a write is ordered by the WAW; two of the same kind commute:
// WAW-commutes); WORK is scratch and carries nothing; an arg whose opt flag
// is the constant 0 is never used. op_arg_idx carries no data.
//
// Host code is read at the token level (the scanner keeps no statements):
// every function of the source file that is neither a kernel nor a helper,
// outside its op_par_loop calls. A global is known by its name: an
// occurrence followed (after subscripts and members) by an assignment
// operator or ++/--, or preceded by ++/--, is a write; `&name` is a
// possible write (the address escapes); inside op_decl_const(2) it is a
// declaration (the devices get the value); any other is a read. Locals
// of the same name count too, file-scope initialisers and functions in
// headers do not. A dat is written only by loops: OP2 has no host call
// that writes a dat after its declaration, so only `dat->...` in host code
// (a possible write through the data pointer) and the op_* calls taking
// the dat (op_fetch_data, ...: reads) are listed.
#include "op2c.h"

#include <stdint.h>
#include <string.h>

static bool acc_reads(Access a) { return a == ACC_READ || a == ACC_RW; }
static bool acc_writes(Access a) { return a != ACC_READ && a != ACC_WORK; }
static bool acc_reduces(Access a) { return a == ACC_INC || a == ACC_MIN || a == ACC_MAX; }

static const IRDat *dat_root(const IRDat *d) {
  while (d->overlay_of)
    d = d->overlay_of;
  return d;
}

// The variable behind a global's data pointer: `&rms`, `&(sums[(1)])`, `qinf`.
static char *gbl_name(const char *expr) {
  const char *p = expr;
  while (*p == '&' || *p == '(' || *p == '*' || *p == ' ')
    p++;
  size_t n = 0;
  while (p[n] == '_' || (p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
         (n > 0 && p[n] >= '0' && p[n] <= '9'))
    n++;
  return n ? xstrndup(p, n) : xstrdup(expr);
}

//
// Keys: the dats (by the dat whose storage they use) and globals
//

static int key_of(Schedule *s, const char *name, bool is_dat) {
  void *k = strmap_get(&s->key_index, name);
  if (k)
    return (int)(intptr_t)k - 1;
  SchedKey key = {xstrdup(name), is_dat};
  VEC_PUSH(s->keys, s->nkeys, key);
  strmap_put(&s->key_index, s->keys[s->nkeys - 1].name, (void *)(intptr_t)s->nkeys);
  return s->nkeys - 1;
}

static char *where_of(const IRArg *a) {
  if (a->kind == ARG_INFO)
    return "info";
  if (a->kind == ARG_GBL)
    return "gbl";
  if (!a->map)
    return "direct";
  if (a->idx <= -2)
    return format("%s:0..%d", a->map->var, -a->idx - 1);
  return format("%s:%d", a->map->var, a->idx);
}

static void add_access(SchedInvocation *inv, SchedAccess acc) { VEC_PUSH(inv->accs, inv->naccs, acc); }

static void collect_arg(Schedule *s, SchedInvocation *inv, const IRArg *a) {
  SchedAccess acc = {.acc = a->acc, .opt = a->opt, .never = a->never};
  if (a->kind == ARG_DAT && a->dat) {
    const IRDat *root = dat_root(a->dat);
    acc.key = key_of(s, root->var, true);
    acc.as = root != a->dat ? a->dat->var : NULL;
  } else if ((a->kind == ARG_GBL || a->kind == ARG_INFO) && a->gbl_expr) {
    acc.key = key_of(s, a->gbl_const ? a->gbl_const->name : gbl_name(a->gbl_expr), false);
  } else {
    return; // op_arg_idx, or an arg the checks already reported
  }
  acc.where = where_of(a);
  add_access(inv, acc);
}

static void collect_invocation(Schedule *s, const IRLoop *loop) {
  SchedInvocation inv = {.loop = loop};
  for (int i = 0; i < loop->nargs; i++)
    collect_arg(s, &inv, &loop->args[i]);
  for (int i = 0; loop->kernel && i < loop->kernel->nconsts; i++)
    add_access(&inv, (SchedAccess){key_of(s, loop->kernel->consts[i]->name, false), ACC_READ, "const",
                                   NULL, false, false});
  VEC_PUSH(s->invs, s->ninvs, inv);
}

//
// Dependences
//

typedef struct {
  bool reads, writes;
  int reduce; // the one reduction (INC, MIN, MAX) every write is, else -1
} KeyUse;

static bool key_use(const SchedInvocation *inv, int key, KeyUse *u) {
  bool any = false;
  *u = (KeyUse){false, false, -2};
  for (int i = 0; i < inv->naccs; i++) {
    const SchedAccess *a = &inv->accs[i];
    if (a->key != key || a->never || a->acc == ACC_WORK)
      continue;
    any = true;
    u->reads |= acc_reads(a->acc);
    if (acc_writes(a->acc)) {
      u->writes = true;
      u->reduce = acc_reduces(a->acc) && (u->reduce == -2 || u->reduce == (int)a->acc) ? (int)a->acc : -1;
    }
  }
  return any;
}

static unsigned dep_kinds(const SchedInvocation *from, const SchedInvocation *to, int key) {
  KeyUse f, t;
  if (!key_use(from, key, &f) || !key_use(to, key, &t))
    return 0;
  unsigned k = 0;
  if (f.writes && t.reads)
    k |= DEP_RAW;
  if (f.reads && t.writes)
    k |= DEP_WAR;
  if (f.writes && t.writes)
    k |= f.reduce >= 0 && f.reduce == t.reduce ? DEP_WAW_COMMUTES : DEP_WAW;
  return k;
}

static void add_deps(Schedule *s, int from, int to, int cycle) {
  for (int key = 0; key < s->nkeys; key++) {
    unsigned kinds = dep_kinds(&s->invs[from], &s->invs[to], key);
    if (kinds)
      VEC_PUSH(s->deps, s->ndeps, ((SchedDep){from, to, key, kinds, cycle}));
  }
}

//
// Host code: functions, statements that repeat, and uses of globals
//

static bool is_host_func(const Program *prog, const IRFunc *f, const bool *helper) {
  return !f->is_kernel && !helper[f->index] && f->tok->file == prog->file && !f->tok->from_macro;
}

static int loop_at(const Program *prog, const Token *t) {
  for (int i = 0; i < prog->nloops; i++)
    if (prog->loops[i]->tok == t)
      return i;
  return -1;
}

// Skips a bracketed group: the token that closes `open`.
static Token *skip_group(Token *open) {
  int depth = 0;
  for (Token *t = open; t->kind != TK_EOF; t = t->next) {
    if (t->len == 1 && strchr("([{", *t->loc) && t->kind == TK_PUNCT)
      depth++;
    else if (t->len == 1 && strchr(")]}", *t->loc) && t->kind == TK_PUNCT && --depth == 0)
      return t;
  }
  return open;
}

static bool is_kw(const Token *t, const char *kw) { return t->kind == TK_IDENT && tok_equal(t, kw); }

// The last token of the statement starting at t, within [t, limit].
static Token *stmt_end(Token *t, const Token *limit) {
  while (t != limit) {
    Token *end;
    if (tok_equal(t, "{")) {
      end = skip_group(t);
    } else if ((is_kw(t, "for") || is_kw(t, "while") || is_kw(t, "if") || is_kw(t, "switch")) &&
               tok_equal(t->next, "(")) {
      t = skip_group(t->next)->next;
      continue;
    } else {
      end = t;
      while (end != limit && !tok_equal(end, ";")) // a do-while's body, then its condition
        end = tok_equal(end, "(") || tok_equal(end, "{") || tok_equal(end, "[") ? skip_group(end)->next
                                                                                 : end->next;
    }
    if (end == limit || !is_kw(end->next, "else"))
      return end;
    t = end->next->next;
  }
  return (Token *)limit;
}

// The invocations within [from, to]: *first..*last, false if none.
static bool loops_within(const Program *prog, Token *from, const Token *to, int *first, int *last) {
  *first = *last = -1;
  for (Token *t = from; t != to && t->kind != TK_EOF; t = t->next) {
    int l = tok_equal(t, "op_par_loop") ? loop_at(prog, t) : -1;
    if (l >= 0 && *first < 0)
      *first = l;
    if (l >= 0)
      *last = l;
  }
  return *first >= 0;
}

static void find_cycles(Schedule *s, const IRFunc *f) {
  for (Token *t = f->body; t != f->body_end; t = t->next) {
    bool is_do = is_kw(t, "do");
    if (!is_do && !((is_kw(t, "for") || is_kw(t, "while")) && tok_equal(t->next, "(")))
      continue;
    Token *end = stmt_end(t, f->body_end);
    SchedCycle c = {tok_text(t), t, end, f, -1, -1};
    if (loops_within(s->prog, t, end, &c.first, &c.last))
      VEC_PUSH(s->cycles, s->ncycles, c);
  }
}

static bool is_assign_op(const Token *t) {
  static const char *ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "++", "--"};
  for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++)
    if (t->kind == TK_PUNCT && tok_equal(t, ops[i]))
      return true;
  return false;
}

// An operand ends here: a `&` after it is binary.
static bool ends_operand(const Token *t) {
  return t && (t->kind == TK_IDENT || t->kind == TK_NUM || t->kind == TK_STR || t->kind == TK_CHAR ||
               tok_equal(t, ")") || tok_equal(t, "]"));
}

// What the host does with the global named at t (prev, prev2 before it).
static const char *use_kind(const Token *prev2, const Token *prev, Token *t) {
  if (prev && (tok_equal(prev, "++") || tok_equal(prev, "--")))
    return "writes";
  if (prev && tok_equal(prev, "&") && !ends_operand(prev2))
    return "may-write";
  Token *u = t->next;
  for (;;) {
    if (tok_equal(u, "["))
      u = skip_group(u)->next;
    else if ((tok_equal(u, ".") || tok_equal(u, "->")) && u->next->kind == TK_IDENT)
      u = u->next->next;
    else
      break;
  }
  return is_assign_op(u) ? "writes" : "reads";
}

static bool tok_not_after(const Token *a, const Token *b) {
  return a->line < b->line || (a->line == b->line && a->col <= b->col);
}

// The innermost cycle around tok in f (cycles are found outermost first).
static int cycle_around(const Schedule *s, const IRFunc *f, const Token *tok) {
  int found = -1;
  for (int c = 0; c < s->ncycles; c++)
    if (s->cycles[c].func == f && tok_not_after(s->cycles[c].tok, tok) && tok_not_after(tok, s->cycles[c].end))
      found = c;
  return found;
}

static void add_event(Schedule *s, const char *what, const char *name, const char *via, const Token *tok,
                      const IRFunc *f, int after) {
  SchedHostEvent e = {what, name, via, tok, f, after, cycle_around(s, f, tok)};
  VEC_PUSH(s->events, s->nevents, e);
}

// The variable op_decl_const(2)'s data argument (its last) names.
static Token *declared_name(Token *lparen, Token *rparen) {
  Token *arg = lparen->next;
  for (Token *t = lparen->next; t != rparen; t = t->next) {
    if (tok_equal(t, ","))
      arg = t->next;
    else if (tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{"))
      t = skip_group(t);
  }
  while (arg != rparen && (tok_equal(arg, "&") || tok_equal(arg, "(")))
    arg = arg->next;
  return arg->kind == TK_IDENT ? arg : NULL;
}

static bool is_global(const Schedule *s, const Token *t) {
  void *k = strmap_get_n(&s->key_index, t->loc, (size_t)t->len);
  return k && !s->keys[(intptr_t)k - 1].is_dat;
}

static bool starts_with(const Token *t, const char *prefix) {
  return (size_t)t->len >= strlen(prefix) && !strncmp(t->loc, prefix, strlen(prefix));
}

// `dat->data` hands out the dat's storage: a possible write; other members
// (dim, size, name) are read or assigned.
static const char *dat_member_use(const Token *prev2, const Token *prev, Token *t) {
  return tok_equal(t->next->next, "data") ? "may-write" : use_kind(prev2, prev, t);
}

// An op_* call other than a declaration, an arg or a loop: the dats it
// takes as whole arguments it reads (op_fetch_data*, op_print_dat*) or
// otherwise uses (op_free_dat_temp, op_dump_to_hdf5, ...).
static void host_call(Schedule *s, Token *name, const IRFunc *f, int after) {
  Token *rparen = skip_group(name->next);
  int depth = 0;
  for (Token *t = name->next; t != rparen; t = t->next) {
    if (tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{"))
      depth++;
    else if (tok_equal(t, ")") || tok_equal(t, "]") || tok_equal(t, "}"))
      depth--;
    else if (depth == 1 && t->kind == TK_IDENT && strmap_get_n(&s->dat_vars, t->loc, (size_t)t->len) &&
             (tok_equal(t->next, ",") || t->next == rparen))
      add_event(s, starts_with(name, "op_fetch_data") || starts_with(name, "op_print_dat") ? "reads" : "uses",
                tok_text(t), tok_text(name), t, f, after);
  }
}

// A function holding invocations: its calls are host events too.
static bool func_named(const Schedule *s, const Token *t) {
  for (int i = 0; i < s->nfuncs; i++)
    if (tok_equal(t, s->funcs[i].func->name))
      return true;
  return false;
}

static bool is_op_call(const Token *t) {
  return t->kind == TK_IDENT && t->len > 3 && !strncmp(t->loc, "op_", 3) && tok_equal(t->next, "(");
}

static void host_uses(Schedule *s, const IRFunc *f) {
  const Program *prog = s->prog;
  int after = -1;
  Token *prev = NULL, *prev2 = NULL;
  for (Token *t = f->body->next; t != f->body_end; prev2 = prev, prev = t, t = t->next) {
    int l = tok_equal(t, "op_par_loop") ? loop_at(prog, t) : -1;
    if (l >= 0) {
      after = l;
      t = prog->loops[l]->rparen;
      continue;
    }
    bool member = prev && (tok_equal(prev, ".") || tok_equal(prev, "->"));
    if ((tok_equal(t, "op_decl_const") || tok_equal(t, "op_decl_const2")) && tok_equal(t->next, "(")) {
      Token *rparen = skip_group(t->next), *name = declared_name(t->next, rparen);
      if (name && is_global(s, name))
        add_event(s, "declares", tok_text(name), NULL, name, f, after);
      t = rparen;
    } else if (is_op_call(t) && !starts_with(t, "op_decl_") && !starts_with(t, "op_arg_") &&
               !starts_with(t, "op_opt_arg_")) {
      host_call(s, t, f, after);
    } else if (t->kind == TK_IDENT && !member && !tok_equal(t->next, "(") && is_global(s, t)) {
      add_event(s, use_kind(prev2, prev, t), tok_text(t), NULL, t, f, after);
    } else if (t->kind == TK_IDENT && !member && tok_equal(t->next, "(") && func_named(s, t)) {
      add_event(s, "calls", tok_text(t), NULL, t, f, after);
    } else if (t->kind == TK_IDENT && !member && tok_equal(t->next, "->") &&
               strmap_get_n(&s->dat_vars, t->loc, (size_t)t->len)) {
      add_event(s, dat_member_use(prev2, prev, t), tok_text(t), NULL, t, f, after);
    }
  }
}

//
// The analysis
//

static void collect_host(Schedule *s) {
  const Program *prog = s->prog;
  bool *helper = ir_helper_flags(prog);
  for (int i = 0; i < prog->nfuncs; i++) {
    const IRFunc *f = prog->funcs[i];
    if (!is_host_func(prog, f, helper))
      continue;
    SchedFunc sf = {f, -1, -1};
    if (loops_within(prog, f->body, f->body_end, &sf.first, &sf.last))
      VEC_PUSH(s->funcs, s->nfuncs, sf);
  }
  for (int i = 0; i < prog->nfuncs; i++) {
    if (!is_host_func(prog, prog->funcs[i], helper))
      continue;
    find_cycles(s, prog->funcs[i]);
    host_uses(s, prog->funcs[i]);
  }
}

static const IRDat *dat_by_var(const Schedule *s, const char *var) { return strmap_get(&s->dat_vars, var); }

// Whether anything writes the dat var's storage after its declaration.
static bool dat_written(const Schedule *s, const IRDat *d) {
  const char *root = dat_root(d)->var;
  int key = key_of((Schedule *)s, root, true);
  for (int i = 0; i < s->ninvs; i++)
    for (int j = 0; j < s->invs[i].naccs; j++) {
      const SchedAccess *a = &s->invs[i].accs[j];
      if (a->key == key && !a->never && acc_writes(a->acc))
        return true;
    }
  for (int i = 0; i < s->nevents; i++) {
    const SchedHostEvent *ev = &s->events[i];
    const IRDat *e = strcmp(ev->what, "reads") && !ev->via ? dat_by_var(s, ev->name) : NULL;
    if (e && !strcmp(dat_root(e)->var, root))
      return true;
  }
  return false;
}

Schedule *schedule_analyse(const Program *prog) {
  Schedule *s = xcalloc(1, sizeof(Schedule));
  s->prog = prog;
  for (int i = 0; i < prog->ndats; i++) {
    strmap_put(&s->dat_vars, prog->dats[i]->var, prog->dats[i]);
    key_of(s, dat_root(prog->dats[i])->var, true);
  }
  for (int i = 0; i < prog->nloops; i++)
    collect_invocation(s, prog->loops[i]);
  for (int i = 0; i < prog->nconsts; i++)
    key_of(s, prog->consts[i]->name, false);
  for (int i = 0; i < s->ninvs; i++)
    for (int j = i + 1; j < s->ninvs; j++)
      add_deps(s, i, j, -1);
  collect_host(s);
  for (int c = 0; c < s->ncycles; c++)
    for (int j = s->cycles[c].first; j <= s->cycles[c].last; j++)
      for (int i = s->cycles[c].first; i <= j; i++)
        add_deps(s, j, i, c);
  for (int i = 0; i < prog->ndats; i++)
    if (!dat_written(s, prog->dats[i]) && dat_by_var(s, prog->dats[i]->var) == prog->dats[i])
      VEC_PUSH(s->never_written, s->nnever_written, prog->dats[i]);
  return s;
}

//
// The dump
//

static void dump_loc(FILE *out, const Token *t) {
  fprintf(out, "%s:%d:%d", file_display_name(t->file), t->line, t->col);
}

static void dump_access(FILE *out, const Schedule *s, const SchedAccess *a, bool name) {
  fprintf(out, " %s[%s %s", name ? s->keys[a->key].name : "", access_name(a->acc), a->where);
  if (a->as)
    fprintf(out, " as %s", a->as);
  fprintf(out, "%s]", a->never ? " never" : a->opt ? " opt" : "");
}

static void dump_accesses_of(FILE *out, const Schedule *s, const SchedInvocation *inv, int key) {
  for (int i = 0; i < inv->naccs; i++)
    if (inv->accs[i].key == key)
      dump_access(out, s, &inv->accs[i], false);
}

static void dump_dep(FILE *out, const Schedule *s, const SchedDep *d) {
  static const struct {
    unsigned bit;
    const char *name;
  } kinds[] = {{DEP_RAW, "RAW"}, {DEP_WAR, "WAR"}, {DEP_WAW, "WAW"}, {DEP_WAW_COMMUTES, "WAW-commutes"}};
  fprintf(out, "dep %d->%d %s ", d->from, d->to, s->keys[d->key].name);
  const char *sep = "";
  for (size_t k = 0; k < sizeof(kinds) / sizeof(*kinds); k++)
    if (d->kinds & kinds[k].bit) {
      fprintf(out, "%s%s", sep, kinds[k].name);
      sep = ",";
    }
  if (d->cycle >= 0)
    fprintf(out, " carried by cycle %d", d->cycle);
  fputc(':', out);
  dump_accesses_of(out, s, &s->invs[d->from], d->key);
  fprintf(out, " ->");
  dump_accesses_of(out, s, &s->invs[d->to], d->key);
  fputc('\n', out);
}

static const SchedFunc *func_of(const Schedule *s, const IRFunc *f) {
  for (int i = 0; i < s->nfuncs; i++)
    if (s->funcs[i].func == f)
      return &s->funcs[i];
  return NULL;
}

static void dump_event(FILE *out, const Schedule *s, const SchedHostEvent *e) {
  fprintf(out, "host %s %s", e->what, e->name);
  if (e->via)
    fprintf(out, " via %s", e->via);
  fprintf(out, " at ");
  dump_loc(out, e->tok);
  fprintf(out, " in %s ", e->func->name);
  const SchedFunc *sf = func_of(s, e->func);
  if (!sf)
    fprintf(out, "(no invocation in it)");
  else if (e->after < 0)
    fprintf(out, "before invocation %d", sf->first);
  else if (e->after == sf->last)
    fprintf(out, "after invocation %d", e->after);
  else
    fprintf(out, "between invocations %d and %d", e->after, e->after + 1);
  if (e->cycle >= 0)
    fprintf(out, ", in cycle %d", e->cycle);
  fputc('\n', out);
}

static void dump_invocation(FILE *out, const Schedule *s, int i) {
  const SchedInvocation *inv = &s->invs[i];
  fprintf(out, "invocation %d %s over %s at ", i, inv->loop->invocation,
          inv->loop->set ? inv->loop->set->var : "?");
  dump_loc(out, inv->loop->tok);
  fputc(':', out);
  for (int j = 0; j < inv->naccs; j++)
    dump_access(out, s, &inv->accs[j], true);
  fputc('\n', out);
}

void schedule_dump(FILE *out, const Schedule *s) {
  fprintf(out, "schedule \"%s\" invocations %d\n", file_display_name(s->prog->file), s->ninvs);
  for (int i = 0; i < s->nfuncs; i++) {
    const SchedFunc *f = &s->funcs[i];
    fprintf(out, "function %s: invocations %d..%d%s\n", f->func->name, f->first, f->last,
            strcmp(f->func->name, "main") ? " (not main: the host calls lines place it; repeats through calls are not cycles)"
                                          : "");
  }
  for (int i = 0; i < s->ninvs; i++)
    dump_invocation(out, s, i);
  for (int c = 0; c < s->ncycles; c++) {
    fprintf(out, "cycle %d %s at ", c, s->cycles[c].keyword);
    dump_loc(out, s->cycles[c].tok);
    fprintf(out, " in %s: invocations %d..%d\n", s->cycles[c].func->name, s->cycles[c].first, s->cycles[c].last);
  }
  for (int i = 0; i < s->ndeps; i++)
    dump_dep(out, s, &s->deps[i]);
  fprintf(out, "never-written:");
  for (int i = 0; i < s->nnever_written; i++)
    fprintf(out, " %s", s->never_written[i]->var);
  fputc('\n', out);
  for (int i = 0; i < s->nevents; i++)
    dump_event(out, s, &s->events[i]);
}
