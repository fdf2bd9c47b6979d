// fw_combine.c: per invocation, the fold of one end message into another
// (ss_end_combine in firmware/softswitch/ss_tree.h): what a thread's tree
// node does with its devices' and its child threads' ends, so ends and
// INC/MIN/MAX globals (and op_arg_info values with them) reach the host
// combined per thread and up a tree.
// Written into every image; indexed like the host's invocation table
// (protocol order = the program's loop order).
#include "firmware.h"

#include <string.h>

static const GMessageType *find_msg(const GGraphType *g, const char *id) {
  for (int i = 0; i < g->nmsgs; i++)
    if (!strcmp(g->msgs[i]->id, id))
      return g->msgs[i];
  return NULL;
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

void fw_write_combine(FILE *f, const GGraphType *g) {
  const Program *prog = g->prog;
  fprintf(f, "\n// Folding ends per thread and up the tree of threads (ss_tree.h).\n");
  for (int j = 0; j < prog->nloops; j++) {
    const IRLoop *l = prog->loops[j];
    const GMessageType *m = find_msg(g, format("%s_end", l->invocation));
    const char *s = m ? fw_msg_struct(m) : "void";
    fprintf(f, "static void %s__combine(void *acc_, const void *in_) {\n", l->invocation);
    fprintf(f, "  %s *acc = acc_;\n  const %s *in = in_;\n  (void)acc, (void)in;\n", s, s);
    for (int i = 0; m && i < l->nargs; i++)
      if (l->args[i].kind == ARG_INFO)
        write_info_fold(f, l, i);
    for (int i = 0; m && i < l->nargs; i++) {
      const IRArg *a = &l->args[i];
      if (a->kind == ARG_GBL && !a->gbl_const && (a->acc == ACC_INC || a->acc == ACC_MIN || a->acc == ACC_MAX))
        write_fold(f, a, i);
    }
    fprintf(f, "}\n");
  }
  fprintf(f, "const ss_combine_fn ss_end_combine[%d] = {", prog->nloops ? prog->nloops : 1);
  for (int j = 0; j < prog->nloops; j++)
    fprintf(f, "%s%s__combine", j ? ", " : "", prog->loops[j]->invocation);
  fprintf(f, "%s};\nconst uint32_t ss_num_invocations = %d;\n", prog->nloops ? "" : "0", prog->nloops);
  fprintf(f, "ss_combine_fn ss_end_combine_of(uint32_t k) { return k < ss_num_invocations ? ss_end_combine[k] : 0; }\n");
}
