// backends/seq/gen.c: the sequential back end, op2c's correctness oracle.
//
// For each source file it writes a copy in which every
//   op_par_loop(kernel, "name", set, args...)
// becomes
//   op_par_loop_<invocation>("name", set, args...)
// (the rest of the call, op_arg_* expressions included, is left as written:
// the runtime builds the op_arg values), and appends one generated loop
// function per invocation. That function runs the elements in order
// 0..n-1 and hands the kernel the pointers OP2's seq back end would: a
// direct dat's element, a mapped element, an array of pointers for a vector
// arg, the user's variable for a global, an int for op_arg_idx. The copy
// keeps the original line numbers (#line), so compiler messages and
// debuggers point at the user's file.
#include "../../op2c.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

// The C type the kernel parameter for arg i is cast to, with `extra` more
// levels of indirection removed (1 for the element type of a vector arg).
static char *param_cast(const IRLoop *loop, int i, int strip) {
  const IRArg *a = &loop->args[i];
  const IRParam *p = loop->kernel ? &loop->kernel->params[i] : NULL;
  const TypeInfo *ti = a->type ? type_lookup(a->type) : NULL;
  const char *base = p && p->base[0] ? p->base : ti ? ti->c : "char";
  bool is_const = p ? p->is_const : a->acc == ACC_READ;
  int levels = (a->kind == ARG_DAT && a->idx <= -2 ? 2 : 1) - strip;
  char *s = format("%s%s ", is_const ? "const " : "", base);
  for (int k = 0; k < levels; k++)
    s = format("%s*", s);
  return s;
}

// The address of element `elem` (a C expression) of dat arg i.
static char *elem_ptr(int i, const char *elem) {
  return format("(d%d + (size_t)(%s) * s%d)", i, elem, i);
}

static char *mapped(int i, const char *slot) { return format("m%d[n * md%d + %s]", i, i, slot); }

static void gen_prelude(FILE *out, const IRLoop *loop, int i) {
  const IRArg *a = &loop->args[i];
  if (a->kind == ARG_DAT && a->idx <= -2) {
    int m = -a->idx;
    fprintf(out, "    %sv%d[%d];\n", param_cast(loop, i, 1), i, m);
    fprintf(out, "    %sfor (int k = 0; k < %d; k++)\n", a->opt ? format("if (arg%d.opt)\n      ", i) : "", m);
    fprintf(out, "%s      v%d[k] = (%s)%s;\n", a->opt ? "  " : "", i, param_cast(loop, i, 1),
            elem_ptr(i, mapped(i, "k")));
  } else if (a->kind == ARG_IDX) {
    if (a->map)
      fprintf(out, "    int x%d = %s;\n", i, mapped(i, format("%d", a->idx)));
    else
      fprintf(out, "    int x%d = n;\n", i);
  }
}

static char *kernel_arg(const IRLoop *loop, int i) {
  const IRArg *a = &loop->args[i];
  char *expr;
  switch (a->kind) {
  case ARG_DAT:
    if (a->idx <= -2)
      expr = format("v%d", i);
    else if (a->map)
      expr = format("(%s)%s", param_cast(loop, i, 0), elem_ptr(i, mapped(i, format("%d", a->idx))));
    else
      expr = format("(%s)%s", param_cast(loop, i, 0), elem_ptr(i, "n"));
    break;
  case ARG_GBL:
  case ARG_INFO: // the user's variable: elements in order update it after one another
    expr = format("(%s)arg%d.data", param_cast(loop, i, 0), i);
    break;
  case ARG_IDX:
    return format("&x%d", i);
  default:
    unreachable();
  }
  if (a->opt)
    expr = format("arg%d.opt ? %s : NULL", i, expr);
  return expr;
}

// The loop function's signature and its `args` array, shared by back ends.
void translate_loop_prologue(FILE *out, const IRLoop *loop) {
  int n = loop->nargs;
  fprintf(out, "\n// %s over %s, from %s:%d\n", loop->kernel_name, loop->set->var,
          file_display_name(loop->tok->file), loop->tok->line);
  fprintf(out, "static void op_par_loop_%s(const char *name, op_set set", loop->invocation);
  for (int i = 0; i < n; i++)
    fprintf(out, ", op_arg arg%d", i);
  fprintf(out, ")\n{\n");
  if (n > 0) {
    fprintf(out, "  op_arg args[%d] = {", n);
    for (int i = 0; i < n; i++)
      fprintf(out, "%sarg%d", i ? ", " : "", i);
    fprintf(out, "};\n");
  } else {
    fprintf(out, "  op_arg *args = NULL;\n");
  }
}

static void gen_loop(FILE *out, const IRLoop *loop) {
  int n = loop->nargs;
  translate_loop_prologue(out, loop);
  fprintf(out, "  double t0 = op_rt_loop_enter(name, set, %d, args);\n", n);
  for (int i = 0; i < n; i++) {
    const IRArg *a = &loop->args[i];
    if (a->kind == ARG_DAT)
      fprintf(out, "  char *d%d = arg%d.data;\n  size_t s%d = (size_t)arg%d.size;\n", i, i, i, i);
    if (a->kind != ARG_GBL && a->map)
      fprintf(out, "  const int *m%d = arg%d.map_data;\n  int md%d = arg%d.map ? arg%d.map->dim : 0;\n",
              i, i, i, i, i);
  }
  fprintf(out, "  for (int n = 0; n < set->size; n++) {\n");
  for (int i = 0; i < n; i++)
    gen_prelude(out, loop, i);
  fprintf(out, "    %s(", loop->kernel_name);
  for (int i = 0; i < n; i++)
    fprintf(out, "%s\n      %s", i ? "," : "", kernel_arg(loop, i));
  fprintf(out, ");\n  }\n");
  fprintf(out, "  op_rt_loop_exit(name, set, %d, args, t0);\n}\n", n);
}

static int count_lines(const char *s, size_t n) {
  int lines = 0;
  for (size_t i = 0; i < n; i++)
    lines += s[i] == '\n';
  return lines;
}

static char *absolute(const char *path) {
  char buf[PATH_MAX];
  return realpath(path, buf) ? xstrdup(buf) : xstrdup(path);
}

// Call sites: a loop as written has one; a fused loop (transform.c) one per
// part, each calling op_par_loop_<invocation>__<k>, and the last runs it.
static int sites(const IRLoop *l) { return l->nparts ? l->nparts : 1; }
static const IRLoop *site_loop(const IRLoop *l, int s) { return l->nparts ? l->parts[s] : l; }
static char *site_fn(const IRLoop *l, int s) {
  return l->nparts ? format("%s__%d", l->invocation, s + 1) : xstrdup(l->invocation);
}

// A fused loop's call sites: the first ones keep their op_args, the last
// runs the loop with all of them. They must run in turn, as the program
// wrote them one right after another; anything else (a call of one part
// in a branch of its own) stops the program.
static void gen_fused_sites(FILE *out, const IRLoop *l) {
  int kept = l->nargs - l->parts[l->nparts - 1]->nargs;
  fprintf(out, "\n#include <stdio.h>\n#include <stdlib.h>\n");
  fprintf(out, "static op_arg op2c_%s_args[%d];\nstatic int op2c_%s_at;\n", l->invocation, kept ? kept : 1,
          l->invocation);
  fprintf(out, "static void op2c_%s_order(int site) {\n  if (op2c_%s_at != site - 1) {\n", l->invocation,
          l->invocation);
  fprintf(out, "    fprintf(stderr, \"op2: fused loop %s: call %%d of %d ran after call %%d (--transform fused "
               "calls that do not always run one right after another)\\n\", site, op2c_%s_at);\n",
          l->invocation, l->nparts, l->invocation);
  fprintf(out, "    exit(1);\n  }\n  op2c_%s_at = site;\n}\n", l->invocation);
  for (int s = 0, k = 0; s < l->nparts; s++) {
    const IRLoop *p = l->parts[s];
    bool last = s == l->nparts - 1;
    fprintf(out, "static void op_par_loop_%s(const char *name, op_set set", site_fn(l, s));
    for (int i = 0; i < p->nargs; i++)
      fprintf(out, ", op_arg arg%d", i);
    fprintf(out, ")\n{\n  (void)name;\n  op2c_%s_order(%d);\n", l->invocation, s + 1);
    if (!last) {
      fprintf(out, "  (void)set;\n");
      for (int i = 0; i < p->nargs; i++, k++)
        fprintf(out, "  op2c_%s_args[%d] = arg%d;\n", l->invocation, k, i);
    } else {
      fprintf(out, "  op2c_%s_at = 0;\n  op_par_loop_%s(%s, set", l->invocation, l->invocation, l->name);
      for (int i = 0; i < kept; i++)
        fprintf(out, ", op2c_%s_args[%d]", l->invocation, i);
      for (int i = 0; i < p->nargs; i++)
        fprintf(out, ", arg%d", i);
      fprintf(out, ");\n");
    }
    fprintf(out, "}\n");
  }
}

// The text up to edit E, then its replacement; returns where the copy goes on.
static const char *apply_edit(FILE *out, const char *pos, const SrcEdit *e) {
  fwrite(pos, 1, (size_t)(e->at - pos), out);
  fputs(e->text, out);
  return e->at + e->len;
}

// Writes the translated copy of prog's file; returns false on error. The
// tinsel back end shares it, with its own header lines and loop functions
// (and its edits of the text: tr->edits).
bool translate_source(const Program *prog, const char *path, const Translation *tr) {
  char *text;
  size_t len;
  FILE *out = open_memstream(&text, &len);
  const char *src = prog->file->contents;

  fprintf(out, "// Generated by op2c --target %s from %s. Do not edit.\n", tr->target, prog->file->name);
  // The API only: what OP2's headers give the program besides (MIN, MAX,
  // the standard headers) comes where the program includes them, after
  // its own #defines (host/seq/op_seq.h).
  fprintf(out, "#define OP2C_PREAMBLE 1\n#include \"op_seq.h\"\n");
  if (tr->header)
    tr->header(out, prog);
  fprintf(out, "#undef OP2C_PREAMBLE\n");
  for (int i = 0; i < prog->nloops; i++)
    for (int s = 0; s < sites(prog->loops[i]); s++) {
      const IRLoop *l = prog->loops[i], *site = site_loop(l, s);
      fprintf(out, "static void op_par_loop_%s(const char *, op_set", site_fn(l, s));
      for (int j = 0; j < site->nargs; j++)
        fprintf(out, ", op_arg");
      fprintf(out, ");\n");
    }
  fprintf(out, "#line 1 \"%s\"\n", absolute(prog->file->name));

  const char *pos = src;
  int e = 0;
  for (int i = 0; i < prog->nloops; i++)
    for (int s = 0; s < sites(prog->loops[i]); s++) {
      const IRLoop *l = site_loop(prog->loops[i], s);
      Token *comma = l->kernel_tok->next;
      if (l->kernel_tok->from_macro || comma->from_macro || l->kernel_tok->file != prog->file ||
          !tok_equal(comma, ",")) {
        error_tok(l->kernel_tok, "op_par_loop's kernel must be written literally in the call");
        fclose(out);
        return false;
      }
      for (; e < tr->nedits && tr->edits[e].at < l->tok->loc; e++)
        pos = apply_edit(out, pos, &tr->edits[e]);
      fwrite(pos, 1, (size_t)(l->tok->loc - pos), out);
      fprintf(out, "op_par_loop_%s(", site_fn(prog->loops[i], s));
      const char *after = comma->loc + comma->len;
      for (int k = count_lines(l->tok->loc, (size_t)(after - l->tok->loc)); k > 0; k--)
        fputc('\n', out);
      pos = after;
    }
  for (; e < tr->nedits; e++)
    pos = apply_edit(out, pos, &tr->edits[e]);
  fputs(pos, out);
  fflush(out);
  fprintf(out, "\n#line %d \"%s\"\n", count_lines(text, len) + 3, path);
  for (int i = 0; i < prog->nloops; i++) // fused loops' kernels call the parts' kernels
    if (prog->loops[i]->nparts)
      fprintf(out, "\n%s", prog->loops[i]->kernel->text);
  if (tr->before_loops)
    tr->before_loops(out, prog);
  for (int i = 0; i < prog->nloops; i++)
    tr->gen_loop(out, prog->loops[i]);
  for (int i = 0; i < prog->nloops; i++)
    if (prog->loops[i]->nparts)
      gen_fused_sites(out, prog->loops[i]);
  fclose(out);

  FILE *fp = fopen(path, "w");
  if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp) != 0) {
    error_plain("cannot write '%s'", path);
    return false;
  }
  free(text);
  return true;
}

static const char *basename_of(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static int build(Program **progs, int nprogs, const BackendOptions *opts) {
  StrArray sources = {0};
  for (int i = 0; i < nprogs; i++) {
    char *path = format("%s/%d_%s", opts->gen_dir, i, basename_of(progs[i]->file->name));
    if (!translate_source(progs[i], path, &(Translation){"seq", NULL, NULL, gen_loop, NULL, 0}))
      return 1;
    strarray_push(&sources, path);
  }
  return compile_and_link(progs, &sources, opts, "libop2_seq.a");
}

const Backend backend_seq = {
    .name = "seq",
    .description = "sequential host executable (the reference semantics)",
    .build = build,
};
