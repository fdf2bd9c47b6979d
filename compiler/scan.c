// scan.c: finds the OP2 program in a preprocessed translation unit.
//
// op2c does not parse all of C or C++. Like OP2's own translators it relies
// on how OP2 programs are written (reference: op2_airfoil.md §6): op_decl_*
// results are assigned to variables, every op_arg_* is written inline in its
// op_par_loop, the kernel is a plain identifier naming a function defined in
// the translation unit, and dims and indices are integer constant
// expressions. Within those limits it reads the token stream exactly:
// comments, strings, macros and nested parentheses cannot mislead it.
//
// Two passes: the first records function definitions and integer constants,
// the second walks the OP2 calls in source order, so that using a set, map
// or dat before its declaration is caught.
#include "op2c.h"

#include <stdlib.h>
#include <string.h>

typedef enum {
  CALL_DECL_SET_HDF5,
  CALL_DECL_SET, CALL_DECL_MAP, CALL_DECL_DAT, CALL_DECL_DAT_TEMP, CALL_DECL_DAT_OVERLAY, CALL_DECL_CONST, CALL_DECL_CONST2,
  CALL_PAR_LOOP, CALL_ARG_DAT, CALL_OPT_ARG_DAT, CALL_ARG_GBL, CALL_OPT_ARG_GBL,
  CALL_ARG_IDX, CALL_ARG_INFO, CALL_OTHER,
} CallKind;

// The OP2 calls op2c reads, with their arity (-1: at least `nargs`).
static const struct {
  const char *name;
  CallKind kind;
  int nargs;
  const char *params;
} calls[] = {
    {"op_decl_set", CALL_DECL_SET, 2, "size, name"},
    {"op_decl_map", CALL_DECL_MAP, 5, "from, to, dim, data, name"},
    {"op_decl_map_long", CALL_DECL_MAP, 5, "from, to, dim, data, name"},
    {"op_decl_dat", CALL_DECL_DAT, 5, "set, dim, type, data, name"},
    {"op_decl_dat_temp", CALL_DECL_DAT_TEMP, 5, "set, dim, type, data, name"},
    {"op_decl_dat_overlay", CALL_DECL_DAT_OVERLAY, 2, "set, dat"},
    // op_hdf5.h: a set's size comes from the file; maps and dats take their
    // arguments where op_decl_map and op_decl_dat do, with the file for the data.
    {"op_decl_set_hdf5", CALL_DECL_SET_HDF5, 2, "file, name"},
    {"op_decl_set_hdf5_infer_size", CALL_DECL_SET_HDF5, 3, "file, name, set_dataset_name"},
    {"op_decl_map_hdf5", CALL_DECL_MAP, 5, "from, to, dim, file, name"},
    {"op_decl_dat_hdf5", CALL_DECL_DAT, 5, "set, dim, type, file, name"},
    {"op_decl_const", CALL_DECL_CONST, 3, "dim, type, data"},
    {"op_decl_const2", CALL_DECL_CONST2, 4, "name, dim, type, data"},
    {"op_par_loop", CALL_PAR_LOOP, -3, "kernel, name, set, args..."},
    {"op_arg_dat", CALL_ARG_DAT, 6, "dat, idx, map, dim, type, access"},
    {"op_opt_arg_dat", CALL_OPT_ARG_DAT, 7, "opt, dat, idx, map, dim, type, access"},
    {"op_arg_gbl", CALL_ARG_GBL, 4, "data, dim, type, access"},
    {"op_opt_arg_gbl", CALL_OPT_ARG_GBL, 5, "opt, data, dim, type, access"},
    {"op_arg_idx", CALL_ARG_IDX, 2, "idx, map"},
    {"op_arg_info", CALL_ARG_INFO, 4, "data, dim, type, ref"},
};

static CallKind call_kind(const Token *tok, int *index) {
  if (tok->kind != TK_IDENT)
    return CALL_OTHER;
  for (size_t i = 0; i < sizeof(calls) / sizeof(*calls); i++)
    if (tok_equal(tok, calls[i].name)) {
      *index = (int)i;
      return calls[i].kind;
    }
  return CALL_OTHER;
}

//
// Token ranges
//

typedef struct {
  Token *start; // first token of the argument
  Token *end;   // one past its last token (a ',' or the closing ')')
} Range;

static bool is_open(const Token *t) {
  return tok_equal(t, "(") || tok_equal(t, "[") || tok_equal(t, "{");
}
static bool is_close(const Token *t) {
  return tok_equal(t, ")") || tok_equal(t, "]") || tok_equal(t, "}");
}

static char closer_of(const Token *open) { return *open->loc == '(' ? ')' : *open->loc == '[' ? ']' : '}'; }

// Returns the token that closes the bracket `open`. A bracket closed by the
// wrong kind, or never closed, is a fatal error reported at the bracket the
// user left open.
static Token *matching(Token *open) {
  Token **stack = NULL;
  int depth = 0;
  for (Token *t = open; t->kind != TK_EOF; t = t->next) {
    if (is_open(t)) {
      VEC_PUSH(stack, depth, t);
    } else if (is_close(t)) {
      Token *top = stack[depth - 1];
      if (*t->loc != closer_of(top))
        fatal_tok(top, "'%c' is not closed: found '%c' first", *top->loc, *t->loc);
      if (--depth == 0) {
        xfree(stack);
        return t;
      }
    }
  }
  fatal_tok(stack[depth - 1], "'%c' is never closed", *stack[depth - 1]->loc);
}

// Splits the arguments of the call whose '(' is lparen. Returns their
// number; *rparen is the closing parenthesis.
static int split_args(Token *lparen, Range **out, Token **rparen) {
  Token *close = matching(lparen);
  *rparen = close;
  Range *r = NULL;
  int n = 0;
  if (lparen->next == close) {
    *out = NULL;
    return 0;
  }
  Token *start = lparen->next;
  for (Token *t = start; t != close->next; t = t->next) {
    if (t == close || tok_equal(t, ",")) {
      VEC_PUSH(r, n, ((Range){start, t}));
      start = t->next;
      continue;
    }
    if (is_open(t))
      t = matching(t);
  }
  *out = r;
  return n;
}

static char *range_text(Range r) {
  size_t len = 1;
  for (Token *t = r.start; t != r.end; t = t->next)
    len += (size_t)t->len + 1;
  char *buf = xcalloc(1, len);
  size_t pos = 0;
  for (Token *t = r.start; t != r.end; t = t->next) {
    if (t != r.start && t->has_space)
      buf[pos++] = ' ';
    memcpy(buf + pos, t->loc, (size_t)t->len);
    pos += (size_t)t->len;
  }
  return buf;
}

static bool is_single(Range r) { return r.start != r.end && r.start->next == r.end; }

// The identifier an argument consists of, or NULL.
static Token *single_ident(Range r) {
  return is_single(r) && r.start->kind == TK_IDENT ? r.start : NULL;
}

static char *string_arg(Range r, const char *what) {
  if (!is_single(r) || r.start->kind != TK_STR) {
    error_tok(r.start, "%s must be a string literal", what);
    return NULL;
  }
  return r.start->str;
}

static bool int_arg(Range r, const char *what, long long *v) {
  Token *err;
  const char *why;
  if (r.start == r.end) {
    error_tok(r.start, "missing %s", what);
    return false;
  }
  if (const_eval(r.start, r.end, v, &err, &why))
    return true;
  if (why)
    error_tok(err, "%s is not an integer constant expression: %s", what, why);
  else
    error_tok(err, "%s is not an integer constant expression", what);
  return false;
}

// A dim (of a map, dat, const or arg): a constant in 1..OP2C_MAX_DIM, so
// that the sizes computed from it (dim * sizeof, summed over the args of a
// loop) fit an int. Returns -1 after reporting anything else: -1 in the IR
// means "no value", never a dim the program wrote.
static int dim_arg(Range r, const char *what) {
  long long v;
  if (!int_arg(r, what, &v))
    return -1;
  if (v < 1) {
    error_tok(r.start, "%s must be positive, got %lld", what, v);
    return -1;
  }
  if (v > OP2C_MAX_DIM) {
    error_tok(r.start, "%s %lld is too large (at most %d)", what, v, OP2C_MAX_DIM);
    return -1;
  }
  return (int)v;
}

// A map index: within -OP2C_MAX_DIM..OP2C_MAX_DIM (check.c compares it with
// the dim of the map). Returns `bad` after reporting anything else.
static int idx_arg(Range r, int bad) {
  long long v;
  if (!int_arg(r, "the map index", &v))
    return bad;
  if (v < -OP2C_MAX_DIM || v > OP2C_MAX_DIM) {
    error_tok(r.start, "the map index %lld is out of range (-%d..%d)", v, OP2C_MAX_DIM, OP2C_MAX_DIM);
    return bad;
  }
  return (int)v;
}

//
// Pass 1: function definitions and integer constants
//

typedef struct {
  char *name;
  long long value;
} IntConst;

// Lookups by name, reset for each program: the last integer constant, set,
// map and dat declared with a name, the dats declared with a variable, the
// first function and const with a name.
static StrMap int_consts, set_vars, map_vars, dat_vars, dat_lists, func_names, const_names;

typedef struct {
  IRDat **dats;
  int ndats;
} DatList;

static void *lookup(const StrMap *m, const Token *name) {
  return name->kind == TK_EOF ? NULL : strmap_get_n(m, name->loc, (size_t)name->len);
}

static bool lookup_int_const(const Token *ident, long long *val) {
  IntConst *c = lookup(&int_consts, ident);
  if (c)
    *val = c->value;
  return c != NULL;
}

static bool is_qualifier(const Token *t) {
  return tok_equal(t, "const") || tok_equal(t, "volatile") || tok_equal(t, "restrict") ||
         tok_equal(t, "__restrict__") || tok_equal(t, "__restrict");
}

static IRParam parse_param(Range r) {
  IRParam p = {0};
  p.tok = r.start;
  Token *name = NULL;
  StrArray base = {0};
  bool seen_star = false;
  for (Token *t = r.start; t != r.end; t = t->next) {
    if (tok_equal(t, "*")) {
      p.indirection++;
      seen_star = true;
    } else if (tok_equal(t, "[")) {
      p.indirection++;
      t = matching(t);
    } else if (tok_equal(t, "&")) {
      p.indirection = -100; // a reference: never a valid kernel parameter
    } else if (tok_equal(t, "const")) {
      if (!seen_star)
        p.is_const = true;
    } else if (is_qualifier(t)) {
      continue;
    } else if (t->kind == TK_IDENT) {
      // The last identifier after a '*' or past the base type is the name.
      Token *next = t->next;
      bool last = next == r.end || tok_equal(next, "[");
      if (last && (seen_star || base.len > 0))
        name = t;
      else if (!seen_star)
        strarray_push(&base, tok_text(t));
    }
  }
  p.name = name ? tok_text(name) : xstrdup("");
  size_t len = 1;
  for (int i = 0; i < base.len; i++)
    len += strlen(base.data[i]) + 1;
  p.base = xcalloc(1, len);
  for (int i = 0; i < base.len; i++) {
    if (i)
      strcat(p.base, " ");
    strcat(p.base, base.data[i]);
  }
  // The type as written, without the parameter name.
  Token *stop = name ? name : r.end;
  char *text = range_text((Range){r.start, stop});
  if (name && name->next != r.end)
    text = format("%s%s", text, range_text((Range){name->next, r.end}));
  p.type_text = text;
  return p;
}

static void parse_params(IRFunc *fn, Token *lparen) {
  Range *args;
  Token *rparen;
  int n = split_args(lparen, &args, &rparen);
  if (n == 1 && is_single(args[0]) && tok_equal(args[0].start, "void"))
    n = 0;
  fn->params = xcalloc((size_t)n, sizeof(IRParam));
  fn->nparams = n;
  for (int i = 0; i < n; i++)
    fn->params[i] = parse_param(args[i]);
}

// Text of [start, end] inclusive, copied from the file when both ends are
// plain tokens of the same file, else rebuilt from the tokens.
static char *definition_text(Token *start, Token *end) {
  if (!start->from_macro && !end->from_macro && start->file == end->file && start->loc <= end->loc)
    return xstrndup(start->loc, (size_t)(end->loc + end->len - start->loc));
  return range_text((Range){start, end->next});
}

static bool starts_block(Token *t) {
  // `namespace X {`, `extern "C" {`: blocks whose contents are still at file scope.
  return tok_equal(t, "namespace") || (tok_equal(t, "extern") && t->next->kind == TK_STR);
}

static void find_functions(Program *prog, Token *tok) {
  Token *decl_start = tok;
  int transparent = 0; // open namespace / extern "C" blocks
  bool seen_assign = false;
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (tok_equal(t, ";") || (tok_equal(t, "}") && transparent > 0)) {
      if (tok_equal(t, "}"))
        transparent--;
      decl_start = t->next;
      seen_assign = false;
      continue;
    }
    if (starts_block(t)) {
      Token *u = t;
      while (u->kind != TK_EOF && !tok_equal(u, "{") && !tok_equal(u, ";"))
        u = u->next;
      if (tok_equal(u, "{")) {
        transparent++;
        t = u;
        decl_start = t->next;
        continue;
      }
      // Not a block: what was skipped holds no definition (looking again
      // from each `namespace` before the `;` was quadratic).
      if (u->kind == TK_EOF)
        break;
      t = u;
      decl_start = t->next;
      seen_assign = false;
      continue;
    }
    if (tok_equal(t, "="))
      seen_assign = true;
    if (tok_equal(t, "{")) {
      Token *close = matching(t);
      t = close;
      decl_start = t->next;
      seen_assign = false;
      continue;
    }
    if (t->kind != TK_IDENT || !tok_equal(t->next, "(") || seen_assign)
      continue;
    Token *rparen = matching(t->next);
    Token *u = rparen->next;
    while (tok_equal(u, "const") || tok_equal(u, "noexcept"))
      u = u->next;
    if (!tok_equal(u, "{")) {
      t = rparen;
      continue;
    }
    IRFunc *fn = xcalloc(1, sizeof(IRFunc));
    fn->name = tok_text(t);
    fn->tok = t;
    fn->body = u;
    fn->body_end = matching(u);
    parse_params(fn, t->next);
    fn->text = definition_text(decl_start, fn->body_end);
    fn->index = prog->nfuncs;
    VEC_PUSH(prog->funcs, prog->nfuncs, fn);
    if (!strmap_get(&func_names, fn->name))
      strmap_put(&func_names, fn->name, fn);
    t = fn->body_end;
    decl_start = t->next;
    seen_assign = false;
  }
}

static bool is_int_spec(const Token *t) {
  static const char *names[] = {"int", "long", "short", "unsigned", "signed", "size_t", "char"};
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
    if (tok_equal(t, names[i]))
      return true;
  return false;
}

// Records `[static] const|constexpr <integer type> NAME = <constant expression>;`.
static void find_int_consts(Token *tok) {
  for (Token *t = tok; t->kind != TK_EOF; t = t->next) {
    if (!tok_equal(t, "const") && !tok_equal(t, "constexpr"))
      continue;
    Token *u = t->next;
    if (tok_equal(u, "static"))
      u = u->next;
    if (!is_int_spec(u))
      continue;
    while (is_int_spec(u))
      u = u->next;
    if (u->kind != TK_IDENT || !tok_equal(u->next, "="))
      continue;
    Token *start = u->next->next, *end = start;
    while (end->kind != TK_EOF && !tok_equal(end, ";") && !tok_equal(end, ","))
      end = end->next;
    long long v;
    Token *err;
    const char *why;
    if (const_eval(start, end, &v, &err, &why)) {
      IntConst *c = xcalloc(1, sizeof(IntConst));
      *c = (IntConst){tok_text(u), v};
      strmap_put(&int_consts, c->name, c);
    }
  }
}

//
// Pass 2: the OP2 calls
//

#define FIND_BY_NAME(fn, T, map)                                               \
  static T *fn(Program *prog, const Token *name) {                             \
    (void)prog;                                                                \
    return lookup(&map, name);                                                 \
  }
FIND_BY_NAME(find_func, IRFunc, func_names)
FIND_BY_NAME(find_set, IRSet, set_vars)
FIND_BY_NAME(find_map, IRMap, map_vars)
FIND_BY_NAME(find_dat, IRDat, dat_vars)

static IRConst *find_const(Program *prog, const char *name) {
  (void)prog;
  return strmap_get(&const_names, name);
}

// The variable an op_decl_* result is assigned to: `x = op_decl_...(`.
static char *assigned_var(Token *prev2, Token *prev1) {
  if (prev1 && tok_equal(prev1, "=") && prev2 && prev2->kind == TK_IDENT)
    return tok_text(prev2);
  return NULL;
}

static IRSet *need_set(Program *prog, Range r, const char *what) {
  Token *id = single_ident(r);
  if (!id) {
    error_tok(r.start, "%s must be the name of an op_set variable", what);
    return NULL;
  }
  IRSet *s = find_set(prog, id);
  if (!s)
    error_tok(id, "set '%.*s' is used before it is declared with op_decl_set", id->len, id->loc);
  return s;
}

static bool check_arity(Token *name, int index, int n) {
  int want = calls[index].nargs;
  if (want >= 0 ? n == want : n >= -want)
    return true;
  error_tok(name, "%s takes %s%d arguments (%s), got %d", calls[index].name,
            want < 0 ? "at least " : "", want < 0 ? -want : want, calls[index].params, n);
  return false;
}

static void decl_set(Program *prog, Token *name, Range *a, char *var, Token *rparen) {
  IRSet *s = xcalloc(1, sizeof(IRSet));
  s->var = var;
  // op_decl_set_hdf5(file, name): the size is read from the file when the program runs.
  bool hdf5 = call_kind(name, &(int){0}) == CALL_DECL_SET_HDF5;
  s->size_expr = hdf5 ? range_text((Range){name, rparen->next}) : range_text(a[0]);
  s->name = string_arg(a[1], "the set name");
  s->tok = name;
  s->index = prog->nsets;
  VEC_PUSH(prog->sets, prog->nsets, s);
  if (var)
    strmap_put(&set_vars, var, s);
}

static void decl_map(Program *prog, Token *name, Range *a, char *var) {
  IRMap *m = xcalloc(1, sizeof(IRMap));
  m->var = var;
  m->from = need_set(prog, a[0], "the map's from-set");
  m->to = need_set(prog, a[1], "the map's to-set");
  m->dim = dim_arg(a[2], "the map dim");
  m->name = string_arg(a[4], "the map name");
  m->tok = name;
  m->index = prog->nmaps;
  VEC_PUSH(prog->maps, prog->nmaps, m);
  if (var)
    strmap_put(&map_vars, var, m);
}

static void decl_dat(Program *prog, Token *name, Range *a, char *var, bool temp) {
  IRDat *d = xcalloc(1, sizeof(IRDat));
  d->var = var;
  d->set = need_set(prog, a[0], "the dat's set");
  d->dim = dim_arg(a[1], "the dat dim");
  d->type = string_arg(a[2], "the dat type");
  if (d->type && !type_lookup(d->type))
    error_tok(a[2].start, "unknown dat type \"%s\" (expected double, float, int, uint, ll, ull or bool)",
              d->type);
  d->name = string_arg(a[4], "the dat name");
  d->temp = temp;
  d->tok = name;
  // A temp dat declared again each iteration is the same dat.
  DatList *same_var = var ? strmap_get(&dat_lists, var) : NULL;
  for (int i = 0; same_var && i < same_var->ndats; i++) {
    IRDat *o = same_var->dats[i];
    if (o->set == d->set && o->dim == d->dim && o->type && d->type && strcmp(o->type, d->type) == 0 &&
        o->temp == temp)
      return;
  }
  d->index = prog->ndats;
  VEC_PUSH(prog->dats, prog->ndats, d);
  if (var) {
    if (!same_var)
      strmap_put(&dat_lists, var, same_var = xcalloc(1, sizeof(DatList)));
    VEC_PUSH(same_var->dats, same_var->ndats, d);
    strmap_put(&dat_vars, var, d);
  }
}

// op_decl_dat_overlay(set, dat): the first elements of a dat seen as a dat
// on another (no larger) set: the same type, dim, name and storage.
static void decl_dat_overlay(Program *prog, Token *name, Range *a, char *var) {
  IRSet *set = need_set(prog, a[0], "the overlay's set");
  Token *id = single_ident(a[1]);
  IRDat *of = id ? find_dat(prog, id) : NULL;
  if (!of) {
    if (id)
      error_tok(id, "dat '%.*s' is used before it is declared with op_decl_dat", id->len, id->loc);
    else
      error_tok(a[1].start, "the overlaid dat must be the name of an op_dat variable");
    return;
  }
  IRDat *d = xcalloc(1, sizeof(IRDat));
  *d = (IRDat){.var = var, .name = of->name, .set = set, .dim = of->dim, .type = of->type,
               .overlay_of = of, .tok = name, .index = prog->ndats};
  VEC_PUSH(prog->dats, prog->ndats, d);
  DatList *same_var = strmap_get(&dat_lists, var);
  if (!same_var)
    strmap_put(&dat_lists, var, same_var = xcalloc(1, sizeof(DatList)));
  VEC_PUSH(same_var->dats, same_var->ndats, d);
  strmap_put(&dat_vars, var, d);
}

// The name behind a data pointer argument: `&gam`, `qinf`, `&x[0]`.
static char *pointer_name(Range r) {
  Token *t = r.start;
  if (tok_equal(t, "&"))
    t = t->next;
  if (t->kind == TK_IDENT && (t->next == r.end || tok_equal(t->next, "[")))
    return tok_text(t);
  return NULL;
}

// op_decl_const(dim, type, data), or op_decl_const2(name, dim, type, data)
// with `a` past the name. A later call for the same variable gives it a new
// value, as OP2 allows: kernels read the variable as it is when each loop
// runs (seq), and the tinsel host hands the devices its value before each
// loop. The dim and type must stay those of the first call.
static void decl_const(Program *prog, Token *name, Range *a, Range *name2) {
  IRConst *c = xcalloc(1, sizeof(IRConst));
  c->dim = dim_arg(a[0], "the const dim");
  c->type = string_arg(a[1], "the const type");
  if (c->type && !type_lookup(c->type))
    error_tok(a[1].start, "unknown const type \"%s\"", c->type);
  c->expr = range_text(a[2]);
  c->name = pointer_name(a[2]);
  c->tok = name;
  if (!c->name) {
    error_tok(a[2].start, "%s needs a variable: '&name' or an array name",
              name2 ? "op_decl_const2" : "op_decl_const");
    return;
  }
  if (name2) {
    char *spelled = string_arg(*name2, "the const name");
    if (spelled && strcmp(spelled, c->name) != 0) {
      error_tok(name2->start, "op_decl_const2 names the const \"%s\" but its data is the variable '%s': "
                              "kernels use the variable's name",
                spelled, c->name);
      return;
    }
  }
  IRConst *first = find_const(prog, c->name);
  if (first) {
    if (c->dim >= 0 && first->dim >= 0 && c->dim != first->dim) {
      error_tok(a[0].start, "const '%s' is declared again with dim %d, but its first declaration has dim %d",
                c->name, c->dim, first->dim);
      note_tok(first->tok, "const '%s' first declared here", c->name);
    } else if (c->type && first->type && strcmp(c->type, first->type) != 0) {
      error_tok(a[1].start, "const '%s' is declared again with type \"%s\", but its first declaration has type \"%s\"",
                c->name, c->type, first->type);
      note_tok(first->tok, "const '%s' first declared here", c->name);
    }
    return; // a new value for the same const
  }
  c->index = prog->nconsts;
  VEC_PUSH(prog->consts, prog->nconsts, c);
  strmap_put(&const_names, c->name, c);
}

static bool parse_access(Range r, Access *acc) {
  long long v;
  if (!int_arg(r, "the access mode", &v))
    return false;
  if (v < ACC_READ || v > ACC_WORK) {
    error_tok(r.start, "invalid access mode %lld (expected OP_READ, OP_WRITE, OP_RW, OP_INC, OP_MIN, OP_MAX or "
                       "OP_WORK)", v);
    return false;
  }
  *acc = (Access)v;
  return true;
}

// The map argument: OP_ID, or a declared map variable. Returns false on error.
static bool parse_map(Program *prog, Range r, IRMap **map) {
  Token *id = single_ident(r);
  *map = NULL;
  if (!id) {
    error_tok(r.start, "the map must be OP_ID or the name of an op_map variable");
    return false;
  }
  if (tok_equal(id, "OP_ID") || tok_equal(id, "OP_GBL"))
    return true;
  *map = find_map(prog, id);
  if (!*map) {
    error_tok(id, "map '%.*s' is used before it is declared with op_decl_map", id->len, id->loc);
    return false;
  }
  return true;
}

static void parse_arg_dat(Program *prog, IRArg *arg, Range *a) {
  arg->kind = ARG_DAT;
  arg->dat_tok = a[0].start;
  arg->idx_tok = a[1].start;
  arg->map_tok = a[2].start;
  arg->dim_tok = a[3].start;
  arg->type_tok = a[4].start;
  arg->acc_tok = a[5].start;
  Token *id = single_ident(a[0]);
  if (!id)
    error_tok(a[0].start, "the dat must be the name of an op_dat variable");
  else if (!(arg->dat = find_dat(prog, id)))
    error_tok(id, "dat '%.*s' is used before it is declared with op_decl_dat", id->len, id->loc);
  arg->idx = idx_arg(a[1], 0);
  parse_map(prog, a[2], &arg->map);
  arg->dim = dim_arg(a[3], "the arg dim");
  arg->type = string_arg(a[4], "the arg type");
  parse_access(a[5], &arg->acc);
}

// What op_arg_gbl and op_arg_info share: (data, dim, type, ...), the
// fourth argument's token kept as acc_tok.
static void parse_data_dim_type(IRArg *arg, ArgKind kind, Range *a) {
  arg->kind = kind;
  arg->dat_tok = a[0].start;
  arg->dim_tok = a[1].start;
  arg->type_tok = a[2].start;
  arg->acc_tok = a[3].start;
  arg->gbl_expr = range_text(a[0]);
  arg->dim = dim_arg(a[1], "the arg dim");
  arg->type = string_arg(a[2], "the arg type");
  arg->idx = -1;
}

static void parse_arg_gbl(Program *prog, IRArg *arg, Range *a) {
  parse_data_dim_type(arg, ARG_GBL, a);
  char *pname = pointer_name(a[0]);
  arg->gbl_const = pname ? find_const(prog, pname) : NULL;
  parse_access(a[3], &arg->acc);
}

// op_arg_info(data, dim, type, ref): written by the kernel (acc RW), with the
// position ref of its MIN/MAX global (check.c checks what ref names).
static void parse_arg_info(IRArg *arg, Range *a, int nargs) {
  parse_data_dim_type(arg, ARG_INFO, a);
  arg->acc = ACC_RW;
  long long v;
  arg->info_ref = -1;
  if (!int_arg(a[3], "the op_arg_info ref", &v))
    return;
  if (v < 0 || v >= nargs)
    error_tok(a[3].start, "op_arg_info ref %lld is not the position of an argument of this op_par_loop (0..%d)",
              v, nargs - 1);
  else
    arg->info_ref = (int)v;
}

static void parse_arg_idx(Program *prog, IRArg *arg, Range *a) {
  arg->kind = ARG_IDX;
  arg->idx_tok = a[0].start;
  arg->map_tok = a[1].start;
  arg->idx = idx_arg(a[0], -1);
  parse_map(prog, a[1], &arg->map);
  arg->dim = 1;
  arg->type = "int";
  arg->acc = ACC_READ;
}

// One op_par_loop argument: an op_arg_* call written inline.
static void parse_loop_arg(Program *prog, IRArg *arg, Range r, int position, int nargs) {
  int ci = -1;
  CallKind kind = call_kind(r.start, &ci);
  Token *rparen = NULL;
  Range *a = NULL;
  int n = 0;
  if (kind != CALL_OTHER && tok_equal(r.start->next, "("))
    n = split_args(r.start->next, &a, &rparen);
  if (!rparen || rparen->next != r.end ||
      (kind != CALL_ARG_DAT && kind != CALL_OPT_ARG_DAT && kind != CALL_ARG_GBL &&
       kind != CALL_OPT_ARG_GBL && kind != CALL_ARG_IDX && kind != CALL_ARG_INFO)) {
    error_tok(r.start, "argument %d of op_par_loop must be an op_arg_dat, op_opt_arg_dat, "
                       "op_arg_gbl, op_opt_arg_gbl, op_arg_idx or op_arg_info call written inline",
              position);
    return;
  }
  arg->tok = r.start;
  if (!check_arity(r.start, ci, n))
    return;
  if (kind == CALL_OPT_ARG_DAT || kind == CALL_OPT_ARG_GBL) {
    arg->opt = true;
    arg->opt_expr = range_text(a[0]);
    long long v;
    Token *err;
    const char *why;
    arg->never = const_eval(a[0].start, a[0].end, &v, &err, &why) && v == 0;
    a++;
  }
  if (kind == CALL_ARG_DAT || kind == CALL_OPT_ARG_DAT)
    parse_arg_dat(prog, arg, a);
  else if (kind == CALL_ARG_GBL || kind == CALL_OPT_ARG_GBL)
    parse_arg_gbl(prog, arg, a);
  else if (kind == CALL_ARG_INFO)
    parse_arg_info(arg, a, nargs);
  else
    parse_arg_idx(prog, arg, a);
}

static void par_loop(Program *prog, Token *name, Range *a, int n, Token *rparen) {
  IRLoop *loop = xcalloc(1, sizeof(IRLoop));
  loop->tok = name;
  loop->rparen = rparen;
  Token *k = single_ident(a[0]);
  if (!k) {
    error_tok(a[0].start, "the kernel must be the name of a function");
    return;
  }
  loop->kernel_tok = k;
  loop->kernel_name = tok_text(k);
  loop->kernel = find_func(prog, k);
  if (!loop->kernel)
    error_tok(k, "unknown kernel '%s': no definition of a function with this name is visible",
              loop->kernel_name);
  else
    loop->kernel->is_kernel = true;
  loop->name = string_arg(a[1], "the loop name");
  Token *set = single_ident(a[2]);
  if (!set)
    error_tok(a[2].start, "the iteration set must be the name of an op_set variable");
  else if (!(loop->set = find_set(prog, set)))
    error_tok(set, "set '%.*s' is used before it is declared with op_decl_set", set->len, set->loc);
  if (n - 3 > OP2C_MAX_LOOP_ARGS) {
    error_tok(name, "op_par_loop has %d args; op2c takes at most %d", n - 3, OP2C_MAX_LOOP_ARGS);
    return;
  }
  loop->nargs = n - 3;
  loop->args = xcalloc((size_t)loop->nargs, sizeof(IRArg));
  for (int i = 0; i < loop->nargs; i++) {
    int before = diag_errors;
    parse_loop_arg(prog, &loop->args[i], a[3 + i], i, loop->nargs);
    if (diag_errors > before)
      loop->args[i].tok = NULL; // reported: no further checks on this arg
  }
  if (name->from_macro || name->file != prog->file)
    error_tok(name, "op_par_loop must be written in the source file itself, not in a macro or "
                    "an included file");
  loop->index = prog->nloops;
  VEC_PUSH(prog->loops, prog->nloops, loop);
}

// op_hdf5.h's calls (op_decl_*_hdf5, op_dump_to_hdf5, ...): the program needs libop2_hdf5.
static bool is_hdf5_call(const Token *t) {
  return t->len > 8 && strncmp(t->loc, "op_", 3) == 0 && memmem(t->loc, (size_t)t->len, "_hdf5", 5) != NULL;
}

static void scan_calls(Program *prog, Token *tok) {
  Token *prev1 = NULL, *prev2 = NULL;
  for (Token *t = tok; t->kind != TK_EOF; prev2 = prev1, prev1 = t, t = t->next) {
    int ci;
    CallKind kind = call_kind(t, &ci);
    if (kind == CALL_OTHER && t->kind == TK_IDENT && tok_equal(t->next, "(") && is_hdf5_call(t))
      prog->uses_hdf5 = true;
    if (kind == CALL_OTHER || !tok_equal(t->next, "("))
      continue;
    // Skip prototypes and definitions of the API itself (`op_set op_decl_set(int, ...);`).
    if (prev1 && prev1->kind == TK_IDENT && !tok_equal(prev1, "return") &&
        !tok_equal(prev1, "else") && !tok_equal(prev1, "do"))
      continue;
    Range *a;
    Token *rparen;
    int n = split_args(t->next, &a, &rparen);
    if (!check_arity(t, ci, n)) {
      t = rparen;
      continue;
    }
    char *var = assigned_var(prev2, prev1);
    // Sets, maps and dats are found by their variable; one without would
    // reach the back ends nameless (set_(null) in the POETS graph).
    if (kind == CALL_DECL_SET_HDF5 || kind == CALL_DECL_MAP || kind == CALL_DECL_DAT)
      prog->uses_hdf5 |= is_hdf5_call(t);
    if (!var && (kind == CALL_DECL_SET || kind == CALL_DECL_SET_HDF5 || kind == CALL_DECL_MAP ||
                 kind == CALL_DECL_DAT || kind == CALL_DECL_DAT_TEMP || kind == CALL_DECL_DAT_OVERLAY)) {
      error_tok(t, "op2c needs the result of %s assigned to a variable ('x = %s(...)')", calls[ci].name,
                calls[ci].name);
      t = rparen;
      continue;
    }
    switch (kind) {
    case CALL_DECL_SET:
    case CALL_DECL_SET_HDF5: decl_set(prog, t, a, var, rparen); break;
    case CALL_DECL_MAP: decl_map(prog, t, a, var); break;
    case CALL_DECL_DAT: decl_dat(prog, t, a, var, false); break;
    case CALL_DECL_DAT_TEMP: decl_dat(prog, t, a, var, true); break;
    case CALL_DECL_DAT_OVERLAY: decl_dat_overlay(prog, t, a, var); break;
    case CALL_DECL_CONST: decl_const(prog, t, a, NULL); break;
    case CALL_DECL_CONST2: decl_const(prog, t, a + 1, a); break;
    case CALL_PAR_LOOP: par_loop(prog, t, a, n, rparen); break;
    default:
      error_tok(t, "%s must be written inline as an argument of op_par_loop", calls[ci].name);
    }
    t = rparen;
  }
}

//
// Kernels: helpers and consts they use
//

static StrMap param_names(IRFunc *fn) {
  StrMap m = {0};
  for (int i = 0; i < fn->nparams; i++)
    if (fn->params[i].name[0])
      strmap_put(&m, fn->params[i].name, fn);
  return m;
}

// The helpers (depth first, in the order of their first call) and consts
// a kernel uses. An explicit stack: a chain of helpers may be long.
// helper_of[f] and const_of[c] hold the last kernel (index + 1) that listed
// function f or const c, and each frame its function's parameter names:
// nothing is searched per token.
static void collect_uses(Program *prog, IRFunc *root, int *helper_of, int *const_of) {
  typedef struct {
    IRFunc *fn;
    Token *t; // the next token of its body to look at
    StrMap params;
  } Frame;
  Frame *stack = NULL;
  int depth = 0, mark = root->index + 1;
  VEC_PUSH(stack, depth, ((Frame){root, root->body, param_names(root)}));
  while (depth > 0) {
    Frame *f = &stack[depth - 1];
    if (f->t == f->fn->body_end) {
      depth--;
      continue;
    }
    Token *t = f->t;
    f->t = t->next;
    if (t->kind != TK_IDENT || lookup(&f->params, t))
      continue;
    IRFunc *callee = tok_equal(t->next, "(") ? find_func(prog, t) : NULL;
    if (callee && callee != root && helper_of[callee->index] != mark) {
      helper_of[callee->index] = mark;
      VEC_PUSH(root->helpers, root->nhelpers, callee);
      VEC_PUSH(stack, depth, ((Frame){callee, callee->body, param_names(callee)}));
      continue;
    }
    IRConst *c = lookup(&const_names, t);
    if (c && const_of[c->index] != mark) {
      const_of[c->index] = mark;
      VEC_PUSH(root->consts, root->nconsts, c);
    }
  }
  xfree(stack);
}

// Marks the consts whose name appears outside every function, parenthesis
// and bracket: declared at file scope, so kernels may read them. aero
// declares `double gam = 1.4;` in main and passes &gam to op_decl_const;
// no kernel can see that variable.
static void find_file_scope_consts(Program *prog, Token *tok) {
  int depth = 0;
  for (Token *t = tok, *prev = NULL; t->kind != TK_EOF; prev = t, t = t->next) {
    if (t->kind == TK_PUNCT && strchr("({[", *t->loc) && t->len == 1)
      depth++;
    else if (t->kind == TK_PUNCT && strchr(")}]", *t->loc) && t->len == 1 && depth > 0)
      depth--;
    else if (depth == 0 && t->kind == TK_IDENT && !(prev && (tok_equal(prev, ".") || tok_equal(prev, "->"))))
      for (int i = 0; i < prog->nconsts; i++)
        if (tok_equal(t, prog->consts[i]->name))
          prog->consts[i]->file_scope = true;
  }
}

Program *scan_program(File *file, Token *tok, bool is_cxx) {
  Program *prog = xcalloc(1, sizeof(Program));
  prog->file = file;
  prog->is_cxx = is_cxx;
  StrMap *maps[] = {&int_consts, &set_vars, &map_vars, &dat_vars, &dat_lists, &func_names, &const_names};
  for (size_t i = 0; i < sizeof(maps) / sizeof(*maps); i++)
    *maps[i] = (StrMap){0};
  const_eval_lookup = lookup_int_const;
  find_int_consts(tok);
  find_functions(prog, tok);
  scan_calls(prog, tok);
  find_file_scope_consts(prog, tok);
  int *helper_of = xcalloc((size_t)prog->nfuncs + 1, sizeof(int));
  int *const_of = xcalloc((size_t)prog->nconsts + 1, sizeof(int));
  for (int i = 0; i < prog->nfuncs; i++)
    if (prog->funcs[i]->is_kernel)
      collect_uses(prog, prog->funcs[i], helper_of, const_of);
  xfree(helper_of);
  xfree(const_of);
  return prog;
}
