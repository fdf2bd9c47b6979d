// host_tables.c: writes op2_host.c, the protocol tables the host runtime
// (host/tinsel/op_tinsel.h) binds to the sets, maps and dats of each call:
// device types, consts, and per invocation the involved types and, per
// arg, its pins and where its data sits. Offsets and sizes come from the
// generated structs (offsetof/sizeof), so host and devices cannot disagree.
#include "host_tables.h"
#include "../../tools/poets_types.h"

#include <string.h>

static int type_index(const GGraphType *g, const IRSet *s) {
  for (int i = 0; i < g->ntypes; i++)
    if (g->types[i]->set == s)
      return i;
  unreachable();
}

// Input or output pin number of the pin called name on t, or -1.
static int pin_number(const GDeviceType *t, const char *name) {
  int p = fw_find_pin(t, name);
  if (p < 0)
    return -1;
  return t->pins[p].is_output ? fw_out_index(t, p) : fw_in_index(t, p);
}

static const char *gbl_type(const char *op2_type) {
  static const char *names[][2] = {{"double", "OP2T_DOUBLE"}, {"float", "OP2T_FLOAT"},
                                   {"int", "OP2T_INT"},       {"uint", "OP2T_UINT"},
                                   {"ll", "OP2T_LL"},         {"ull", "OP2T_ULL"},
                                   {"bool", "OP2T_BOOL"}};
  size_t n = strcspn(op2_type, ":");
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
    if (strlen(names[i][0]) == n && !strncmp(names[i][0], op2_type, n))
      return names[i][1];
  unreachable();
}

// The members of a struct of C declarations as graph.c writes them
// ("T name[n1][n2];", several to a line, comments after): the table the
// instance writer formats P and S values from, by offsetof in the struct
// NAME. Returns the count; writes nothing for none.
static int write_members(FILE *f, const char *table, const char *name, const char *decls) {
  static const char *const names[] = {POETS_TYPE_NAMES}; // OP2T_M_* in this order
  static const char *const kinds[] = {"I8", "U8", "I16", "U16", "I32", "U32", "I64", "U64", "F32", "F64"};
  _Static_assert(sizeof(names) == sizeof(kinds), "a kind per type name");
  int n = 0;
  for (const char *p = decls ? decls : ""; *p;) {
    p += strspn(p, " \t\n");
    if (p[0] == '/' && p[1] == '/') {
      p += strcspn(p, "\n");
      continue;
    }
    size_t len = strcspn(p, ";");
    char decl[256], type[16], member[128];
    int n1 = 0, n2 = 0;
    snprintf(decl, sizeof decl, "%.*s", (int)len, p);
    p += len + (p[len] == ';');
    if (sscanf(decl, "%15s %127[A-Za-z0-9_] [%d] [%d]", type, member, &n1, &n2) < 2)
      continue;
    const char *kind = NULL;
    for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++)
      if (!strcmp(names[k], type))
        kind = kinds[k];
    if (!kind)
      unreachable(); // graph.c declares fixed-width types only
    if (!n++)
      fprintf(f, "static const op2t_member %s[] = {\n", table);
    fprintf(f, "  {OP2T_M_%s, offsetof(%s, %s), %d, %d},\n", kind, name, member, n1, n2);
  }
  if (n)
    fprintf(f, "};\n");
  return n;
}

static char *off_or_none(bool cond, const char *type, const char *member) {
  return cond ? format("offsetof(%s, %s)", type, member) : xstrdup("-1");
}

// The bit of begin's fresh word that arg i's reads answer to (those of the
// message that lands them, which may be another arg's), -1 if it reads none.
static int fresh_bit_of_arg(const ProtoInvocation *pi, int i) {
  for (int j = 0; j < pi->npins; j++)
    for (int k = 0; pi->pins[j].kind == PIN_READ_RECV && k < pi->pins[j].nargs; k++)
      if (pi->pins[j].args[k] == i)
        return protocol_fresh_bit(pi, protocol_read_send_of(pi, &pi->pins[j]));
  return -1;
}

static void write_arg(FILE *f, const GGraphType *g, const ProtoInvocation *pi, int i) {
  const IRLoop *l = pi->loop;
  const IRArg *a = &l->args[i];
  const char *inv = l->invocation;
  const GDeviceType *iter = g->types[type_index(g, l->set)];
  bool indirect = a->kind == ARG_DAT && a->map;
  // Reads that ride on another arg's message (protocol.c) have no pins of their own.
  const ProtoPin *recv = indirect ? protocol_read_recv_of(pi, i) : NULL;
  const ProtoPin *send = recv ? protocol_read_send_of(pi, recv) : NULL;
  // An arg of a write group (protocol.c) names its group's pin: the host then
  // fans one message out to the elements of every arg in it (edges.c).
  const ProtoPin *wsend = indirect ? protocol_write_send_of(pi, i) : NULL;
  bool gbl = (a->kind == ARG_GBL && !a->gbl_const) || a->kind == ARG_INFO;
  const GDeviceType *t = a->kind == ARG_DAT ? g->types[type_index(g, a->dat->set)] : NULL;
  const char *kind = a->kind == ARG_DAT ? (indirect ? "OP2T_ARG_INDIRECT" : "OP2T_ARG_DIRECT")
                     : a->kind == ARG_IDX ? "OP2T_ARG_IDX"
                     : a->kind == ARG_INFO ? "OP2T_ARG_INFO"
                     : gbl               ? "OP2T_ARG_GBL"
                                         : "OP2T_ARG_CONST";
  char *state = t ? format("%s_state", t->id) : NULL;
  char *dat = t ? format("dat_%s", a->dat->ident) : NULL;
  char *begin = format("msg_%s_begin", inv), *end = format("msg_%s_end", inv);
  char *gb = format("gbl%d", i);
  int slots = a->idx <= -2 ? -a->idx : 1;
  const char *ws = slots > 1 ? "_slot0" : "";
  fprintf(f, "  {%s, %d, %d, %d, %d,\n", kind, (int)a->acc, t ? type_index(g, a->dat->set) : -1, a->idx,
          slots);
  fprintf(f, "   %s, %s,\n", off_or_none(t, state, dat),
          t ? format("sizeof(((%s *)0)->%s)", state, dat) : "0");
  fprintf(f, "   %d, %d, %d, %d,\n",
          send ? pin_number(t, send->name) : -1, recv ? pin_number(iter, recv->name) : -1,
          wsend ? pin_number(iter, format("%s%s", wsend->name, ws)) : -1,
          indirect ? pin_number(t, format("%s_arg%d_write_recv", inv, i)) : -1);
  const TypeInfo *ti = a->type ? type_lookup(a->type) : NULL;
  fprintf(f, "   %s, %d, %s, %s, %s, %s%s,\n", gbl ? gbl_type(a->type) : "0",
          gbl && ti ? ti->size * a->dim : 0, off_or_none(gbl && a->acc != ACC_INC && a->acc != ACC_WORK, begin, gb),
          off_or_none(gbl && a->acc != ACC_READ && a->acc != ACC_WORK, end, gb),
          off_or_none(a->opt, begin, format("opt%d", i)),
          off_or_none(a->kind == ARG_IDX && a->map, format("%s_props", iter->id),
                      format("%s_idx%d", inv, i)),
          a->kind == ARG_INFO ? format(", %d, offsetof(%s, elem%d)", a->info_ref, end, i) : ", 0, 0");
  int fresh = fresh_bit_of_arg(pi, i);
  fprintf(f, "   %d, %s},\n", fresh,
          off_or_none(fresh >= 0 && a->acc == ACC_READ, format("%s_state", iter->id),
                      format("%s_arg%d_buffer", inv, i)));
}

static void write_invocation(FILE *f, const GGraphType *g, const ProtoInvocation *pi) {
  const IRLoop *l = pi->loop;
  const char *inv = l->invocation;
  fprintf(f, "\n// %s: kernel %s over %s\n", inv, l->kernel_name, l->set->var);
  if (l->nargs) {
    fprintf(f, "static const op2t_arg args_%s[%d] = {\n", inv, l->nargs);
    for (int i = 0; i < l->nargs; i++)
      write_arg(f, g, pi, i);
    fprintf(f, "};\n");
  }
  fprintf(f, "static const op2t_involved involved_%s[%d] = {\n", inv, pi->nsets);
  for (int i = 0; i < pi->nsets; i++) {
    int ti = type_index(g, pi->sets[i]);
    const GDeviceType *t = g->types[ti];
    fprintf(f, "  {%d, %d, %d, offsetof(%s_props, %s_write_recv_total)}, // %s\n", ti,
            pin_number(t, format("%s_begin", inv)), pin_number(t, format("%s_end", inv)), t->id, inv,
            t->id);
  }
  fprintf(f, "};\n");
  fprintf(f, "const op2t_invocation op2t_inv_%s = {\n", inv);
  fprintf(f, "  \"%s\", \"%s\", %d, %d, %s,\n", inv, l->kernel_name, type_index(g, l->set), l->nargs,
          l->nargs ? format("args_%s", inv) : "NULL");
  fprintf(f, "  %d, involved_%s,\n", pi->nsets, inv);
  fprintf(f, "  sizeof(msg_%s_begin), sizeof(msg_%s_end), offsetof(msg_%s_end, contributes),\n", inv, inv, inv);
  fprintf(f, "  %s,\n};\n", off_or_none(protocol_read_sends(pi), format("msg_%s_begin", inv), "fresh"));
}

// The graph type as --emit-xml writes it, up to </Graphs>, as a C string
// (a literal per line): OP2_EMIT_INSTANCE writes it before the instance.
static bool write_type_xml(FILE *f, const GGraphType *g) {
  char *head = graph_xml_head(g);
  if (!head)
    return false;
  fprintf(f, "\n// The graph type (op2c --emit-xml) up to </Graphs>, for OP2_EMIT_INSTANCE.\n");
  fprintf(f, "static const char type_xml[] =");
  for (const char *p = head; *p;) {
    fprintf(f, "\n  \"");
    for (; *p && *p != '\n'; p++)
      if (*p == '"' || *p == '\\' || *p == '?') // '?': no trigraphs
        fprintf(f, "\\%c", *p);
      else if ((unsigned char)*p < 0x20)
        fprintf(f, "\\%03o", (unsigned char)*p);
      else
        fputc(*p, f);
    if (*p == '\n') {
      fprintf(f, "\\n");
      p++;
    }
    fputc('"', f);
  }
  fprintf(f, "%s;\n", *head ? "" : " \"\"");
  return true;
}

void host_write_tables(FILE *f, const GGraphType *g, const Protocol *proto) {
  const Program *prog = g->prog;
  fprintf(f, "// op2_host.c: protocol tables of graph type %s for the host runtime.\n", g->id);
  fprintf(f, "// Generated by op2c --target tinsel. Do not edit.\n");
  fprintf(f, "#include <stddef.h>\n#include \"op2_graph.h\"\n#include \"op_tinsel.h\"\n\n");
  for (int i = 0; i < g->ntypes; i++)
    for (int out = 0; out < 2; out++) {
      const GDeviceType *t = g->types[i];
      fprintf(f, "static const char *const %s_%s[] = {", t->id, out ? "out" : "in");
      for (int j = 0; j < t->npins; j++)
        if (t->pins[j].is_output == out)
          fprintf(f, "\"%s\", ", t->pins[j].name);
      fprintf(f, "NULL};\n");
    }
  int *nprops = xcalloc((size_t)g->ntypes + 1, sizeof(int)), *nstate = xcalloc((size_t)g->ntypes + 1, sizeof(int));
  for (int i = 0; i < g->ntypes; i++) {
    const GDeviceType *t = g->types[i];
    nprops[i] = write_members(f, format("%s_props_m", t->id), format("%s_props", t->id), t->props);
    nstate[i] = write_members(f, format("%s_state_m", t->id), format("%s_state", t->id), t->state);
  }
  fprintf(f, "\nstatic const op2t_type types[%d] = {\n", g->ntypes);
  for (int i = 0; i < g->ntypes; i++) {
    const GDeviceType *t = g->types[i];
    fprintf(f, "  {\"%s\", \"%s\", sizeof(%s_props), sizeof(%s_state), offsetof(%s_props, index), %d, %d,\n"
               "   %s_in, %s_out, %d, %d, %s, %s},\n",
            t->id, t->set->ident, t->id, t->id, t->id, fw_num_in(t), fw_num_out(t), t->id, t->id, nprops[i], nstate[i],
            nprops[i] ? format("%s_props_m", t->id) : "NULL", nstate[i] ? format("%s_state_m", t->id) : "NULL");
  }
  fprintf(f, "};\n");
  if (prog->nconsts) {
    fprintf(f, "static const op2t_const consts[%d] = {\n", prog->nconsts);
    for (int i = 0; i < prog->nconsts; i++) {
      const char *n = prog->consts[i]->name;
      fprintf(f, "  {\"%s\", offsetof(op2_graph_props, global_%s), sizeof(((op2_graph_props *)0)->global_%s)},\n",
              n, n, n);
    }
    fprintf(f, "};\n");
  }
  for (int i = 0; i < proto->ninvocations; i++)
    write_invocation(f, g, proto->invocations[i]);
  fprintf(f, "\nstatic const op2t_invocation *const invocations[%d] = {\n",
          proto->ninvocations ? proto->ninvocations : 1);
  for (int i = 0; i < proto->ninvocations; i++)
    fprintf(f, "  &op2t_inv_%s,\n", proto->invocations[i]->loop->invocation);
  fprintf(f, "};\n");
  bool have_xml = write_type_xml(f, g);
  int ngprops = write_members(f, "graph_props_m", "op2_graph_props", g->props);
  fprintf(f, "\nconst op2t_graph op2t_graph_info = {\n");
  fprintf(f, "  \"%s\", %d, types, sizeof(op2_graph_props), %d, %s, %d, invocations, %s, %d, %s,\n};\n", g->id,
          g->ntypes, prog->nconsts, prog->nconsts ? "consts" : "NULL", proto->ninvocations, have_xml ? "type_xml" : "NULL",
          ngprops, ngprops ? "graph_props_m" : "NULL");
}

void host_write_groups(FILE *f, const GGraphType *g, const FwImage *groups, int ngroups) {
  fprintf(f, "\n// Code groups (fw/images.txt): each type's group and each group's ELF in EXE.fw/.\n");
  fprintf(f, "static const int type_group[%d] = {", g->ntypes ? g->ntypes : 1);
  for (int t = 0; t < g->ntypes; t++) {
    int k = 0;
    while (k < ngroups && !groups[k].has_type[t])
      k++;
    fprintf(f, "%s%d", t ? ", " : "", k < ngroups ? k : -1);
  }
  fprintf(f, "%s};\nstatic const char *const group_elf[%d] = {", g->ntypes ? "" : "0", ngroups ? ngroups : 1);
  for (int k = 0; k < ngroups; k++)
    fprintf(f, "%s\"%s.elf\"", k ? ", " : "", groups[k].name);
  fprintf(f, "%s};\nconst op2t_code_groups op2t_groups = {%d, type_group, group_elf, \"img_all.elf\"};\n",
          ngroups ? "" : "0", ngroups);
}
