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

char *schedule_where(const IRArg *a) {
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
  acc.where = schedule_where(a);
  add_access(inv, acc);
}

// The keys an invocation uses, each once, in key order.
static int keys_used(const SchedInvocation *inv, int *keys) {
  int n = 0;
  for (int i = 0; i < inv->naccs; i++) {
    int k = inv->accs[i].key, j = n;
    for (int m = 0; m < n; m++)
      if (keys[m] == k)
        j = -1;
    if (j < 0)
      continue;
    while (j > 0 && keys[j - 1] > k) {
      keys[j] = keys[j - 1];
      j--;
    }
    keys[j] = k;
    n++;
  }
  return n;
}

static void collect_invocation(Schedule *s, const IRLoop *loop) {
  SchedInvocation inv = {.loop = loop};
  for (int i = 0; i < loop->nargs; i++)
    collect_arg(s, &inv, &loop->args[i]);
  for (int i = 0; loop->kernel && i < loop->kernel->nconsts; i++)
    add_access(&inv, (SchedAccess){key_of(s, loop->kernel->consts[i]->name, false), ACC_READ, "const",
                                   NULL, false, false});
  inv.keys = xcalloc((size_t)inv.naccs + 1, sizeof(int));
  inv.nkeys = keys_used(&inv, inv.keys);
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

// VEC_PUSH grows by one; what may hold millions grows by doubling.
static void *grow(void *p, int n, int *cap, size_t size) {
  if (n < *cap)
    return p;
  *cap = *cap ? 2 * *cap : 64;
  return xrealloc(p, (size_t)*cap * size);
}

static void add_deps(Schedule *s, int from, int to, int cycle) {
  const SchedInvocation *f = &s->invs[from];
  for (int i = 0; i < f->nkeys && !s->too_many; i++) {
    unsigned kinds = dep_kinds(f, &s->invs[to], f->keys[i]);
    if (!kinds)
      continue;
    if (s->ndeps == OP2C_MAX_SCHEDULE_DEPS) {
      error_plain("%s: more than %d dependences between invocations; --dump-schedule lists at most that many",
                  file_display_name(s->prog->file), OP2C_MAX_SCHEDULE_DEPS);
      s->too_many = true;
      return;
    }
    s->deps = grow(s->deps, s->ndeps, &s->deps_cap, sizeof(SchedDep));
    s->deps[s->ndeps++] = (SchedDep){from, to, f->keys[i], kinds, cycle};
  }
}

//
// Host code: functions, statements that repeat, and uses of globals
//
// A host function's body is an array, with what the walks need computed
// in one pass each, so that no statement or bracket is walked again for
// each one around it: the analysis stays linear on deeply nested input.

typedef struct {
  const IRFunc *func;
  Token **toks; int n;  // '{' .. '}' of the body
  int *match;           // the bracket matching each bracket, else -1
  int *end;             // the last token of the statement starting at each token
  int *loop;            // the invocation whose op_par_loop is there, else -1
  int *first_loop;      // the first op_par_loop token at or after each token, n if none
  int *last_loop;       // the last one at or before it, -1 if none
  int *cycle;           // the innermost cycle around each token, -1 if none
} Body;

static bool is_host_func(const Program *prog, const IRFunc *f, const bool *helper) {
  return f->body && !f->is_kernel && !helper[f->index] && f->tok->file == prog->file && !f->tok->from_macro;
}

static bool is_kw(const Token *t, const char *kw) { return t->kind == TK_IDENT && tok_equal(t, kw); }
static bool is_open(const Token *t) { return t->kind == TK_PUNCT && t->len == 1 && strchr("([{", *t->loc); }
static bool is_close(const Token *t) { return t->kind == TK_PUNCT && t->len == 1 && strchr(")]}", *t->loc); }

// Loops are in token order: the search starts after the last one found.
static int loop_at(const Program *prog, const Token *t, int *hint) {
  for (int k = 0; k < prog->nloops; k++) {
    int i = (*hint + k) % prog->nloops;
    if (prog->loops[i]->tok == t)
      return *hint = i;
    for (int s = 0; s < prog->loops[i]->nparts; s++) // a fused loop's later call sites (transform.c)
      if (prog->loops[i]->parts[s]->tok == t)
        return *hint = i;
  }
  return -1;
}

static void body_brackets(Body *b) {
  int *stack = xcalloc((size_t)b->n, sizeof(int)), depth = 0;
  b->match = xcalloc((size_t)b->n, sizeof(int));
  for (int i = 0; i < b->n; i++) {
    b->match[i] = -1;
    if (is_open(b->toks[i])) {
      stack[depth++] = i;
    } else if (is_close(b->toks[i]) && depth > 0) {
      b->match[i] = stack[--depth];
      b->match[b->match[i]] = i;
    }
  }
  xfree(stack);
}

// The end of every statement, from the last token back: a block ends at
// its brace; for/while/if/switch (...) with their body (and an else); any
// other statement at its ';' (a do's body and condition with it) or where
// the bracket around it closes.
static void body_statements(Body *b) {
  int n = b->n, *semi = xcalloc((size_t)n, sizeof(int));
  b->end = xcalloc((size_t)n, sizeof(int));
  for (int j = n - 1; j >= 0; j--) {
    const Token *t = b->toks[j];
    int after = b->match[j] > j && b->match[j] + 1 < n ? b->match[j] + 1 : -1;
    semi[j] = tok_equal(t, ";") || is_close(t) || j == n - 1 ? j : after >= 0 ? semi[after] : semi[j + 1];
    bool control = (is_kw(t, "for") || is_kw(t, "while") || is_kw(t, "if") || is_kw(t, "switch")) &&
                   j + 1 < n && b->match[j + 1] > j + 1 && b->match[j + 1] + 1 < n;
    int end = tok_equal(t, "{") && b->match[j] > j ? b->match[j] : control ? b->end[b->match[j + 1] + 1] : semi[j];
    if (end + 2 < n && is_kw(b->toks[end + 1], "else"))
      end = b->end[end + 2];
    b->end[j] = end;
  }
  xfree(semi);
}

static void body_loops(Body *b, const Program *prog) {
  int n = b->n, hint = 0;
  b->loop = xcalloc((size_t)n, sizeof(int));
  b->first_loop = xcalloc((size_t)n, sizeof(int));
  b->last_loop = xcalloc((size_t)n, sizeof(int));
  for (int i = 0; i < n; i++) {
    b->loop[i] = tok_equal(b->toks[i], "op_par_loop") ? loop_at(prog, b->toks[i], &hint) : -1;
    b->last_loop[i] = b->loop[i] >= 0 ? i : i > 0 ? b->last_loop[i - 1] : -1;
  }
  for (int i = n - 1; i >= 0; i--)
    b->first_loop[i] = b->loop[i] >= 0 ? i : i + 1 < n ? b->first_loop[i + 1] : n;
}

static Body *body_of(const IRFunc *f, const Program *prog) {
  Body *b = xcalloc(1, sizeof(Body));
  b->func = f;
  for (Token *t = f->body;; t = t->next) {
    VEC_PUSH(b->toks, b->n, t);
    if (t == f->body_end || t->kind == TK_EOF)
      break;
  }
  body_brackets(b);
  body_statements(b);
  body_loops(b, prog);
  return b;
}

static bool starts_cycle(const Body *b, int i) {
  const Token *t = b->toks[i];
  return is_kw(t, "do") || ((is_kw(t, "for") || is_kw(t, "while")) && i + 1 < b->n && tok_equal(b->toks[i + 1], "("));
}

// The for, while and do statements holding invocations, outermost first,
// and per token the innermost of them around it.
static void find_cycles(Schedule *s, Body *b) {
  int *ends = xcalloc((size_t)b->n, sizeof(int)), *ids = xcalloc((size_t)b->n, sizeof(int)), depth = 0;
  b->cycle = xcalloc((size_t)b->n, sizeof(int));
  for (int i = 0; i < b->n; i++) {
    while (depth > 0 && ends[depth - 1] < i)
      depth--;
    int end = b->end[i];
    if (starts_cycle(b, i) && b->first_loop[i] <= end) {
      SchedCycle c = {tok_text(b->toks[i]), b->toks[i], b->toks[end], b->func, b->loop[b->first_loop[i]],
                      b->loop[b->last_loop[end]]};
      VEC_PUSH(s->cycles, s->ncycles, c);
      ends[depth] = end;
      ids[depth++] = s->ncycles - 1;
    }
    b->cycle[i] = depth > 0 ? ids[depth - 1] : -1;
  }
  xfree(ends);
  xfree(ids);
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

// What the host does with the global named at token i.
static const char *use_kind(const Body *b, int i) {
  const Token *prev = b->toks[i - 1], *prev2 = i >= 2 ? b->toks[i - 2] : NULL;
  if (tok_equal(prev, "++") || tok_equal(prev, "--"))
    return "writes";
  if (tok_equal(prev, "&") && !ends_operand(prev2))
    return "may-write";
  int u = i + 1;
  while (u + 1 < b->n) {
    if (tok_equal(b->toks[u], "[") && b->match[u] > u)
      u = b->match[u] + 1;
    else if ((tok_equal(b->toks[u], ".") || tok_equal(b->toks[u], "->")) && b->toks[u + 1]->kind == TK_IDENT)
      u += 2;
    else
      break;
  }
  return is_assign_op(b->toks[u]) ? "writes" : "reads";
}

// `dat->data` hands out the dat's storage: a possible write; other members
// (dim, size, name) are read or assigned.
static const char *dat_member_use(const Body *b, int i) {
  return i + 2 < b->n && tok_equal(b->toks[i + 2], "data") ? "may-write" : use_kind(b, i);
}

static void add_event(Schedule *s, const char *what, const char *via, const Body *b, int i, int after) {
  SchedHostEvent e = {what, tok_text(b->toks[i]), via, b->toks[i], b->func, after, b->cycle[i]};
  s->events = grow(s->events, s->nevents, &s->events_cap, sizeof(SchedHostEvent));
  s->events[s->nevents++] = e;
}

// The token of the variable op_decl_const(2)'s data argument (its last)
// names, -1 if none; lp: its '('.
static int declared_name(const Body *b, int lp) {
  int arg = lp + 1, rp = b->match[lp];
  for (int j = lp + 1; j < rp; j++) {
    if (tok_equal(b->toks[j], ","))
      arg = j + 1;
    else if (is_open(b->toks[j]) && b->match[j] > j)
      j = b->match[j];
  }
  while (arg < rp && (tok_equal(b->toks[arg], "&") || tok_equal(b->toks[arg], "(")))
    arg++;
  return arg < rp && b->toks[arg]->kind == TK_IDENT ? arg : -1;
}

static bool is_global(const Schedule *s, const Token *t) {
  void *k = strmap_get_n(&s->key_index, t->loc, (size_t)t->len);
  return k && !s->keys[(intptr_t)k - 1].is_dat;
}

static bool is_dat_var(const Schedule *s, const Token *t) {
  return strmap_get_n(&s->dat_vars, t->loc, (size_t)t->len) != NULL;
}

static bool starts_with(const Token *t, const char *prefix) {
  return (size_t)t->len >= strlen(prefix) && !strncmp(t->loc, prefix, strlen(prefix));
}

// An op_* call at i other than a declaration, an arg or a loop: the dats
// it takes as whole arguments it reads (op_fetch_data*, op_print_dat*) or
// otherwise uses (op_free_dat_temp, op_dump_to_hdf5, ...).
static void host_call(Schedule *s, const Body *b, int i, int after) {
  const Token *name = b->toks[i];
  const char *what = starts_with(name, "op_fetch_data") || starts_with(name, "op_print_dat") ? "reads" : "uses";
  int rp = b->match[i + 1];
  for (int j = i + 2; j < rp; j++) {
    if (is_open(b->toks[j]) && b->match[j] > j)
      j = b->match[j];
    else if (b->toks[j]->kind == TK_IDENT && is_dat_var(s, b->toks[j]) &&
             (tok_equal(b->toks[j + 1], ",") || j + 1 == rp))
      add_event(s, what, tok_text(name), b, j, after);
  }
}

static bool is_call(const Body *b, int i) {
  return b->toks[i]->kind == TK_IDENT && i + 1 < b->n && tok_equal(b->toks[i + 1], "(") && b->match[i + 1] > i + 1;
}

static bool is_op_call(const Body *b, int i) {
  const Token *t = b->toks[i];
  return is_call(b, i) && starts_with(t, "op_") && !starts_with(t, "op_decl_") && !starts_with(t, "op_arg_") &&
         !starts_with(t, "op_opt_arg_");
}

// The uses of globals and dats at token i (prev not `.` or `->`).
static void host_use(Schedule *s, const Body *b, int i, int after) {
  const Token *t = b->toks[i];
  bool call = is_call(b, i);
  if (call && strmap_get_n(&s->func_index, t->loc, (size_t)t->len))
    add_event(s, "calls", NULL, b, i, after);
  else if (!call && is_global(s, t))
    add_event(s, use_kind(b, i), NULL, b, i, after);
  else if (!call && tok_equal(b->toks[i + 1], "->") && is_dat_var(s, t))
    add_event(s, dat_member_use(b, i), NULL, b, i, after);
}

static void host_uses(Schedule *s, const Body *b) {
  int after = -1;
  for (int i = 1; i + 1 < b->n; i++) {
    const Token *t = b->toks[i], *prev = b->toks[i - 1];
    if (b->loop[i] >= 0 && is_call(b, i)) {
      after = b->loop[i];
      i = b->match[i + 1];
    } else if ((tok_equal(t, "op_decl_const") || tok_equal(t, "op_decl_const2")) && is_call(b, i)) {
      int name = declared_name(b, i + 1);
      if (name >= 0 && is_global(s, b->toks[name]))
        add_event(s, "declares", NULL, b, name, after);
      i = b->match[i + 1];
    } else if (is_op_call(b, i)) {
      host_call(s, b, i, after);
    } else if (t->kind == TK_IDENT && !tok_equal(prev, ".") && !tok_equal(prev, "->")) {
      host_use(s, b, i, after);
    }
  }
}

//
// The analysis
//

static void collect_host(Schedule *s) {
  const Program *prog = s->prog;
  bool *helper = ir_helper_flags(prog);
  Body **bodies = NULL;
  int nbodies = 0;
  for (int i = 0; i < prog->nfuncs; i++) {
    if (!is_host_func(prog, prog->funcs[i], helper))
      continue;
    Body *b = body_of(prog->funcs[i], prog);
    VEC_PUSH(bodies, nbodies, b);
    if (b->first_loop[0] < b->n) {
      VEC_PUSH(s->funcs, s->nfuncs, ((SchedFunc){b->func, b->loop[b->first_loop[0]], b->loop[b->last_loop[b->n - 1]]}));
      strmap_put(&s->func_index, b->func->name, (void *)b->func);
    }
  }
  for (int i = 0; i < nbodies; i++) {
    find_cycles(s, bodies[i]);
    host_uses(s, bodies[i]);
  }
}

static const IRDat *dat_by_var(const Schedule *s, const char *var) { return strmap_get(&s->dat_vars, var); }

// written[key]: a loop writes it, or host code (may) write a dat of it.
static bool *keys_written(const Schedule *s) {
  bool *written = xcalloc((size_t)s->nkeys + 1, sizeof(bool));
  for (int i = 0; i < s->ninvs; i++)
    for (int j = 0; j < s->invs[i].naccs; j++) {
      const SchedAccess *a = &s->invs[i].accs[j];
      written[a->key] |= !a->never && acc_writes(a->acc);
    }
  for (int i = 0; i < s->nevents; i++) {
    const SchedHostEvent *ev = &s->events[i];
    const IRDat *d = strcmp(ev->what, "reads") && !ev->via ? dat_by_var(s, ev->name) : NULL;
    if (d)
      written[key_of((Schedule *)s, dat_root(d)->var, true)] = true;
  }
  return written;
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
  bool *written = keys_written(s);
  for (int i = 0; i < prog->ndats; i++)
    if (!written[key_of(s, dat_root(prog->dats[i])->var, true)] && dat_by_var(s, prog->dats[i]->var) == prog->dats[i])
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
  if (s->too_many)
    fprintf(out, "dep-limit: more than %d dependences; the rest are not listed\n", OP2C_MAX_SCHEDULE_DEPS);
  fprintf(out, "never-written:");
  for (int i = 0; i < s->nnever_written; i++)
    fprintf(out, " %s", s->never_written[i]->var);
  fputc('\n', out);
  for (int i = 0; i < s->nevents; i++)
    dump_event(out, s, &s->events[i]);
}

//
// Global results that may land later (--target tinsel, docs/tinsel-backend.md
// "Globals the host waits for where it uses them")
//
// A call that writes a global (op_arg_gbl INC, MIN, MAX, WRITE, RW) made the
// host wait for its end at once. For a local variable whose every use op2c
// can see and rewrite, it need not: the variable gets a scope guard right
// after its declaration (OP2T_GBL_SCOPE: registered with the runtime, and
// waited for when the scope ends, however it ends), and every use in the
// function becomes OP2T_GBL(name), which waits for the calls under way that
// write it. Anything op2c cannot see through keeps the wait at the call: a
// file-scope or static variable, one whose address is taken (other than in
// the loops' op_arg_gbl) or that a C++ reference or a capture by reference
// may reach, an array, a declaration it does not recognise, a use from a
// macro or outside the declaration's block. (A function called with it for
// a reference parameter that keeps the reference is not seen: the wait
// comes at the call only.)

static bool is_type_word(const Token *t) {
  static const char *not_types[] = {"return", "goto", "case", "else", "do", "sizeof", "new", "delete",
                                    "throw", "typedef", "static", "extern", "register", "thread_local",
                                    "_Thread_local", "co_return", "co_yield", "co_await", "struct",
                                    "union", "enum", "class", "operator", "volatile", "constexpr", "for", "while",
                                    "if", "switch"};
  if (t->kind != TK_IDENT)
    return false;
  for (size_t i = 0; i < sizeof(not_types) / sizeof(*not_types); i++)
    if (tok_equal(t, not_types[i]))
      return false;
  return true;
}

// The first token of the statement holding token i at its own bracket depth:
// the token after the nearest `;`, `{` or `}` before it at that depth.
static int statement_start(const Body *b, int i) {
  int j = i - 1;
  while (j > 0) {
    const Token *t = b->toks[j];
    if (tok_equal(t, ";") || tok_equal(t, "{") || tok_equal(t, "}"))
      break;
    if (is_close(t) && b->match[j] >= 0 && b->match[j] < j)
      j = b->match[j];
    else if (is_open(t))
      return -1; // inside a bracket: a for header, a call, an initialiser
    j--;
  }
  return j + 1;
}

// A `{` that opens a block of statements (not a struct body or an initialiser).
static bool opens_block(const Body *b, int j) {
  if (j == 0)
    return true; // the function body
  const Token *p = b->toks[j - 1];
  return tok_equal(p, ")") || tok_equal(p, "{") || tok_equal(p, "}") || tok_equal(p, ";") || is_kw(p, "else") ||
         is_kw(p, "do") || is_kw(p, "try");
}

// Token i declares a plain variable: `SPEC... NAME` or `SPEC... A = x, NAME`
// followed by `=`, `,` or `;`, in a statement of its own in a block.
// *stmt gets the statement's first token.
static bool declares(const Body *b, int i, int *stmt) {
  const Token *next = b->toks[i + 1];
  if (!tok_equal(next, "=") && !tok_equal(next, ",") && !tok_equal(next, ";"))
    return false;
  int s = statement_start(b, i);
  if (s <= 0 || s >= i || (tok_equal(b->toks[s - 1], "{") && !opens_block(b, s - 1)))
    return false;
  int k = s; // SPEC...: a run of type words
  while (k < i && (is_type_word(b->toks[k]) || tok_equal(b->toks[k], "::")))
    k++;
  if (k < i) { // a later declarator: after a comma of the statement's own, past a first `SPEC A`
    if (!tok_equal(b->toks[i - 1], ",") || k - s < 2)
      return false;
    for (int j = k; j < i - 1; j++) {
      if (tok_equal(b->toks[j], ";"))
        return false;
      if (is_open(b->toks[j])) {
        if (b->match[j] <= j || b->match[j] >= i)
          return false;
        j = b->match[j];
      }
    }
  }
  *stmt = s;
  return true;
}

// Token i is the variable NAME (not a member or a qualified name of that spelling).
static bool names(const Body *b, int i, const char *name) {
  const Token *t = b->toks[i], *prev = b->toks[i - 1];
  return t->kind == TK_IDENT && tok_equal(t, name) && !tok_equal(prev, ".") && !tok_equal(prev, "->") &&
         !tok_equal(prev, "::");
}

static void add_edit(SrcEdit **edits, int *n, const char *at, int len, char *text) {
  VEC_PUSH(*edits, *n, ((SrcEdit){at, len, text}));
}

// NAME in body B: its declaration and its uses, or false.
static bool defer_name(const Body *b, const char *name, SrcEdit **edits, int *n) {
  int decl = -1, stmt = -1, close = -1;
  for (int i = 1; i + 1 < b->n; i++) {
    if (b->loop[i] >= 0 && is_call(b, i)) {
      i = b->match[i + 1];
      continue;
    }
    if (!names(b, i, name))
      continue;
    const Token *t = b->toks[i], *prev = b->toks[i - 1];
    if (t->from_macro || t->file != b->func->tok->file)
      return false;
    int s;
    if (decl < 0 && declares(b, i, &s)) {
      decl = i, stmt = s;
      int open = s - 1; // the block around the declaration
      close = b->match[open] > open ? b->match[open] : b->n - 1;
      if (!tok_equal(b->toks[b->end[s]], ";"))
        return false;
      continue;
    }
    if (decl < 0 || i > close)
      return false; // another variable of that name (a file-scope one, or another block's)
    if (tok_equal(prev, "&") && !ends_operand(i >= 2 ? b->toks[i - 2] : NULL))
      return false; // the address escapes
    if (i >= 3 && tok_equal(prev, "=") && b->toks[i - 2]->kind == TK_IDENT &&
        (tok_equal(b->toks[i - 3], "&") || tok_equal(b->toks[i - 3], "&&")))
      return false; // a C++ reference bound to it: `T &r = NAME`
    if (declares(b, i, &s))
      return false; // declared again in an inner block
  }
  if (decl < 0)
    return false;
  for (int i = 0; i + 1 < b->n; i++) // a C++ lambda that captures by reference may run later
    if (tok_equal(b->toks[i], "[") && tok_equal(b->toks[i + 1], "&"))
      return false;
  add_edit(edits, n, b->toks[b->end[stmt]]->loc + 1, 0, format(" OP2T_GBL_SCOPE(%s);", name)); // after its `;`
  for (int i = decl + 1; i < close; i++) {
    if (b->loop[i] >= 0 && is_call(b, i))
      i = b->match[i + 1];
    else if (names(b, i, name))
      add_edit(edits, n, b->toks[i]->loc, b->toks[i]->len, format("OP2T_GBL(%s)", name));
  }
  return true;
}

static int by_loc(const void *a, const void *b) {
  const SrcEdit *x = a, *y = b;
  return x->at < y->at ? -1 : x->at > y->at;
}

int schedule_deferred_gbls(const Program *prog, SrcEdit **edits) {
  bool *helper = ir_helper_flags(prog);
  int n = 0;
  *edits = NULL;
  for (int f = 0; f < prog->nfuncs; f++) {
    if (!is_host_func(prog, prog->funcs[f], helper))
      continue;
    Body *b = body_of(prog->funcs[f], prog);
    StrMap tried = {0};
    for (int i = 0; i < b->n; i++) {
      if (b->loop[i] < 0 || !is_call(b, i))
        continue;
      const IRLoop *l = prog->loops[b->loop[i]];
      for (int a = 0; a < l->nargs; a++) {
        const IRArg *g = &l->args[a];
        if (g->kind != ARG_GBL || !g->gbl_expr || g->gbl_const || !acc_writes(g->acc))
          continue;
        const char *e = g->gbl_expr;
        while (*e == ' ')
          e++;
        char *name = gbl_name(g->gbl_expr);
        if (*e != '&' || strmap_get(&tried, name))
          continue;
        strmap_put(&tried, name, (void *)1);
        int mark = n;
        if (!defer_name(b, name, edits, &n))
          n = mark;
      }
    }
  }
  if (n)
    qsort(*edits, (size_t)n, sizeof(SrcEdit), by_loc);
  return n;
}
