// preprocess.c: the C preprocessor, as far as op2c needs it to see an OP2
// program the way the C compiler will.
//
// Local headers ("res_calc.h") are read and spliced in, so kernels defined in
// per-kernel headers are visible; system headers (<math.h>) and OP2's own
// headers are not read: the scanner needs only the program's own code.
// Macros are expanded with hidesets (Prosser's algorithm) so that dims and
// indices written as macros (PDIM*2) fold to constants, and conditionals are
// evaluated, so that include guards and #ifdef'd variants behave.
//
// Expanded tokens keep the location of the macro call, so diagnostics point
// at what the user wrote.
#include "op2c.h"

#include <stdlib.h>
#include <string.h>

File **pp_files;
int pp_nfiles;

typedef struct Macro Macro;
struct Macro {
  char *name;
  bool undefined; // by #undef: kept in the table, found by no one
  bool objlike;
  StrArray params;
  bool variadic;
  Token *body;
};

typedef struct Hideset Hideset;
struct Hideset {
  Hideset *next;
  char *name;
  int name_len;
  int len; // entries from here to the end
};

typedef struct CondIncl CondIncl;
struct CondIncl {
  CondIncl *next;
  enum { IN_THEN, IN_ELIF, IN_ELSE } ctx;
  Token *tok;
  bool included;
};

// Macros by name (a table that grows: fixed buckets made each lookup
// linear in the number of macros).
static StrMap macros;
static CondIncl *cond_incl;
static const PPOptions *options;
static StrArray pragma_once;
// Function-like macro calls being expanded inside each other's arguments.
static int arg_depth;

// Headers of OP2 itself: op2c knows their contents and does not read them.
static const char *op2_headers[] = {
    "op_seq.h", "op_lib_cpp.h", "op_lib_c.h", "op_lib_core.h", "op_profile.h", "op_lib_mpi.h",
    "op_hdf5.h",
};

// The macros OP2's headers define for programs (besides the access modes,
// which are built in), as host/seq/op_seq.h defines them for the program's
// own compiler: the two must agree. MIN and MAX only where the program has
// none of its own (a guard name), as OP2 does. The file their tokens come
// from marks them for pp_macro_definitions.
#define OP2_HEADER_FILE "<op2 headers>"
static const struct {
  const char *guard;
  const char *text;
} op2_header_macros[] = {
    {"MIN", "MIN(a, b) ((a) < (b) ? (a) : (b))"},
    {"MAX", "MAX(a, b) ((a) > (b) ? (a) : (b))"},
    {NULL, "ROUND_UP(bytes) (((bytes) + 15) & ~15)"},
    {NULL, "ROUND_UP_64(bytes) (((bytes) + 63) & ~63)"},
};
// Set by the first OP2 header the program includes (their include guard).
static bool op2_macros_defined;

// The macro named by the len bytes at name (an identifier of any length:
// a fixed buffer here left long names silently unexpanded).
static Macro *find_macro_n(const char *name, size_t len) {
  Macro *m = strmap_get_n(&macros, name, len);
  return m && !m->undefined ? m : NULL;
}

static Macro *find_macro_name(const char *name) { return find_macro_n(name, strlen(name)); }

static Macro *find_macro(const Token *tok) {
  return tok->kind == TK_IDENT ? find_macro_n(tok->loc, (size_t)tok->len) : NULL;
}

static Macro *add_macro(char *name, bool objlike, Token *body) {
  Macro *old = strmap_get(&macros, name);
  if (old) {
    old->undefined = false;
    old->objlike = objlike;
    old->body = body;
    old->params = (StrArray){0};
    old->variadic = false;
    return old;
  }
  Macro *m = xcalloc(1, sizeof(Macro));
  m->name = name;
  m->objlike = objlike;
  m->body = body;
  strmap_put(&macros, m->name, m);
  return m;
}

static void undef_macro(const char *name) {
  Macro *m = find_macro_name(name);
  if (m)
    m->undefined = true;
}

//
// Hidesets
//

static bool hideset_contains(Hideset *hs, const char *s, int len) {
  for (; hs; hs = hs->next)
    if (hs->name_len == len && memcmp(hs->name, s, (size_t)len) == 0)
      return true;
  return false;
}

// A hideset lists the macros a token went through; past OP2C_MAX_MACRO_DEPTH
// the expansion is reported at `site` (every step costs a walk of it).
static Hideset *hideset_add(Hideset *hs, char *name, const Token *site) {
  if (hs && hs->len >= OP2C_MAX_MACRO_DEPTH)
    fatal_tok(site, "macro expansion nested more than %d levels deep (in '%s')", OP2C_MAX_MACRO_DEPTH, name);
  Hideset *h = xcalloc(1, sizeof(Hideset));
  h->name = name;
  h->name_len = (int)strlen(name);
  h->next = hs;
  h->len = hs ? hs->len + 1 : 1;
  return h;
}

static Hideset *hideset_union(Hideset *a, Hideset *b, const Token *site) {
  Hideset *r = b;
  for (; a; a = a->next)
    if (!hideset_contains(b, a->name, a->name_len))
      r = hideset_add(r, a->name, site);
  return r;
}

static Hideset *hideset_intersection(Hideset *a, Hideset *b, const Token *site) {
  Hideset *r = NULL;
  for (; a; a = a->next)
    if (hideset_contains(b, a->name, a->name_len))
      r = hideset_add(r, a->name, site);
  return r;
}

//
// Token list helpers
//

static bool is_hash(const Token *tok) { return tok->at_bol && tok_equal(tok, "#"); }

static Token *new_eof(const Token *tok) {
  Token *t = tok_copy(tok);
  t->kind = TK_EOF;
  t->len = 0;
  t->at_bol = true; // ends every directive line that reaches it
  return t;
}

// Copies the list up to (not including) its EOF, then appends `rest`.
static Token *append(Token *list, Token *rest) {
  if (list->kind == TK_EOF)
    return rest;
  Token head = {0}, *cur = &head;
  for (; list->kind != TK_EOF; list = list->next)
    cur = cur->next = tok_copy(list);
  cur->next = rest;
  return head.next;
}

// Skips the rest of a directive line, complaining about extra tokens.
static Token *skip_line(Token *tok) {
  if (tok->at_bol)
    return tok;
  error_tok(tok, "extra tokens after directive");
  while (!tok->at_bol)
    tok = tok->next;
  return tok;
}

// Copies the tokens of the current line into a new EOF-terminated list.
static Token *copy_line(Token **rest, Token *tok) {
  Token head = {0}, *cur = &head;
  for (; !tok->at_bol; tok = tok->next)
    cur = cur->next = tok_copy(tok);
  cur->next = new_eof(tok);
  *rest = tok;
  return head.next;
}

// Makes `tok` appear to come from the macro call at `site`.
static void set_origin(Token *tok, const Token *site) {
  tok->file = site->file;
  tok->line = site->line;
  tok->col = site->col;
  tok->from_macro = true;
  tok->origin = (Token *)(site->origin ? site->origin : site);
}

static Token *tokenize_text(const char *text, const Token *site) {
  size_t n = strlen(text);
  File *f = new_file(site->file ? site->file->name : "<macro>", xstrndup(text, n), n);
  Token *t = tokenize(f);
  for (Token *p = t; p; p = p->next)
    set_origin(p, site);
  return t;
}

static char *join_tokens(Token *tok, Token *end) {
  size_t len = 1;
  for (Token *t = tok; t != end && t->kind != TK_EOF; t = t->next)
    len += (size_t)t->len + 1;
  char *buf = xcalloc(1, len);
  size_t pos = 0;
  for (Token *t = tok; t != end && t->kind != TK_EOF; t = t->next) {
    if (t != tok && t->has_space)
      buf[pos++] = ' ';
    memcpy(buf + pos, t->loc, (size_t)t->len);
    pos += (size_t)t->len;
  }
  buf[pos] = '\0';
  return buf;
}

//
// Macro definitions
//

static void read_macro_params(Token **rest, Token *tok, Macro *m) {
  while (!tok_equal(tok, ")")) {
    if (m->params.len > 0 || m->variadic) {
      if (!tok_equal(tok, ","))
        fatal_tok(tok, "expected ',' in macro parameter list");
      tok = tok->next;
    }
    if (tok_equal(tok, "...")) {
      m->variadic = true;
      strarray_push(&m->params, "__VA_ARGS__");
      tok = tok->next;
      if (!tok_equal(tok, ")"))
        fatal_tok(tok, "expected ')' after '...'");
      break;
    }
    if (tok->kind != TK_IDENT || tok->at_bol)
      fatal_tok(tok, "expected a macro parameter name");
    strarray_push(&m->params, tok_text(tok));
    tok = tok->next;
  }
  *rest = tok->next;
}

static Token *read_define(Token *tok) {
  if (tok->kind != TK_IDENT || tok->at_bol)
    fatal_tok(tok, "macro name must be an identifier");
  char *name = tok_text(tok);
  tok = tok->next;
  if (!tok->at_bol && !tok->has_space && tok_equal(tok, "(")) {
    Macro *m = add_macro(name, false, NULL);
    read_macro_params(&tok, tok->next, m);
    m->body = copy_line(&tok, tok);
  } else {
    add_macro(name, true, copy_line(&tok, tok));
  }
  return tok;
}

// -D NAME or -D NAME=VALUE.
static void define_from_option(const char *def) {
  const char *eq = strchr(def, '=');
  char *text = eq ? format("%.*s %s\n", (int)(eq - def), def, eq + 1) : format("%s 1\n", def);
  File *f = new_file("<command line>", text, strlen(text));
  Token *tok = tokenize(f);
  tok->at_bol = false; // as if it followed "#define"
  read_define(tok);
}

static void define_in(const char *file, const char *text) {
  char *buf = xstrdup(text);
  File *f = new_file(file, buf, strlen(buf));
  Token *tok = tokenize(f);
  tok->at_bol = false;
  read_define(tok);
}

static void define_builtin(const char *text) { define_in("<built-in>", text); }

// What including one of OP2's headers defines (once, like an include guard).
static void define_op2_header_macros(void) {
  if (op2_macros_defined)
    return;
  op2_macros_defined = true;
  for (size_t i = 0; i < sizeof(op2_header_macros) / sizeof(*op2_header_macros); i++)
    if (!op2_header_macros[i].guard || !find_macro_name(op2_header_macros[i].guard))
      define_in(OP2_HEADER_FILE, op2_header_macros[i].text);
}

//
// Macro expansion
//

typedef struct MacroArg MacroArg;
struct MacroArg {
  MacroArg *next;
  char *name;
  Token *tok;
};

static Token *read_one_arg(Token **rest, Token *tok, bool read_rest) {
  Token head = {0}, *cur = &head;
  int depth = 0;
  for (;;) {
    if (tok->kind == TK_EOF)
      fatal_tok(tok, "unterminated macro argument list");
    if (depth == 0 && tok_equal(tok, ")"))
      break;
    if (depth == 0 && !read_rest && tok_equal(tok, ","))
      break;
    if (tok_equal(tok, "("))
      depth++;
    else if (tok_equal(tok, ")"))
      depth--;
    cur = cur->next = tok_copy(tok);
    tok = tok->next;
  }
  cur->next = new_eof(tok);
  *rest = tok;
  return head.next;
}

// Function-like macro calls nested in the arguments of the call whose '('
// is lparen: past what is left of OP2C_MAX_MACRO_DEPTH, an error before any
// argument is copied (each level of F(F(F(...))) copies its arguments, so
// the cost is the depth times the length).
static void check_arg_nesting(Token *lparen) {
  int paren = 0;
  int *open = NULL, nopen = 0; // the paren depth of each open call's '('
  for (Token *t = lparen->next; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, "(")) {
      paren++;
    } else if (tok_equal(t, ")")) {
      if (paren == 0)
        break;
      if (nopen > 0 && open[nopen - 1] == paren)
        nopen--;
      paren--;
    } else if (t->kind == TK_IDENT && tok_equal(t->next, "(")) {
      Macro *m = find_macro(t);
      if (!m || m->objlike)
        continue;
      VEC_PUSH(open, nopen, paren + 1);
      if (arg_depth + nopen > OP2C_MAX_MACRO_DEPTH)
        fatal_tok(t, "macro calls nested more than %d levels deep in arguments", OP2C_MAX_MACRO_DEPTH);
    }
  }
  xfree(open);
}

static MacroArg *read_macro_args(Token **rest, Token *tok, Macro *m, const Token *name_tok) {
  Token *start = tok;
  check_arg_nesting(tok->next);
  tok = tok->next->next; // skip the name and '('
  MacroArg head = {0}, *cur = &head;
  int nparams = m->params.len - (m->variadic ? 1 : 0);
  for (int i = 0; i < nparams; i++) {
    if (i > 0) {
      if (!tok_equal(tok, ","))
        fatal_tok(name_tok, "macro '%s' requires %d arguments", m->name, nparams);
      tok = tok->next;
    }
    cur = cur->next = xcalloc(1, sizeof(MacroArg));
    cur->name = m->params.data[i];
    cur->tok = read_one_arg(&tok, tok, false);
  }
  if (m->variadic) {
    if (nparams > 0 && tok_equal(tok, ","))
      tok = tok->next;
    cur = cur->next = xcalloc(1, sizeof(MacroArg));
    cur->name = "__VA_ARGS__";
    cur->tok = tok_equal(tok, ")") ? new_eof(tok) : read_one_arg(&tok, tok, true);
  } else if (nparams == 0 && !tok_equal(tok, ")")) {
    fatal_tok(name_tok, "macro '%s' takes no arguments", m->name);
  }
  if (!tok_equal(tok, ")"))
    fatal_tok(start, "too many arguments to macro '%s'", m->name);
  *rest = tok;
  return head.next;
}

static MacroArg *find_arg(MacroArg *args, const Token *tok) {
  for (MacroArg *a = args; a; a = a->next)
    if (tok->kind == TK_IDENT && (int)strlen(a->name) == tok->len &&
        strncmp(a->name, tok->loc, (size_t)tok->len) == 0)
      return a;
  return NULL;
}

static Token *stringize(const Token *hash_tok, Token *arg) {
  char *s = join_tokens(arg, NULL);
  size_t n = strlen(s);
  char *buf = xcalloc(1, n * 2 + 4);
  size_t pos = 0;
  buf[pos++] = '"';
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\\' || s[i] == '"')
      buf[pos++] = '\\';
    buf[pos++] = s[i];
  }
  buf[pos++] = '"';
  return tokenize_text(buf, hash_tok);
}

static Token *paste(const Token *lhs, const Token *rhs) {
  // `/` and `/` or `*` would start a comment: no token at all.
  bool comment = lhs->len > 0 && lhs->loc[lhs->len - 1] == '/' && rhs->len > 0 &&
                 (rhs->loc[0] == '/' || rhs->loc[0] == '*');
  char *text = format("%.*s%.*s", lhs->len, lhs->loc, rhs->len, rhs->loc);
  Token *t = comment ? NULL : tokenize_text(text, lhs);
  if (!t || t->kind == TK_EOF || t->next->kind != TK_EOF)
    fatal_tok(lhs, "pasting \"%.*s\" and \"%.*s\" does not give a valid token", lhs->len,
              lhs->loc, rhs->len, rhs->loc);
  return t;
}

static Token *preprocess2(Token *tok);

// Replaces the parameters in a function-like macro's body. `site` is the
// call, where expansion nested too deeply in arguments is reported.
static Token *subst(Token *tok, MacroArg *args, const Token *site) {
  Token head = {0}, *cur = &head;
  while (tok->kind != TK_EOF) {
    if (tok_equal(tok, "#")) {
      MacroArg *arg = find_arg(args, tok->next);
      if (!arg)
        fatal_tok(tok->next, "'#' is not followed by a macro parameter");
      cur = cur->next = stringize(tok, arg->tok);
      tok = tok->next->next;
      continue;
    }
    if (tok_equal(tok, "##")) {
      if (cur == &head)
        fatal_tok(tok, "'##' cannot appear at either end of macro expansion");
      if (tok->next->kind == TK_EOF)
        fatal_tok(tok, "'##' cannot appear at either end of macro expansion");
      MacroArg *arg = find_arg(args, tok->next);
      if (arg) {
        if (arg->tok->kind != TK_EOF) {
          *cur = *paste(cur, arg->tok);
          for (Token *t = arg->tok->next; t->kind != TK_EOF; t = t->next)
            cur = cur->next = tok_copy(t);
        }
        tok = tok->next->next;
        continue;
      }
      *cur = *paste(cur, tok->next);
      tok = tok->next->next;
      continue;
    }
    MacroArg *arg = find_arg(args, tok);
    if (arg && tok_equal(tok->next, "##")) {
      Token *rhs = tok->next->next;
      if (rhs->kind == TK_EOF)
        fatal_tok(tok->next, "'##' cannot appear at either end of macro expansion");
      if (arg->tok->kind == TK_EOF) {
        MacroArg *arg2 = find_arg(args, rhs);
        if (arg2) {
          for (Token *t = arg2->tok; t->kind != TK_EOF; t = t->next)
            cur = cur->next = tok_copy(t);
        } else {
          cur = cur->next = tok_copy(rhs);
        }
        tok = rhs->next;
        continue;
      }
      for (Token *t = arg->tok; t->kind != TK_EOF; t = t->next)
        cur = cur->next = tok_copy(t);
      tok = tok->next;
      continue;
    }
    if (arg) {
      // Each level copies its argument: the depth bounds the cost of
      // F(F(F(...))), quadratic in the nesting.
      if (++arg_depth > OP2C_MAX_MACRO_DEPTH)
        fatal_tok(site, "macro calls nested more than %d levels deep in arguments", OP2C_MAX_MACRO_DEPTH);
      Token *t = preprocess2(arg->tok);
      arg_depth--;
      if (t->kind != TK_EOF) {
        t->at_bol = tok->at_bol;
        t->has_space = tok->has_space;
      }
      for (; t->kind != TK_EOF; t = t->next)
        cur = cur->next = tok_copy(t);
      tok = tok->next;
      continue;
    }
    cur = cur->next = tok_copy(tok);
    tok = tok->next;
  }
  cur->next = tok;
  return head.next;
}

// If tok is a macro call, replaces it in the list (*rest) with its expansion.
static bool expand_macro(Token **rest, Token *tok) {
  if (hideset_contains(tok->hideset, tok->loc, tok->len))
    return false;
  Macro *m = find_macro(tok);
  if (!m)
    return false;

  Token *body;
  Token *after;
  Hideset *hs;
  if (m->objlike) {
    hs = hideset_add(tok->hideset, m->name, tok);
    body = m->body;
    after = tok->next;
  } else {
    if (!tok_equal(tok->next, "("))
      return false;
    Token *rparen;
    MacroArg *args = read_macro_args(&rparen, tok, m, tok);
    hs = hideset_add(hideset_intersection(tok->hideset, rparen->hideset, tok), m->name, tok);
    body = subst(m->body, args, tok);
    after = rparen->next;
    if (body->kind == TK_EOF) {
      *rest = after;
      return true;
    }
  }

  Token head = {0}, *cur = &head;
  for (Token *t = body; t->kind != TK_EOF; t = t->next) {
    cur = cur->next = tok_copy(t);
    cur->hideset = hideset_union(cur->hideset, hs, tok);
    set_origin(cur, tok);
  }
  // Copies made by expansion count against the budget, reported at the call.
  if (lex_tokens_made > lex_max_tokens)
    fatal_tok(tok, "more than %ld tokens in the translation unit (at this expansion of '%s')", lex_max_tokens, m->name);
  if (cur == &head) {
    *rest = after;
    return true;
  }
  head.next->at_bol = tok->at_bol;
  head.next->has_space = tok->has_space;
  cur->next = after;
  *rest = head.next;
  return true;
}

//
// Conditionals
//

static bool is_if(const Token *tok) {
  return is_hash(tok) && (tok_equal(tok->next, "if") || tok_equal(tok->next, "ifdef") ||
                          tok_equal(tok->next, "ifndef"));
}

// Skips to the #elif, #else or #endif that closes the current group,
// stepping over whole nested groups (counted, not recursed into: the
// nesting of a skipped group has no limit).
static Token *skip_cond_incl(Token *tok) {
  long nested = 0;
  while (tok->kind != TK_EOF) {
    if (is_if(tok)) {
      nested++;
      tok = tok->next->next;
      continue;
    }
    if (nested > 0 && is_hash(tok) && tok_equal(tok->next, "endif")) {
      nested--;
      tok = tok->next->next;
      continue;
    }
    if (nested == 0 && is_hash(tok) && (tok_equal(tok->next, "elif") || tok_equal(tok->next, "else") ||
                                        tok_equal(tok->next, "endif")))
      break;
    tok = tok->next;
  }
  return tok;
}

static Token *new_num(const Token *site, long long v) {
  return tokenize_text(format("%lld", v), site);
}

// Evaluates a #if or #elif line.
static long long eval_const_line(Token **rest, Token *tok) {
  Token *start = tok;
  Token *expr = copy_line(rest, tok);

  // `defined X` and `defined(X)` are decided before macro expansion.
  Token head = {0}, *cur = &head;
  Token *t = expr;
  while (t->kind != TK_EOF) {
    if (tok_equal(t, "defined")) {
      Token *d = t;
      t = t->next;
      bool paren = tok_equal(t, "(");
      if (paren)
        t = t->next;
      if (t->kind != TK_IDENT)
        fatal_tok(d, "macro name must be an identifier");
      Macro *m = find_macro(t);
      t = t->next;
      if (paren) {
        if (!tok_equal(t, ")"))
          fatal_tok(t, "expected ')' after 'defined(NAME'");
        t = t->next;
      }
      cur = cur->next = new_num(d, m ? 1 : 0);
      continue;
    }
    cur = cur->next = t;
    t = t->next;
  }
  cur->next = t;

  expr = preprocess2(head.next);
  // Identifiers left after expansion are 0 (true is 1 in C++).
  for (Token *u = expr; u->kind != TK_EOF; u = u->next)
    if (u->kind == TK_IDENT) {
      Token *next = u->next;
      *u = *new_num(u, tok_equal(u, "true") ? 1 : 0);
      u->next = next;
    }

  if (expr->kind == TK_EOF)
    fatal_tok(start, "#if with no expression");
  long long val;
  Token *err;
  const char *why;
  Token *end = expr;
  while (end->kind != TK_EOF)
    end = end->next;
  if (!const_eval(expr, end, &val, &err, &why)) {
    if (why)
      fatal_tok(err ? err : start, "invalid integer constant expression in #if: %s", why);
    fatal_tok(err ? err : start, "invalid integer constant expression in #if");
  }
  return val;
}

static void push_cond_incl(Token *tok, bool included) {
  CondIncl *ci = xcalloc(1, sizeof(CondIncl));
  ci->next = cond_incl;
  ci->ctx = IN_THEN;
  ci->tok = tok;
  ci->included = included;
  cond_incl = ci;
}

//
// Includes
//

static bool is_op2_header(const char *name) {
  const char *base = strrchr(name, '/');
  base = base ? base + 1 : name;
  for (size_t i = 0; i < sizeof(op2_headers) / sizeof(*op2_headers); i++)
    if (strcmp(base, op2_headers[i]) == 0)
      return true;
  return false;
}

static char *search_include(const char *name, const Token *site) {
  if (name[0] == '/')
    return file_exists(name) ? xstrdup(name) : NULL;
  char *dir = dir_name(site->file->name);
  char *path = strcmp(dir, ".") == 0 ? xstrdup(name) : format("%s/%s", dir, name);
  if (file_exists(path))
    return path;
  for (int i = 0; i < options->include_dirs.len; i++) {
    path = format("%s/%s", options->include_dirs.data[i], name);
    if (file_exists(path))
      return path;
  }
  return NULL;
}

static bool seen_pragma_once(const char *path) {
  for (int i = 0; i < pragma_once.len; i++)
    if (strcmp(pragma_once.data[i], path) == 0)
      return true;
  return false;
}

static File *read_source(const char *path, const char **why) {
  size_t len;
  char *text = read_source_file(path, &len, why);
  if (!text)
    return NULL;
  File *f = new_file(path, text, len);
  VEC_PUSH(pp_files, pp_nfiles, f);
  return f;
}

static Token *include_file(Token *tok, Token *name_tok) {
  char *name = name_tok->str;
  Token *rest = skip_line(name_tok->next);
  char *path = search_include(name, name_tok);
  if (!path) {
    if (is_op2_header(name)) {
      define_op2_header_macros();
      return rest;
    }
    fatal_tok(name_tok, "cannot find include file '%s'", name);
  }
  if (seen_pragma_once(path))
    return rest;
  int depth = name_tok->file ? name_tok->file->include_depth + 1 : 1;
  if (depth > OP2C_MAX_INCLUDE_DEPTH)
    fatal_tok(name_tok, "#include nested more than %d levels deep (recursive include without a guard?)",
              OP2C_MAX_INCLUDE_DEPTH);
  const char *why;
  File *f = read_source(path, &why);
  if (!f)
    fatal_tok(name_tok, "cannot read include file '%s': %s", path, why);
  f->include_depth = depth;
  (void)tok;
  Token *included = tokenize(f);
  // A synthetic marker keeps track of the depth when the file ends.
  return append(included, rest);
}

//
// The directive loop
//

static Token *directive(Token *tok) {
  Token *start = tok; // '#'
  tok = tok->next;
  if (tok->at_bol) // null directive
    return tok;

  if (tok_equal(tok, "include") || tok_equal(tok, "include_next")) {
    Token *name = tok->next;
    if (name->kind == TK_STR && !name->at_bol)
      return include_file(start, name);
    if (tok_equal(name, "<") && !name->at_bol) {
      // A system header is not read; one of OP2's names (<op_seq.h>,
      // <op_profile.h>) defines what that header defines.
      char *sys = "";
      for (tok = name->next; !tok->at_bol && !tok_equal(tok, ">"); tok = tok->next)
        sys = format("%s%.*s", sys, tok->len, tok->loc);
      if (is_op2_header(sys))
        define_op2_header_macros();
      while (!tok->at_bol)
        tok = tok->next;
      return tok;
    }
    fatal_tok(name, "expected \"FILENAME\" or <FILENAME>");
  }
  if (tok_equal(tok, "define"))
    return read_define(tok->next);
  if (tok_equal(tok, "undef")) {
    tok = tok->next;
    if (tok->kind != TK_IDENT || tok->at_bol)
      fatal_tok(tok, "macro name must be an identifier");
    undef_macro(tok_text(tok));
    return skip_line(tok->next);
  }
  if (tok_equal(tok, "if")) {
    long long val = eval_const_line(&tok, tok->next);
    push_cond_incl(start, val != 0);
    return val ? tok : skip_cond_incl(tok);
  }
  if (tok_equal(tok, "ifdef") || tok_equal(tok, "ifndef")) {
    bool want = tok_equal(tok, "ifdef");
    Token *name = tok->next;
    if (name->kind != TK_IDENT || name->at_bol)
      fatal_tok(name, "macro name must be an identifier");
    bool defined = find_macro(name) != NULL;
    push_cond_incl(start, defined == want);
    tok = skip_line(name->next);
    return defined == want ? tok : skip_cond_incl(tok);
  }
  if (tok_equal(tok, "elif")) {
    if (!cond_incl || cond_incl->ctx == IN_ELSE)
      fatal_tok(start, "#elif without #if");
    cond_incl->ctx = IN_ELIF;
    if (!cond_incl->included && eval_const_line(&tok, tok->next)) {
      cond_incl->included = true;
      return tok;
    }
    while (!tok->at_bol)
      tok = tok->next;
    return skip_cond_incl(tok);
  }
  if (tok_equal(tok, "else")) {
    if (!cond_incl || cond_incl->ctx == IN_ELSE)
      fatal_tok(start, "#else without #if");
    cond_incl->ctx = IN_ELSE;
    tok = skip_line(tok->next);
    if (cond_incl->included)
      return skip_cond_incl(tok);
    return tok;
  }
  if (tok_equal(tok, "endif")) {
    if (!cond_incl)
      fatal_tok(start, "#endif without #if");
    cond_incl = cond_incl->next;
    return skip_line(tok->next);
  }
  if (tok_equal(tok, "pragma") && tok_equal(tok->next, "once")) {
    strarray_push(&pragma_once, tok->file->name);
    return skip_line(tok->next->next);
  }
  if (tok_equal(tok, "error"))
    {
    Token *rest;
    fatal_tok(tok, "#error %s", join_tokens(copy_line(&rest, tok->next), NULL));
  }
  if (tok_equal(tok, "pragma") || tok_equal(tok, "line") || tok_equal(tok, "warning") ||
      tok_equal(tok, "ident")) {
    while (!tok->at_bol)
      tok = tok->next;
    return tok;
  }
  fatal_tok(tok, "invalid preprocessing directive #%.*s", tok->len, tok->loc);
}

static Token *preprocess2(Token *tok) {
  Token head = {0}, *cur = &head;
  while (tok->kind != TK_EOF) {
    if (expand_macro(&tok, tok))
      continue;
    if (!is_hash(tok) || tok->from_macro) {
      cur = cur->next = tok;
      tok = tok->next;
      continue;
    }
    tok = directive(tok);
  }
  cur->next = tok;
  return head.next;
}

static void define_builtins(bool is_cxx) {
  define_builtin("__OP2C__ 1");
  define_builtin("__STDC__ 1");
  define_builtin(is_cxx ? "__cplusplus 201703L" : "__STDC_VERSION__ 201112L");
  // OP2's access modes, from op_seq.h, which op2c does not read.
#define X(name, val) define_builtin("OP_" #name " " #val);
  ACCESS_LIST(X)
#undef X
  define_builtin("OP_ARG_GBL 0");
  define_builtin("OP_ARG_DAT 1");
  define_builtin("OP_ARG_IDX 2");
  define_builtin("OP_ARG_INFO 3");
}

static bool has_cxx_suffix(const char *name) {
  const char *dot = strrchr(name, '.');
  return dot && (strcmp(dot, ".cpp") == 0 || strcmp(dot, ".cc") == 0 ||
                 strcmp(dot, ".cxx") == 0 || strcmp(dot, ".C") == 0);
}

Token *preprocess(File *main_file, const PPOptions *opts) {
  options = opts;
  lex_tokens_made = 0;
  const_eval_lookup = NULL; // #if knows no C constants
  pp_files = NULL;
  pp_nfiles = 0;
  macros = (StrMap){0};
  cond_incl = NULL;
  arg_depth = 0;
  op2_macros_defined = false;
  pragma_once = (StrArray){0};
  VEC_PUSH(pp_files, pp_nfiles, main_file);
  define_builtins(has_cxx_suffix(main_file->name));
  for (int i = 0; i < opts->defines.len; i++)
    define_from_option(opts->defines.data[i]);

  Token *tok = preprocess2(tokenize(main_file));
  if (cond_incl)
    fatal_tok(cond_incl->tok, "unterminated conditional directive");
  return tok;
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(Macro *const *)a)->name, (*(Macro *const *)b)->name);
}

// The #define lines of every macro the program defined in its own files,
// with -D or by including one of OP2's headers (not the built-ins), sorted
// by name: the tinsel back end compiles kernels apart from the program, and
// kernels may use them. OP2's are guarded, as OP2's headers guard MIN and
// MAX: code compiled beside op_seq.h sees the same macro twice.
char *pp_macro_definitions(void) {
  Macro **all = NULL;
  int n = 0;
  for (size_t i = 0; i < macros.cap; i++) {
    Macro *m = macros.keys[i] ? macros.vals[i] : NULL;
    if (m && !m->undefined && m->body && m->body->file && strcmp(m->body->file->name, "<built-in>") != 0)
      VEC_PUSH(all, n, m);
  }
  if (n)
    qsort(all, (size_t)n, sizeof(*all), by_name);
  char *text;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < n; i++) {
    Macro *m = all[i];
    bool op2 = strcmp(m->body->file->name, OP2_HEADER_FILE) == 0;
    if (op2)
      fprintf(f, "#ifndef %s\n", m->name);
    fprintf(f, "#define %s", m->name);
    if (!m->objlike) {
      fprintf(f, "(");
      int named = m->params.len - (m->variadic ? 1 : 0);
      for (int k = 0; k < named; k++)
        fprintf(f, "%s%s", k ? ", " : "", m->params.data[k]);
      fprintf(f, "%s)", m->variadic ? (named ? ", ..." : "...") : "");
    }
    for (Token *t = m->body; t && t->kind != TK_EOF; t = t->next)
      fprintf(f, "%s%.*s", t == m->body || t->has_space ? " " : "", t->len, t->loc);
    fprintf(f, "\n%s", op2 ? "#endif\n" : "");
  }
  fclose(f);
  xfree(all);
  char *copy = xstrndup(text, len); // recorded, like everything the front end makes
  free(text);
  return copy;
}
