// device_calls.c: kernels run on Tinsel, where only what firmware/ and
// picolibc's libm provide exists. A call of anything else would fail as a
// link error (no kernel named) or a compile error in generated code; here
// it is an error at the call in the user's source instead. The list is
// firmware/include/op2_device_fns.def, the one the device headers are
// used by tests/op2/device_math.cpp.
#include "device_calls.h"

#include <string.h>

enum { ANY, CXX, STD };
static const struct {
  const char *name;
  int where;
} device_fns[] = {
#define OP2_DEVICE_FN(name, where, ...) {#name, where},
#include "../../../firmware/include/op2_device_fns.def"
#undef OP2_DEVICE_FN
};

// Words followed by '(' that are not calls.
static const char *const not_calls[] = {
    "if", "while", "for", "switch", "return", "sizeof", "alignof", "_Alignof", "do", "case", "decltype",
    "typeid", "noexcept", "static_assert", "_Static_assert", "alignas", "_Alignas", "new", "delete",
    "float", "double", "int", "unsigned", "signed", "long", "short", "char", "bool", "_Bool", "void",
    "__attribute__", "__typeof__", "typeof", "__builtin_expect", "defined", "auto", "const", "volatile",
    "static_cast", "reinterpret_cast", "const_cast", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t",
    "uint16_t", "uint32_t", "uint64_t", "size_t"};

static bool on_device(const char *name, bool cxx, bool std_qualified) {
  for (size_t i = 0; i < sizeof(device_fns) / sizeof(*device_fns); i++)
    if (!strcmp(device_fns[i].name, name))
      return device_fns[i].where == ANY || (cxx && (std_qualified || device_fns[i].where == CXX));
  return false;
}

static bool program_function(const Program *prog, const char *name) {
  for (int i = 0; i < prog->nfuncs; i++)
    if (!strcmp(prog->funcs[i]->name, name))
      return true;
  return false;
}

static bool check_function(const Program *prog, const IRFunc *fn, const IRFunc *kernel) {
  bool ok = true;
  const Token *prev = NULL, *prev2 = NULL;
  for (const Token *t = fn->body; t && t != fn->body_end; prev2 = prev, prev = t, t = t->next) {
    if (t->kind != TK_IDENT || !t->next || !tok_equal(t->next, "("))
      continue;
    if (prev && (tok_equal(prev, ".") || tok_equal(prev, "->")))
      continue; // a member
    bool qualified = prev && tok_equal(prev, "::");
    if (qualified && !(prev2 && tok_equal(prev2, "std")))
      continue; // another namespace's or a class's: the program's
    char *name = tok_text(t);
    bool known = false;
    for (size_t i = 0; i < sizeof(not_calls) / sizeof(*not_calls) && !known; i++)
      known = !strcmp(not_calls[i], name);
    if (known || (!qualified && program_function(prog, name)) || on_device(name, prog->is_cxx, qualified))
      continue;
    char *via = fn == kernel ? "" : format(" (through '%s')", fn->name);
    error_tok(t, "kernel '%s'%s calls '%s%s', which the device does not have: kernels run on Tinsel, "
                 "where they may call the program's own functions and those of firmware/include/op2_device_fns.def "
                 "(docs/op2-api.md, \"Kernels on the device\")",
              kernel->name, via, qualified ? "std::" : "", name);
    ok = false;
  }
  return ok;
}

static bool function_prints(const IRFunc *fn) {
  static const char *const out[] = {"printf", "puts", "putchar", "fputs", "fputc", "putc", "fprintf", "vprintf",
                                    "fwrite"};
  for (const Token *t = fn->body; t && t != fn->body_end; t = t->next)
    if (t->kind == TK_IDENT && t->next && tok_equal(t->next, "("))
      for (size_t i = 0; i < sizeof(out) / sizeof(*out); i++)
        if (tok_equal(t, out[i]))
          return true;
  return false;
}

bool device_prints(const Program *prog) {
  for (int i = 0; i < prog->nfuncs; i++) {
    const IRFunc *k = prog->funcs[i];
    if (!k->is_kernel)
      continue;
    if (function_prints(k))
      return true;
    for (int j = 0; j < k->nhelpers; j++)
      if (function_prints(k->helpers[j]))
        return true;
  }
  return false;
}

bool device_check_calls(const Program *prog) {
  bool ok = true;
  bool *done = xcalloc((size_t)prog->nfuncs + 1, sizeof(bool));
  for (int i = 0; i < prog->nfuncs; i++) {
    const IRFunc *k = prog->funcs[i];
    if (!k->is_kernel)
      continue;
    if (!done[k->index])
      ok &= check_function(prog, k, k);
    done[k->index] = true;
    for (int j = 0; j < k->nhelpers; j++)
      if (!done[k->helpers[j]->index]) {
        done[k->helpers[j]->index] = true;
        ok &= check_function(prog, k->helpers[j], k);
      }
  }
  return ok;
}
