// transform.c: op2c --transform FILE (issue 18 item 4; docs/transform.md).
//
// A script names invocations (as --dump-schedule prints them) and what to
// do with them. One directive per line, `#` to the end of a line is a
// comment:
//
//   fuse A B [C ...]   run consecutive loops over the same set as one: one
//                      invocation whose kernel calls A's kernel then B's on
//                      each element (one begin, one end, one tree of ends
//                      instead of two on POETS)
//   fuse all           every run of consecutive loops that may be fused
//
// Fusing changes the order of work from "every element through A, then
// every element through B" to "each element through A then B", so it is
// legal only when no element's B can see another element's A: no dat
// touched by both with a write on either side unless both access it
// directly (the same element), no global written by one and used by the
// other, and nothing in between (the second call must be the statement
// right after the first). An illegal fuse is an error at the directive that
// names the dependence forbidding it.
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "op2c.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  Token *at;         // the directive's first token
  Token **names; int nnames;
  bool all;
} Directive;

static IRLoop *find_loop(const Program *prog, const char *name) {
  for (int i = 0; i < prog->nloops; i++)
    if (!strcmp(prog->loops[i]->invocation, name))
      return prog->loops[i];
  return NULL;
}

// How arg a touches its dat: "WRITE direct", "READ through pedge:0".
static char *touch_desc(const IRArg *a) {
  return format("%s %s%s", access_name(a->acc), a->map ? "through " : "", schedule_where(a));
}

static const char *dep_kind(Access first, Access second) {
  bool w1 = first != ACC_READ, w2 = second != ACC_READ;
  return w1 && w2 ? "write-after-write" : w1 ? "read-after-write" : "write-after-read";
}

static bool same_gbl(const IRArg *a, const IRArg *b) {
  return a->gbl_expr && b->gbl_expr && !strcmp(a->gbl_expr, b->gbl_expr);
}

// NULL if every element may run l1 then l2 at once, else the dependence.
static char *fuse_conflict(const IRLoop *l1, const IRLoop *l2) {
  if (l1->set != l2->set)
    return format("'%s' runs over set '%s' and '%s' over '%s'", l1->invocation, l1->set->var, l2->invocation,
                  l2->set->var);
  for (int i = 0; i < l1->nargs; i++)
    for (int j = 0; j < l2->nargs; j++) {
      const IRArg *a = &l1->args[i], *b = &l2->args[j];
      if (a->kind == ARG_DAT && b->kind == ARG_DAT && a->dat && a->dat == b->dat &&
          (a->acc != ACC_READ || b->acc != ACC_READ) && (a->map || b->map))
        return format("dat '%s' carries a %s dependence: '%s' arg %d %s, '%s' arg %d %s; fused, an element "
                      "would see another element's value from the wrong side of it",
                      a->dat->var, dep_kind(a->acc, b->acc), l1->invocation, i, touch_desc(a), l2->invocation, j,
                      touch_desc(b));
      if ((a->kind == ARG_GBL || a->kind == ARG_INFO) && (b->kind == ARG_GBL || b->kind == ARG_INFO) &&
          !a->gbl_const && !b->gbl_const && same_gbl(a, b) && (a->acc != ACC_READ || b->acc != ACC_READ))
        return format("global '%s' carries a %s dependence: '%s' arg %d is OP_%s, '%s' arg %d is OP_%s",
                      a->gbl_expr, dep_kind(a->acc, b->acc), l1->invocation, i, access_name(a->acc), l2->invocation,
                      j, access_name(b->acc));
    }
  return NULL;
}

// The call of `next` is the statement right after the call of `prev`.
static bool adjacent(const IRLoop *prev, const IRLoop *next) {
  const Token *semi = prev->rparen ? prev->rparen->next : NULL;
  return semi && tok_equal(semi, ";") && semi->next == next->tok && !semi->from_macro && !next->tok->from_macro;
}

// The kernel of the fused loop: each part's kernel on its own parameters.
static IRFunc *fused_kernel(Program *prog, IRLoop **parts, int n, const char *name) {
  IRFunc *fn = xcalloc(1, sizeof(IRFunc));
  fn->name = xstrdup(name);
  fn->is_kernel = true;
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  fprintf(f, "static inline void %s(", name);
  int k = 0;
  for (int p = 0; p < n; p++)
    for (int i = 0; i < parts[p]->nargs; i++, k++) {
      IRParam q = parts[p]->kernel->params[i];
      char *stars = xstrdup("");
      for (int s = 0; s < q.indirection; s++)
        stars = format("%s*", stars);
      q.type_text = format("%s%s %s", q.is_const ? "const " : "", q.base, stars);
      q.name = format("p%d", k);
      VEC_PUSH(fn->params, fn->nparams, q);
      fprintf(f, "%s%s%s", k ? ", " : "", q.type_text, q.name);
    }
  fprintf(f, ") {\n");
  k = 0;
  for (int p = 0; p < n; p++) {
    fprintf(f, "  %s(", parts[p]->kernel_name);
    for (int i = 0; i < parts[p]->nargs; i++, k++)
      fprintf(f, "%sp%d", i ? ", " : "", k);
    fprintf(f, ");\n");
    VEC_PUSH(fn->helpers, fn->nhelpers, parts[p]->kernel);
    for (int h = 0; h < parts[p]->kernel->nhelpers; h++)
      VEC_PUSH(fn->helpers, fn->nhelpers, parts[p]->kernel->helpers[h]);
    for (int c = 0; c < parts[p]->kernel->nconsts; c++) {
      int have = 0;
      while (have < fn->nconsts && fn->consts[have] != parts[p]->kernel->consts[c])
        have++;
      if (have == fn->nconsts)
        VEC_PUSH(fn->consts, fn->nconsts, parts[p]->kernel->consts[c]);
    }
  }
  fprintf(f, "}\n");
  fclose(f);
  fn->text = xstrdup(text); // op2c's allocations, released with the rest (front_end_release)
  free(text);
  fn->tok = parts[0]->kernel_tok;
  fn->index = prog->nfuncs;
  VEC_PUSH(prog->funcs, prog->nfuncs, fn);
  return fn;
}

// Replaces loops [first, first + n) by one loop that runs them per element.
static void fuse(Program *prog, int first, int n) {
  IRLoop **parts = xcalloc((size_t)n, sizeof(IRLoop *));
  IRLoop *l = xcalloc(1, sizeof(IRLoop));
  *l = *prog->loops[first];
  char *inv = NULL, *name = NULL;
  l->args = NULL;
  l->nargs = 0;
  l->parts = NULL;
  l->nparts = 0;
  for (int p = 0; p < n; p++) {
    IRLoop *part = prog->loops[first + p];
    // a part may itself be fused: its call sites come along
    for (int s = 0; s < (part->nparts ? part->nparts : 1); s++)
      VEC_PUSH(l->parts, l->nparts, part->nparts ? part->parts[s] : part);
    parts[p] = part;
    for (int i = 0; i < part->nargs; i++) {
      VEC_PUSH(l->args, l->nargs, part->args[i]);
    }
  }
  // op_arg_info: its MIN/MAX global's position moves with the part's args
  for (int p = 0, base = 0; p < n; base += parts[p]->nargs, p++)
    for (int i = 0; i < parts[p]->nargs; i++)
      if (parts[p]->args[i].kind == ARG_INFO)
        l->args[base + i].info_ref = base + parts[p]->args[i].info_ref;
  for (int s = 0; s < l->nparts; s++) { // named after the loops as written
    inv = s ? format("%s_%s", inv, l->parts[s]->invocation) : xstrdup(l->parts[s]->invocation);
    name = s ? format("%s+%s", name, l->parts[s]->invocation) : xstrdup(l->parts[s]->invocation);
  }
  l->invocation = format("fused_%s", inv);
  l->kernel_name = format("op2c_fuse_%s", inv);
  l->name = format("\"%s\"", name);
  for (int p = 0; p < n; p++) // a wrapper fused again is no kernel any more
    if (parts[p]->nparts)
      parts[p]->kernel->is_kernel = false;
  l->kernel = fused_kernel(prog, l->parts, l->nparts, l->kernel_name);
  l->rparen = parts[n - 1]->rparen;
  prog->loops[first] = l;
  memmove(&prog->loops[first + 1], &prog->loops[first + n], sizeof(IRLoop *) * (size_t)(prog->nloops - first - n));
  prog->nloops -= n - 1;
  for (int i = 0; i < prog->nloops; i++)
    prog->loops[i]->index = i;
}

// Whether loops[i] and loops[i + 1] may be fused; else *why says why not.
static bool may_fuse(const Program *prog, int i, char **why) {
  const IRLoop *a = prog->loops[i], *b = prog->loops[i + 1];
  if (!adjacent(a, b)) {
    *why = format("the call of '%s' (%s:%d) is not the statement right after the call of '%s' (%s:%d)",
                  b->invocation, file_display_name(b->tok->file), b->tok->line, a->invocation,
                  file_display_name(a->tok->file), a->tok->line);
    return false;
  }
  if (a->nargs + b->nargs > OP2C_MAX_LOOP_ARGS) {
    *why = format("together they have %d op_arg_* arguments, more than %d", a->nargs + b->nargs,
                  OP2C_MAX_LOOP_ARGS);
    return false;
  }
  *why = fuse_conflict(a, b);
  return *why == NULL;
}

static void apply_fuse(Program *prog, const Directive *d) {
  if (d->all) {
    for (int i = 0; i + 1 < prog->nloops;) {
      char *why;
      if (may_fuse(prog, i, &why))
        fuse(prog, i, 2);
      else
        i++;
    }
    return;
  }
  IRLoop *first = find_loop(prog, tok_text(d->names[0]));
  for (int k = 0; k < d->nnames; k++) {
    IRLoop *l = find_loop(prog, tok_text(d->names[k]));
    if (!l) {
      error_tok(d->names[k], "no invocation '%s' in %s (op2c --dump-schedule lists them)", tok_text(d->names[k]),
                file_display_name(prog->file));
      return;
    }
    if (k && l->index != first->index + 1) {
      error_tok(d->names[k], "cannot fuse '%s' and '%s': they are not consecutive invocations", first->invocation,
                l->invocation);
      return;
    }
    if (k) {
      char *why;
      if (!may_fuse(prog, first->index, &why)) {
        error_tok(d->names[k], "cannot fuse '%s' and '%s': %s", first->invocation, l->invocation, why);
        return;
      }
      fuse(prog, first->index, 2);
      first = prog->loops[first->index];
    }
  }
}

// Parses the script into directives; false after an error.
static bool parse(Token *tok, Directive **out, int *n) {
  *out = NULL;
  *n = 0;
  while (tok->kind != TK_EOF) {
    if (tok_equal(tok, "#")) { // a comment to the end of the line
      for (tok = tok->next; tok->kind != TK_EOF && !tok->at_bol; tok = tok->next)
        ;
      continue;
    }
    Directive d = {tok, NULL, 0, false};
    if (!tok_equal(tok, "fuse")) {
      error_tok(tok, "unknown transformation '%s' (expected: fuse)", tok_text(tok));
      return false;
    }
    for (tok = tok->next; tok->kind != TK_EOF && !tok->at_bol && !tok_equal(tok, "#"); tok = tok->next) {
      if (tok->kind != TK_IDENT) {
        error_tok(tok, "expected an invocation name, not '%s'", tok_text(tok));
        return false;
      }
      VEC_PUSH(d.names, d.nnames, tok);
    }
    d.all = d.nnames == 1 && tok_equal(d.names[0], "all");
    if (!d.all && d.nnames < 2) {
      error_tok(d.at, "fuse needs at least two invocations (or 'all')");
      return false;
    }
    VEC_PUSH(*out, *n, d);
  }
  return true;
}

bool transform_apply(Program *prog, const char *path) {
  size_t len;
  const char *why;
  char *text = read_source_file(path, &len, &why);
  if (!text) {
    error_plain("cannot read transform script '%s': %s", path, why);
    return false;
  }
  Token *tok = tokenize(new_file(path, text, len));
  Directive *ds;
  int n, errors = diag_errors;
  if (!parse(tok, &ds, &n))
    return false;
  for (int i = 0; i < n && diag_errors == errors; i++)
    apply_fuse(prog, &ds[i]);
  return diag_errors == errors;
}
