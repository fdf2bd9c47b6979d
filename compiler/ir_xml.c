// ir_xml.c: writes the IR as XML through libxml2's text writer. The schema
// is documented in docs/ir-xml.md; it carries what the text dump carries
// plus each kernel's and helper's source text.
#include "op2c.h"

#include <libxml/xmlwriter.h>
#include <string.h>

typedef struct {
  xmlTextWriterPtr w;
  bool ok;
} Writer;

static void start(Writer *x, const char *name) {
  x->ok &= xmlTextWriterStartElement(x->w, BAD_CAST name) >= 0;
}

static void end(Writer *x) { x->ok &= xmlTextWriterEndElement(x->w) >= 0; }

static void attr(Writer *x, const char *name, const char *value) {
  if (value)
    x->ok &= xmlTextWriterWriteAttribute(x->w, BAD_CAST name, BAD_CAST value) >= 0;
}

static void attr_int(Writer *x, const char *name, int value) {
  x->ok &= xmlTextWriterWriteFormatAttribute(x->w, BAD_CAST name, "%d", value) >= 0;
}

static void attr_loc(Writer *x, const Token *tok) {
  if (!tok)
    return;
  attr(x, "file", file_display_name(tok->file));
  attr_int(x, "line", tok->line);
}

static void write_func(Writer *x, const IRFunc *fn) {
  start(x, "func");
  attr(x, "name", fn->name);
  attr(x, "role", fn->is_kernel ? "kernel" : "helper");
  attr_loc(x, fn->tok);
  for (int i = 0; i < fn->nparams; i++) {
    start(x, "param");
    attr(x, "name", fn->params[i].name);
    attr(x, "type", fn->params[i].type_text);
    end(x);
  }
  for (int i = 0; i < fn->nhelpers; i++) {
    start(x, "uses-helper");
    attr(x, "name", fn->helpers[i]->name);
    end(x);
  }
  for (int i = 0; i < fn->nconsts; i++) {
    start(x, "uses-const");
    attr(x, "name", fn->consts[i]->name);
    end(x);
  }
  start(x, "source");
  x->ok &= xmlTextWriterWriteCDATA(x->w, BAD_CAST fn->text) >= 0;
  end(x);
  end(x);
}

static void write_arg(Writer *x, int i, const IRArg *a) {
  static const char *kinds[] = {[ARG_DAT] = "dat", [ARG_GBL] = "gbl", [ARG_IDX] = "idx"};
  start(x, "arg");
  attr_int(x, "index", i);
  attr(x, "kind", kinds[a->kind]);
  if (a->kind == ARG_DAT && a->dat)
    attr(x, "dat", a->dat->var);
  if (a->kind == ARG_GBL)
    attr(x, "data", a->gbl_expr);
  if (a->gbl_const)
    attr(x, "const", a->gbl_const->name);
  if (a->kind != ARG_GBL)
    attr(x, "map", a->map ? a->map->var : "OP_ID");
  if (a->kind != ARG_GBL)
    attr_int(x, "idx", a->idx);
  if (a->kind != ARG_IDX) {
    attr_int(x, "dim", a->dim);
    attr(x, "type", a->type);
    attr(x, "access", access_name(a->acc));
  }
  if (a->opt)
    attr(x, "opt", a->opt_expr);
  end(x);
}

static bool used_by_kernel(const Program *prog, const IRFunc *fn) {
  if (fn->is_kernel)
    return true;
  for (int i = 0; i < prog->nfuncs; i++)
    for (int j = 0; j < prog->funcs[i]->nhelpers; j++)
      if (prog->funcs[i]->helpers[j] == fn)
        return true;
  return false;
}

static void write_program(Writer *x, const Program *p) {
  start(x, "program");
  attr(x, "file", file_display_name(p->file));
  attr(x, "lang", p->is_cxx ? "c++" : "c");
  for (int i = 0; i < p->nsets; i++) {
    start(x, "set");
    attr(x, "var", p->sets[i]->var);
    attr(x, "name", p->sets[i]->name);
    attr(x, "size", p->sets[i]->size_expr);
    attr_loc(x, p->sets[i]->tok);
    end(x);
  }
  for (int i = 0; i < p->nmaps; i++) {
    IRMap *m = p->maps[i];
    start(x, "map");
    attr(x, "var", m->var);
    attr(x, "name", m->name);
    attr(x, "from", m->from ? m->from->var : NULL);
    attr(x, "to", m->to ? m->to->var : NULL);
    attr_int(x, "dim", m->dim);
    attr_loc(x, m->tok);
    end(x);
  }
  for (int i = 0; i < p->ndats; i++) {
    IRDat *d = p->dats[i];
    start(x, "dat");
    attr(x, "var", d->var);
    attr(x, "name", d->name);
    attr(x, "set", d->set ? d->set->var : NULL);
    attr_int(x, "dim", d->dim);
    attr(x, "type", d->type);
    if (d->temp)
      attr(x, "temp", "true");
    attr_loc(x, d->tok);
    end(x);
  }
  for (int i = 0; i < p->nconsts; i++) {
    IRConst *c = p->consts[i];
    start(x, "const");
    attr(x, "name", c->name);
    attr_int(x, "dim", c->dim);
    attr(x, "type", c->type);
    attr(x, "expr", c->expr);
    attr_loc(x, c->tok);
    end(x);
  }
  for (int i = 0; i < p->nfuncs; i++)
    if (used_by_kernel(p, p->funcs[i]))
      write_func(x, p->funcs[i]);
  for (int i = 0; i < p->nloops; i++) {
    IRLoop *l = p->loops[i];
    start(x, "loop");
    attr(x, "invocation", l->invocation);
    attr(x, "name", l->name);
    attr(x, "kernel", l->kernel_name);
    attr(x, "set", l->set ? l->set->var : NULL);
    attr_loc(x, l->tok);
    for (int j = 0; j < l->nargs; j++)
      write_arg(x, j, &l->args[j]);
    end(x);
  }
  end(x);
}

bool ir_write_xml(const char *path, Program **progs, int nprogs) {
  Writer x = {.w = xmlNewTextWriterFilename(path, 0), .ok = true};
  if (!x.w) {
    error_plain("cannot open '%s' for writing", path);
    return false;
  }
  xmlTextWriterSetIndent(x.w, 1);
  xmlTextWriterSetIndentString(x.w, BAD_CAST "  ");
  x.ok &= xmlTextWriterStartDocument(x.w, NULL, "UTF-8", NULL) >= 0;
  start(&x, "op2-ir");
  attr(&x, "version", "1");
  for (int i = 0; i < nprogs; i++)
    write_program(&x, progs[i]);
  end(&x);
  x.ok &= xmlTextWriterEndDocument(x.w) >= 0;
  xmlFreeTextWriter(x.w);
  if (!x.ok)
    error_plain("failed writing '%s'", path);
  return x.ok;
}
