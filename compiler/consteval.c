// consteval.c: integer constant expressions, for #if lines and for the dim
// and idx arguments of OP2 calls (written as macros such as PDIM*2).
//
// expr    = cond
// cond    = logor ("?" expr ":" cond)?
// logor   = logand ("||" logand)*      ... down through the C precedence levels
// unary   = ("+" | "-" | "!" | "~") unary | "(" type ")" unary | primary
// primary = number | char | "(" expr ")" | identifier known to const_eval_lookup
#include "op2c.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool (*const_eval_lookup)(const Token *ident, long long *val);

typedef struct {
  Token *tok;
  Token *end;
  Token *err;
} Eval;

static bool at(Eval *e, const char *s) { return e->tok != e->end && tok_equal(e->tok, s); }

static bool fail(Eval *e) {
  if (!e->err)
    e->err = e->tok;
  return false;
}

static bool expr(Eval *e, long long *v);

static bool number(Eval *e, long long *v) {
  Token *t = e->tok;
  char *p = t->loc, *end = t->loc + t->len;
  int base = 10;
  if (t->len > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
  } else if (t->len > 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
    base = 2;
    p += 2;
  } else if (p[0] == '0') {
    base = 8;
  }
  unsigned long long val = 0;
  bool any = false;
  for (; p < end && *p != 'u' && *p != 'U' && *p != 'l' && *p != 'L'; p++) {
    if (*p == '\'')
      continue;
    int d = isdigit((unsigned char)*p) ? *p - '0'
            : isxdigit((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10
                                            : 99;
    if (d >= base)
      return fail(e); // a floating constant or a malformed number
    val = val * (unsigned)base + (unsigned)d;
    any = true;
  }
  for (; p < end; p++)
    if (!strchr("uUlL", *p))
      return fail(e);
  if (!any && base != 8)
    return fail(e);
  *v = (long long)val;
  e->tok = t->next;
  return true;
}

static bool primary(Eval *e, long long *v) {
  if (e->tok == e->end)
    return fail(e);
  Token *t = e->tok;
  if (at(e, "(")) {
    e->tok = t->next;
    if (!expr(e, v))
      return false;
    if (!at(e, ")"))
      return fail(e);
    e->tok = e->tok->next;
    return true;
  }
  if (t->kind == TK_NUM)
    return number(e, v);
  if (t->kind == TK_CHAR && t->len == 3 && t->loc[0] == '\'') {
    *v = (unsigned char)t->loc[1];
    e->tok = t->next;
    return true;
  }
  if (t->kind == TK_IDENT && const_eval_lookup && const_eval_lookup(t, v)) {
    e->tok = t->next;
    return true;
  }
  return fail(e);
}

static bool is_int_type_name(Token *t) {
  static const char *names[] = {"int", "long", "short", "unsigned", "signed", "char", "size_t"};
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
    if (tok_equal(t, names[i]))
      return true;
  return false;
}

static bool unary(Eval *e, long long *v) {
  if (at(e, "+") || at(e, "-") || at(e, "!") || at(e, "~")) {
    char op = *e->tok->loc;
    e->tok = e->tok->next;
    if (!unary(e, v))
      return false;
    *v = op == '-' ? -*v : op == '!' ? !*v : op == '~' ? ~*v : *v;
    return true;
  }
  // A cast to an integer type: (int)X.
  if (at(e, "(") && e->tok->next != e->end && is_int_type_name(e->tok->next)) {
    Token *t = e->tok->next;
    while (t != e->end && is_int_type_name(t))
      t = t->next;
    if (t != e->end && tok_equal(t, ")")) {
      e->tok = t->next;
      return unary(e, v);
    }
  }
  return primary(e, v);
}

// Binary operators by precedence level, loosest first.
static const char *levels[][5] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="},
    {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS ((int)(sizeof(levels) / sizeof(*levels)))

static bool apply(Eval *e, const char *op, long long a, long long b, long long *v) {
  if ((!strcmp(op, "/") || !strcmp(op, "%")) && b == 0)
    return fail(e);
  if (!strcmp(op, "||")) *v = a || b;
  else if (!strcmp(op, "&&")) *v = a && b;
  else if (!strcmp(op, "|")) *v = a | b;
  else if (!strcmp(op, "^")) *v = a ^ b;
  else if (!strcmp(op, "&")) *v = a & b;
  else if (!strcmp(op, "==")) *v = a == b;
  else if (!strcmp(op, "!=")) *v = a != b;
  else if (!strcmp(op, "<")) *v = a < b;
  else if (!strcmp(op, "<=")) *v = a <= b;
  else if (!strcmp(op, ">")) *v = a > b;
  else if (!strcmp(op, ">=")) *v = a >= b;
  else if (!strcmp(op, "<<")) *v = (long long)((unsigned long long)a << (b & 63));
  else if (!strcmp(op, ">>")) *v = a >> (b & 63);
  else if (!strcmp(op, "+")) *v = (long long)((unsigned long long)a + (unsigned long long)b);
  else if (!strcmp(op, "-")) *v = (long long)((unsigned long long)a - (unsigned long long)b);
  else if (!strcmp(op, "*")) *v = (long long)((unsigned long long)a * (unsigned long long)b);
  else if (!strcmp(op, "/")) *v = a / b;
  else *v = a % b;
  return true;
}

static bool binary(Eval *e, int level, long long *v) {
  if (level == NLEVELS)
    return unary(e, v);
  if (!binary(e, level + 1, v))
    return false;
  for (;;) {
    const char *op = NULL;
    for (int i = 0; i < 5 && levels[level][i]; i++)
      if (at(e, levels[level][i]))
        op = levels[level][i];
    if (!op)
      return true;
    Token *op_tok = e->tok;
    e->tok = e->tok->next;
    long long rhs;
    if (!binary(e, level + 1, &rhs))
      return false;
    if (!apply(e, op, *v, rhs, v)) {
      e->err = op_tok;
      return false;
    }
  }
}

static bool expr(Eval *e, long long *v) {
  if (!binary(e, 0, v))
    return false;
  if (!at(e, "?"))
    return true;
  e->tok = e->tok->next;
  long long a, b;
  if (!expr(e, &a))
    return false;
  if (!at(e, ":"))
    return fail(e);
  e->tok = e->tok->next;
  if (!expr(e, &b))
    return false;
  *v = *v ? a : b;
  return true;
}

bool const_eval(Token *tok, Token *end, long long *val, Token **err_tok) {
  Eval e = {.tok = tok, .end = end};
  if (tok == end || !expr(&e, val) || e.tok != end) {
    if (!e.err)
      e.err = e.tok != end ? e.tok : tok;
    *err_tok = e.err;
    return false;
  }
  return true;
}
