// tests/fuzz/transform/fuzz.c: op2c --transform on hostile scripts
// (tests/fuzz/README.md). Each input becomes a script file applied to
// tests/op2/fuse_chain.cpp, read afresh for every input (everything op2c
// allocated is released after each); what the script leaves of the program
// goes on through the loop-chain analysis, the protocol and the POETS
// graph (to /dev/null). Diagnostics go to /dev/null; a fatal one jumps back
// here instead of exiting.
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
  fuzz_input_init("input.tf");
  if (!(devnull = fopen("/dev/null", "w"))) {
    perror("transform fuzz harness");
    exit(1);
  }
  diag_stream = devnull;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_input_write(data, size);
  PPOptions pp = {0};
  strarray_push(&pp.include_dirs, "tests/op2"); // the harness runs from the top of the tree
  diag_fatal_jump = &fatal;
  if (setjmp(fatal) == 0) {
    Program *prog = front_end("tests/op2/fuse_chain.cpp", &pp);
    if (!prog || diag_errors) {
      fprintf(stderr, "transform fuzz harness: tests/op2/fuse_chain.cpp does not compile\n");
      abort();
    }
    ir_name_invocations(prog);
    if (transform_apply(prog, path)) {
      schedule_dump(devnull, schedule_analyse(prog));
      Protocol *proto = protocol_lower(prog, TINSEL_MAX_PAYLOAD);
      protocol_check_sizes(proto, TINSEL_MAX_PAYLOAD);
      if (diag_errors == 0)
        graph_write_xml("/dev/null", graph_build(prog, proto));
    }
  }
  diag_fatal_jump = NULL;
  front_end_release();
  return 0;
}
