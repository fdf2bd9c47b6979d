// frontend.c: one source file through op2c's front end (read, tokenize,
// preprocess, scan into the IR, check). main.c runs it for each source;
// the fuzz harness (tests/fuzz/op2c) runs it for each input, then releases
// everything with front_end_release().
#include "op2c.h"

#include <string.h>

static bool is_cxx_source(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && (!strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx") ||
                 !strcmp(dot, ".C"));
}

Program *front_end(const char *path, const PPOptions *pp) {
  size_t len;
  const char *why;
  char *text = read_source_file(path, &len, &why);
  if (!text) {
    error_plain("cannot read '%s': %s", path, why);
    return NULL;
  }
  File *file = new_file(path, text, len);
  Token *tok = preprocess(file, pp);
  Program *prog = scan_program(file, tok, is_cxx_source(path));
  ir_name_decls(prog);
  prog->macros = pp_macro_definitions();
  check_program(prog);
  return prog;
}

void front_end_release(void) {
  xfree_all();
  diag_errors = 0;
}
