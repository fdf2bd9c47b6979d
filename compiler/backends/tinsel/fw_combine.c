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

void fw_write_combine(FILE *f, const GGraphType *g) {
  const Program *prog = g->prog;
  fprintf(f, "\n// Folding ends per thread and up the tree of threads (ss_tree.h).\n");
  for (int j = 0; j < prog->nloops; j++) {
    const IRLoop *l = prog->loops[j];
    const GMessageType *m = find_msg(g, format("%s_end", l->invocation));
    const char *s = m ? fw_msg_struct(m) : "void";
    fprintf(f, "static void %s__combine(void *acc_, const void *in_) {\n", l->invocation);
    fprintf(f, "  %s *acc = acc_;\n  const %s *in = in_;\n  (void)acc, (void)in;\n", s, s);
    if (m)
      graph_write_end_fold(f, l);
    fprintf(f, "}\n");
  }
  fprintf(f, "const ss_combine_fn ss_end_combine[%d] = {", prog->nloops ? prog->nloops : 1);
  for (int j = 0; j < prog->nloops; j++)
    fprintf(f, "%s%s__combine", j ? ", " : "", prog->loops[j]->invocation);
  fprintf(f, "%s};\nconst uint32_t ss_num_invocations = %d;\n", prog->nloops ? "" : "0", prog->nloops);
  fprintf(f, "ss_combine_fn ss_end_combine_of(uint32_t k) { return k < ss_num_invocations ? ss_end_combine[k] : 0; }\n");
}
