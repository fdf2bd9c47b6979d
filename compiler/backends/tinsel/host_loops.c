// host_loops.c: the user's sources for a tinsel executable. main and its
// control flow stay as written (the seq back end's translation); each
// op_par_loop becomes a function that hands its args and the invocation's
// protocol table to the runtime, which runs it on the devices. The
// program's op_decl_const variables are read here, in the user's own
// translation unit, and become the graph properties.
#include "host_tables.h"

static void header(FILE *out, const Program *prog) {
  fprintf(out, "#include \"op_tinsel.h\"\n");
  if (prog->nloops == 0)
    return;
  fprintf(out, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
  for (int i = 0; i < prog->nloops; i++)
    fprintf(out, "extern const op2t_invocation op2t_inv_%s;\n", prog->loops[i]->invocation);
  fprintf(out, "#ifdef __cplusplus\n}\n#endif\nstatic void op2t_consts(void);\n");
}

static void before_loops(FILE *out, const Program *prog) {
  if (prog->nloops == 0)
    return;
  fprintf(out, "\n// The values of the op_decl_const globals, as the kernels will see them.\n");
  fprintf(out, "static void op2t_consts(void) {\n");
  for (int i = 0; i < prog->nconsts; i++)
    if (prog->consts[i]->file_scope) // else a local: no kernel can read it
      fprintf(out, "  op2t_set_const(%d, &%s, sizeof(%s));\n", i, prog->consts[i]->name,
              prog->consts[i]->name);
  fprintf(out, "}\n");
}

static void gen_loop(FILE *out, const IRLoop *loop) {
  translate_loop_prologue(out, loop);
  fprintf(out, "  op2t_consts();\n");
  fprintf(out, "  op_rt_profile_target(\"tinsel\");\n");
  fprintf(out, "  op2t_invoke(&op2t_inv_%s, name, set, %d, args);\n}\n", loop->invocation, loop->nargs);
}

bool host_write_translation(const Program *prog, const char *path) {
  SrcEdit *edits;
  int n = schedule_deferred_gbls(prog, &edits);
  return translate_source(prog, path, &(Translation){"tinsel", header, before_loops, gen_loop, edits, n});
}
