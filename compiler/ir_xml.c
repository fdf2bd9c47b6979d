// ir_xml.c: writes the IR as XML through libxml2's text writer. The schema
// is documented in docs/ir-xml.md; it carries what the text dump carries
// plus each kernel's and helper's source text.
#include "op2c.h"

#include "xml_writer.h"

#include <string.h>

static void attr_loc(XmlWriter *x, const Token *tok) {
  if (!tok)
    return;
  xml_attr(x, "file", file_display_name(tok->file));
  xml_attr_int(x, "line", tok->line);
}

static void write_func(XmlWriter *x, const IRFunc *fn) {
  xml_start(x, "func");
  xml_attr(x, "name", fn->name);
  xml_attr(x, "role", fn->is_kernel ? "kernel" : "helper");
  attr_loc(x, fn->tok);
  for (int i = 0; i < fn->nparams; i++) {
    xml_start(x, "param");
    xml_attr(x, "name", fn->params[i].name);
    xml_attr(x, "type", fn->params[i].type_text);
    xml_end(x);
  }
  for (int i = 0; i < fn->nhelpers; i++) {
    xml_start(x, "uses-helper");
    xml_attr(x, "name", fn->helpers[i]->name);
    xml_end(x);
  }
  for (int i = 0; i < fn->nconsts; i++) {
    xml_start(x, "uses-const");
    xml_attr(x, "name", fn->consts[i]->name);
    xml_end(x);
  }
  xml_start(x, "source");
  xml_text_cdata(x, fn->text);
  xml_end(x);
  xml_end(x);
}

static void write_arg(XmlWriter *x, int i, const IRArg *a) {
  static const char *kinds[] = {[ARG_DAT] = "dat", [ARG_GBL] = "gbl", [ARG_IDX] = "idx", [ARG_INFO] = "info"};
  xml_start(x, "arg");
  xml_attr_int(x, "index", i);
  xml_attr(x, "kind", kinds[a->kind]);
  if (a->kind == ARG_DAT && a->dat)
    xml_attr(x, "dat", a->dat->var);
  if (a->kind == ARG_GBL || a->kind == ARG_INFO)
    xml_attr(x, "data", a->gbl_expr);
  if (a->gbl_const)
    xml_attr(x, "const", a->gbl_const->name);
  if (a->kind == ARG_DAT || a->kind == ARG_IDX)
    xml_attr(x, "map", a->map ? a->map->var : "OP_ID");
  if (a->kind == ARG_DAT || a->kind == ARG_IDX)
    xml_attr_int(x, "idx", a->idx);
  if (a->kind != ARG_IDX) {
    xml_attr_int(x, "dim", a->dim);
    xml_attr(x, "type", a->type);
  }
  if (a->kind == ARG_DAT || a->kind == ARG_GBL)
    xml_attr(x, "access", access_name(a->acc));
  if (a->kind == ARG_INFO)
    xml_attr_int(x, "ref", a->info_ref);
  if (a->opt)
    xml_attr(x, "opt", a->opt_expr);
  xml_end(x);
}

static void write_program(XmlWriter *x, const Program *p) {
  xml_start(x, "program");
  xml_attr(x, "file", file_display_name(p->file));
  xml_attr(x, "lang", p->is_cxx ? "c++" : "c");
  for (int i = 0; i < p->nsets; i++) {
    xml_start(x, "set");
    xml_attr(x, "var", p->sets[i]->var);
    xml_attr(x, "name", p->sets[i]->name);
    xml_attr(x, "size", p->sets[i]->size_expr);
    attr_loc(x, p->sets[i]->tok);
    xml_end(x);
  }
  for (int i = 0; i < p->nmaps; i++) {
    IRMap *m = p->maps[i];
    xml_start(x, "map");
    xml_attr(x, "var", m->var);
    xml_attr(x, "name", m->name);
    xml_attr(x, "from", m->from ? m->from->var : NULL);
    xml_attr(x, "to", m->to ? m->to->var : NULL);
    xml_attr_int(x, "dim", m->dim);
    attr_loc(x, m->tok);
    xml_end(x);
  }
  for (int i = 0; i < p->ndats; i++) {
    IRDat *d = p->dats[i];
    xml_start(x, "dat");
    xml_attr(x, "var", d->var);
    xml_attr(x, "name", d->name);
    xml_attr(x, "set", d->set ? d->set->var : NULL);
    xml_attr_int(x, "dim", d->dim);
    xml_attr(x, "type", d->type);
    if (d->temp)
      xml_attr(x, "temp", "true");
    attr_loc(x, d->tok);
    xml_end(x);
  }
  for (int i = 0; i < p->nconsts; i++) {
    IRConst *c = p->consts[i];
    xml_start(x, "const");
    xml_attr(x, "name", c->name);
    xml_attr_int(x, "dim", c->dim);
    xml_attr(x, "type", c->type);
    xml_attr(x, "expr", c->expr);
    attr_loc(x, c->tok);
    xml_end(x);
  }
  bool *helper = ir_helper_flags(p);
  for (int i = 0; i < p->nfuncs; i++)
    if (p->funcs[i]->is_kernel || helper[i])
      write_func(x, p->funcs[i]);
  for (int i = 0; i < p->nloops; i++) {
    IRLoop *l = p->loops[i];
    xml_start(x, "loop");
    xml_attr(x, "invocation", l->invocation);
    xml_attr(x, "name", l->name);
    xml_attr(x, "kernel", l->kernel_name);
    xml_attr(x, "set", l->set ? l->set->var : NULL);
    attr_loc(x, l->tok);
    for (int j = 0; j < l->nargs; j++)
      write_arg(x, j, &l->args[j]);
    xml_end(x);
  }
  xml_end(x);
}

bool ir_write_xml(const char *path, Program **progs, int nprogs) {
  XmlWriter x;
  if (!xml_open(&x, path))
    return false;
  xml_start(&x, "op2-ir");
  xml_attr(&x, "version", "1");
  for (int i = 0; i < nprogs; i++)
    write_program(&x, progs[i]);
  xml_end(&x);
  return xml_close(&x, path);
}
