/*
 * board_expr.c: evaluate derived-key expressions.
 *
 * C's integer operators on 64-bit signed values, by precedence climbing.
 * The untaken side of ?:, && and || is parsed but not evaluated, so
 * "SRAMsPerDRAM ? log2(x) : 0" does not fail when x is 0. Overflow, shifts
 * out of range and division by zero are errors, never undefined behaviour.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "board_internal.h"

typedef struct {
  const char *src, *p;
  ExprLookup lookup;
  void *ctx;
  char *err;
  size_t errlen;
  int failed;
  int skip; /* > 0 while parsing an untaken branch */
  int depth; /* nesting of parentheses, unary operators and ?: */
  size_t erroff; /* where the first error was found */
} Parser;

static long long parse_ternary(Parser *ps);

static void fail(Parser *ps, const char *msg, const char *what) {
  if (ps->failed)
    return;
  ps->failed = 1;
  ps->erroff = (size_t)(ps->p - ps->src);
  snprintf(ps->err, ps->errlen, "%s%s", msg, what ? what : "");
}

/* Semantic errors are suppressed in untaken branches. */
static void fail_eval(Parser *ps, const char *msg) {
  if (!ps->skip)
    fail(ps, msg, NULL);
}

static void skip_space(Parser *ps) {
  while (isspace((unsigned char)*ps->p))
    ps->p++;
}

/* Consumes operator OP if it comes next (and is not the start of a longer
 * one, e.g. "<" in "<<" or "<="). */
static int accept(Parser *ps, const char *op) {
  size_t n = strlen(op);
  skip_space(ps);
  if (strncmp(ps->p, op, n) != 0)
    return 0;
  if (n == 1 && strchr("<>&|=!", op[0]) && strchr("<>=&|", ps->p[1]) &&
      !(op[0] == '!' && ps->p[1] != '='))
    return 0;
  ps->p += n;
  return 1;
}

int parse_int(const char *s, long long *out) {
  int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const char *d = hex ? s + 2 : s;
  unsigned long long v = 0;
  if (!*d)
    return -1;
  for (; *d; d++) {
    int digit = isdigit((unsigned char)*d) ? *d - '0'
              : hex && isxdigit((unsigned char)*d) ? tolower((unsigned char)*d) - 'a' + 10
              : -1;
    if (digit < 0 || v > (0x7fffffffffffffffULL - (unsigned)digit) / (hex ? 16 : 10))
      return -1;
    v = v * (hex ? 16 : 10) + (unsigned)digit;
  }
  *out = (long long)v;
  return 0;
}

static long long parse_number(Parser *ps) {
  char buf[32];
  size_t n = 0;
  long long v = 0;
  while (isalnum((unsigned char)*ps->p) && n + 1 < sizeof buf)
    buf[n++] = *ps->p++;
  buf[n] = 0;
  if (parse_int(buf, &v) != 0)
    fail(ps, "bad number ", buf);
  return v;
}

static long long log2_exact(Parser *ps, long long x) {
  long long r = 0;
  if (x <= 0 || (x & (x - 1)) != 0) {
    fail_eval(ps, "log2 of a value that is not a power of two");
    return 0;
  }
  while ((1LL << r) != x)
    r++;
  return r;
}

static long long parse_name(Parser *ps) {
  char name[MAX_NAME_LENGTH + 1];
  size_t n = 0;
  long long v = 0;
  const char *start = ps->p;
  while (isalnum((unsigned char)*ps->p) || *ps->p == '_')
    ps->p++;
  n = (size_t)(ps->p - start);
  if (n >= sizeof name) {
    ps->p = start;
    char what[32];
    snprintf(what, sizeof what, "%d characters", MAX_NAME_LENGTH);
    return fail(ps, "name longer than ", what), 0;
  }
  memcpy(name, start, n);
  name[n] = 0;
  if (strcmp(name, "log2") == 0) {
    if (!accept(ps, "("))
      return fail(ps, "expected ( after log2", NULL), 0;
    v = parse_ternary(ps);
    if (!accept(ps, ")"))
      return fail(ps, "expected )", NULL), 0;
    return log2_exact(ps, v);
  }
  if (!ps->skip && !ps->failed && ps->lookup(ps->ctx, name, &v, ps->err, ps->errlen) != 0) {
    ps->failed = 1;
    ps->erroff = (size_t)(start - ps->src);
  }
  return v;
}

/* PARSE one level deeper (a parenthesis, unary operator, operand or ?:
 * branch); 0 without parsing past EXPR_MAX_DEPTH (reported once) or after
 * an error, so that no input recurses without bound. */
static long long deeper(Parser *ps, long long (*parse)(Parser *)) {
  if (ps->failed)
    return 0;
  if (ps->depth == EXPR_MAX_DEPTH) {
    char what[32];
    snprintf(what, sizeof what, "%d deep", EXPR_MAX_DEPTH);
    fail(ps, "expression nested more than ", what);
    return 0;
  }
  ps->depth++;
  long long v = parse(ps);
  ps->depth--;
  return v;
}

static long long parse_unary_inner(Parser *ps);

static long long parse_unary(Parser *ps) {
  skip_space(ps);
  return deeper(ps, parse_unary_inner);
}

static long long parse_unary_inner(Parser *ps) {
  if (accept(ps, "-")) {
    long long v = parse_unary(ps);
    return v == -0x7fffffffffffffffLL - 1 ? (fail_eval(ps, "overflow"), 0) : -v;
  }
  if (accept(ps, "~"))
    return ~parse_unary(ps);
  if (accept(ps, "!"))
    return !parse_unary(ps);
  if (accept(ps, "(")) {
    long long v = parse_ternary(ps);
    if (!accept(ps, ")"))
      fail(ps, "expected )", NULL);
    return v;
  }
  if (isdigit((unsigned char)*ps->p))
    return parse_number(ps);
  if (isalpha((unsigned char)*ps->p) || *ps->p == '_')
    return parse_name(ps);
  fail(ps, *ps->p ? "unexpected " : "unexpected end of expression", *ps->p ? ps->p : NULL);
  return 0;
}

/* Binary operators, loosest first; each level's operators share a row. */
static const char *const levels[][4] = {
  {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
  {"<=", ">=", "<", ">"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
enum { NLEVELS = sizeof levels / sizeof levels[0] };

static long long shift(Parser *ps, int left, long long a, long long b) {
  if (b < 0 || b > 62 || a < 0)
    return fail_eval(ps, "shift out of range"), 0;
  if (!left)
    return a >> b;
  if (a > (0x7fffffffffffffffLL >> b))
    return fail_eval(ps, "overflow"), 0;
  return a << b;
}

static long long divide(Parser *ps, int mod, long long a, long long b) {
  if (b == 0)
    return fail_eval(ps, "division by zero"), 0;
  if (b == -1) /* LLONG_MIN / -1 overflows */
    return mod ? 0 : a == -0x7fffffffffffffffLL - 1 ? (fail_eval(ps, "overflow"), 0) : -a;
  return mod ? a % b : a / b;
}

static long long apply(Parser *ps, const char *op, long long a, long long b) {
  long long r = 0;
  int ovf = 0;
  if (!strcmp(op, "||")) return a || b;
  if (!strcmp(op, "&&")) return a && b;
  if (!strcmp(op, "|")) return a | b;
  if (!strcmp(op, "^")) return a ^ b;
  if (!strcmp(op, "&")) return a & b;
  if (!strcmp(op, "==")) return a == b;
  if (!strcmp(op, "!=")) return a != b;
  if (!strcmp(op, "<=")) return a <= b;
  if (!strcmp(op, ">=")) return a >= b;
  if (!strcmp(op, "<")) return a < b;
  if (!strcmp(op, ">")) return a > b;
  if (!strcmp(op, "<<") || !strcmp(op, ">>")) return shift(ps, op[0] == '<', a, b);
  if (!strcmp(op, "/") || !strcmp(op, "%")) return divide(ps, op[0] == '%', a, b);
  if (!strcmp(op, "+")) ovf = __builtin_add_overflow(a, b, &r);
  else if (!strcmp(op, "-")) ovf = __builtin_sub_overflow(a, b, &r);
  else ovf = __builtin_mul_overflow(a, b, &r);
  if (ovf)
    fail_eval(ps, "overflow");
  return r;
}

static long long parse_level(Parser *ps, int level) {
  if (level == NLEVELS)
    return parse_unary(ps);
  long long a = parse_level(ps, level + 1);
  for (;;) {
    const char *op = NULL;
    for (int i = 0; i < 4 && levels[level][i] && !op; i++)
      if (accept(ps, levels[level][i]))
        op = levels[level][i];
    if (!op || ps->failed)
      return a;
    const char *op_at = ps->p - strlen(op), *after;
    /* Short-circuit: the right side of a decided && or || is not evaluated. */
    int decided = (op[0] == '&' && op[1] == '&' && !a) || (op[0] == '|' && op[1] == '|' && a);
    ps->skip += decided;
    long long b = parse_level(ps, level + 1);
    ps->skip -= decided;
    after = ps->p;
    ps->p = op_at; /* an overflow or division by zero is reported at the operator */
    a = ps->skip ? 0 : apply(ps, op, a, b);
    ps->p = after;
  }
}

static long long parse_ternary(Parser *ps) {
  long long c = parse_level(ps, 0);
  if (!accept(ps, "?"))
    return c;
  ps->skip += !c;
  long long a = deeper(ps, parse_ternary);
  ps->skip -= !c;
  if (!accept(ps, ":"))
    return fail(ps, "expected : in ?:", NULL), 0;
  ps->skip += !!c;
  long long b = deeper(ps, parse_ternary);
  ps->skip -= !!c;
  return c ? a : b;
}

int expr_eval(const char *src, ExprLookup lookup, void *ctx, long long *out,
              char *err, size_t errlen, size_t *erroff) {
  Parser ps = {src, src, lookup, ctx, err, errlen, 0, 0, 0, 0};
  long long v = parse_ternary(&ps);
  skip_space(&ps);
  if (!ps.failed && *ps.p)
    fail(&ps, "unexpected ", ps.p);
  if (ps.failed) {
    if (erroff)
      *erroff = ps.erroff;
    return -1;
  }
  *out = v;
  return 0;
}
