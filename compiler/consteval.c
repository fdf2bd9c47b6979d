// consteval.c: integer constant expressions, for #if lines and for the dim
// and idx arguments of OP2 calls (written as macros such as PDIM*2).
//
// expr    = cond
// cond    = logor ("?" expr ":" cond)?
// logor   = logand ("||" logand)*      ... down through the C precedence levels
// unary   = ("+" | "-" | "!" | "~") unary | "(" type ")" unary | primary
// primary = number | char | "(" expr ")" | identifier known to const_eval_lookup
//
// Arithmetic is in long long and checked: an overflow (LLONG_MIN / -1,
// -LLONG_MIN, a sum or product out of range, a shift by a negative count or
// by 64 or more) makes the expression invalid, as in C, and the caller
// reports why. Nesting (parentheses, unary operators, ?:) is limited to
// CONST_EVAL_MAX_DEPTH levels so that the recursion stays bounded.
#include "op2c.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool (*const_eval_lookup)(const Token *ident, long long *val);

typedef struct {
  Token *tok;
  Token *end;
  Token *err;
  const char *why; // set with err when there is more to say than "invalid"
  int depth;
} Eval;

static bool at(Eval *e, const char *s) { return e->tok != e->end && tok_equal(e->tok, s); }

static bool fail(Eval *e) {
  if (!e->err)
    e->err = e->tok;
  return false;
}

static bool fail_why(Eval *e, Token *at_tok, const char *why) {
  if (!e->err) {
    e->err = at_tok;
    e->why = why;
  }
  return false;
}

// Enters one level of nesting; false (with the reason) past the limit.
static bool enter(Eval *e) {
  if (++e->depth <= CONST_EVAL_MAX_DEPTH)
    return true;
  return fail_why(e, e->tok, format("nested more than %d levels deep", CONST_EVAL_MAX_DEPTH));
}

static bool expr(Eval *e, long long *v);

static bool number(Eval *e, long long *v) {
  Token *t = e->tok;
  char *p = t->loc, *end = t->loc + t->len;
  unsigned base = 10;
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
  bool any = false, too_large = false, is_unsigned = false;
  for (; p < end && *p != 'u' && *p != 'U' && *p != 'l' && *p != 'L'; p++) {
    if (*p == '\'')
      continue;
    unsigned d = isdigit((unsigned char)*p) ? (unsigned)(*p - '0')
                 : isxdigit((unsigned char)*p) ? (unsigned)(tolower((unsigned char)*p) - 'a' + 10)
                                                 : 99;
    if (d >= base)
      return fail(e); // a floating constant or a malformed number
    if (val > (ULLONG_MAX - d) / base)
      too_large = true;
    val = val * base + d;
    any = true;
  }
  for (; p < end; p++) {
    if (!strchr("uUlL", *p))
      return fail(e);
    is_unsigned |= *p == 'u' || *p == 'U';
  }
  if (!any && base != 8)
    return fail(e);
  // Unsigned constants above LLONG_MAX wrap as C's conversion does; signed
  // ones have no type to hold them.
  if (too_large || (!is_unsigned && val > (unsigned long long)LLONG_MAX))
    return fail_why(e, t, format("integer constant '%.*s' is too large", t->len, t->loc));
  *v = val > (unsigned long long)LLONG_MAX ? (long long)(val - (unsigned long long)LLONG_MAX - 1) + LLONG_MIN
                                           : (long long)val;
  e->tok = t->next;
  return true;
}

static bool primary(Eval *e, long long *v) {
  if (e->tok == e->end)
    return fail(e);
  Token *t = e->tok;
  if (at(e, "(")) {
    if (!enter(e))
      return false;
    e->tok = t->next;
    if (!expr(e, v))
      return false;
    if (!at(e, ")"))
      return fail(e);
    e->tok = e->tok->next;
    e->depth--;
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
    Token *op_tok = e->tok;
    char op = *op_tok->loc;
    if (!enter(e))
      return false;
    e->tok = e->tok->next;
    if (!unary(e, v))
      return false;
    e->depth--;
    if (op == '-' && *v == LLONG_MIN)
      return fail_why(e, op_tok, format("'-' overflows (-(%lld))", *v));
    *v = op == '-' ? -*v : op == '!' ? !*v : op == '~' ? ~*v : *v;
    return true;
  }
  // A cast to an integer type: (int)X.
  if (at(e, "(") && e->tok->next != e->end && is_int_type_name(e->tok->next)) {
    Token *t = e->tok->next;
    while (t != e->end && is_int_type_name(t))
      t = t->next;
    if (t != e->end && tok_equal(t, ")")) {
      if (!enter(e))
        return false;
      e->tok = t->next;
      if (!unary(e, v))
        return false;
      e->depth--;
      return true;
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

// a op b, checked: false with the reason when C leaves it undefined.
static bool apply(Eval *e, Token *op_tok, const char *op, long long a, long long b, long long *v) {
  bool overflow = false;
  if ((!strcmp(op, "/") || !strcmp(op, "%")) && b == 0)
    return fail_why(e, op_tok, format("division by zero"));
  if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
    if (b < 0 || b >= 64)
      return fail_why(e, op_tok, format("shift count %lld is out of range (0..63)", b));
  }
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
  else if (!strcmp(op, "<<")) {
    overflow = a < 0 || a > (LLONG_MAX >> b);
    *v = overflow ? 0 : a << b;
  } else if (!strcmp(op, ">>")) *v = a >> b;
  else if (!strcmp(op, "+")) {
    overflow = b > 0 ? a > LLONG_MAX - b : a < LLONG_MIN - b;
    *v = overflow ? 0 : a + b;
  } else if (!strcmp(op, "-")) {
    overflow = b < 0 ? a > LLONG_MAX + b : a < LLONG_MIN + b;
    *v = overflow ? 0 : a - b;
  } else if (!strcmp(op, "*")) {
    if (a != 0 && b != 0) {
      if (a == -1 || b == -1)
        overflow = a == LLONG_MIN || b == LLONG_MIN;
      else if ((a > 0) == (b > 0))
        overflow = a > 0 ? a > LLONG_MAX / b : a < LLONG_MAX / b;
      else
        overflow = a > 0 ? b < LLONG_MIN / a : a < LLONG_MIN / b;
    }
    *v = overflow ? 0 : a * b;
  } else {
    overflow = a == LLONG_MIN && b == -1;
    *v = overflow ? 0 : !strcmp(op, "/") ? a / b : a % b;
  }
  if (overflow)
    return fail_why(e, op_tok, format("'%s' overflows (%lld %s %lld)", op, a, op, b));
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
    if (!apply(e, op_tok, op, *v, rhs, v))
      return false;
  }
}

static bool expr(Eval *e, long long *v) {
  if (!binary(e, 0, v))
    return false;
  if (!at(e, "?"))
    return true;
  if (!enter(e))
    return false;
  e->tok = e->tok->next;
  long long a, b;
  if (!expr(e, &a))
    return false;
  if (!at(e, ":"))
    return fail(e);
  e->tok = e->tok->next;
  if (!expr(e, &b))
    return false;
  e->depth--;
  *v = *v ? a : b;
  return true;
}

bool const_eval(Token *tok, Token *end, long long *val, Token **err_tok, const char **why) {
  Eval e = {.tok = tok, .end = end};
  *why = NULL;
  if (tok == end || !expr(&e, val) || e.tok != end) {
    if (!e.err)
      e.err = e.tok != end ? e.tok : tok;
    *err_tok = e.err;
    *why = e.why;
    return false;
  }
  return true;
}
