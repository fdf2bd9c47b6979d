// tests/fuzz/op2c/fuzz.c: op2c's front end on hostile input
// (tests/fuzz/README.md). Each input becomes a source file, since op2c reads
// paths (input.cpp in a directory of its own; #include "..." finds the
// tree's headers the seed programs use, below), and goes through front_end(): lex, preprocess, scan, check. What
// it accepts goes on through invocation naming, the IR dump, the protocol,
// the loop-chain analysis (schedule.c) with the globals it guards,
// the POETS graph and both XML writers (to /dev/null). Diagnostics go to
// /dev/null too; a fatal one jumps back here instead of exiting; everything
// op2c allocated is released after each input.
#include "../../../compiler/op2c.h"
#include "../../../compiler/backends/tinsel/graph.h"
#include "../input_file.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *devnull;
static jmp_buf fatal;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  fuzz_input_init("input.cpp");
  if (!(devnull = fopen("/dev/null", "w"))) {
    perror("op2c fuzz harness");
    exit(1);
  }
  diag_stream = devnull;
  // The same checks with a smaller token budget: inputs that make millions
  // of tokens are slow to find the limit and say nothing new.
  lex_max_tokens = 1 << 18;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_input_write(data, size);
  // The headers the seed programs include (tests/fuzz/op2c/seeds), found in
  // the tree as op2c -I would find them: the harness runs from its top.
  PPOptions pp = {0};
  static const char *const dirs[] = { "tests/compiler/diag", "tests/compiler/ir/include", "tests/op2",
                                      "apps/airfoil/dp", "apps/airfoil" };
  for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++)
    strarray_push(&pp.include_dirs, (char *)dirs[i]);
  diag_fatal_jump = &fatal;
  if (setjmp(fatal) == 0) {
    Program *prog = front_end(path, &pp);
    if (prog && diag_errors == 0) {
      ir_name_invocations(prog);
      ir_dump(devnull, prog);
      ir_write_xml("/dev/null", &prog, 1);
      Protocol *proto = protocol_lower(prog, TINSEL_MAX_PAYLOAD);
      protocol_check_sizes(proto, TINSEL_MAX_PAYLOAD);
      protocol_dump(devnull, proto);
      schedule_dump(devnull, schedule_analyse(prog));
      SrcEdit *edits;
      int nedits = schedule_deferred_gbls(prog, &edits);
      for (int i = 1; i < nedits; i++) // in text order, none inside another
        if (edits[i].at < edits[i - 1].at + edits[i - 1].len)
          abort();
      if (diag_errors == 0 && prog->nloops > 0) {
        GGraphType *g = graph_build(prog, proto);
        if (diag_errors == 0)
          graph_write_xml("/dev/null", g);
      }
    }
  }
  diag_fatal_jump = NULL;
  front_end_release();
  return 0;
}
