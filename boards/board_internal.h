/*
 * board_internal.h: the pieces of the configuration reader shared between
 * its files: the line splitter (board_lex.c) and the expression evaluator
 * (board_expr.c). Not for use outside boards/.
 */
#ifndef BOARD_INTERNAL_H
#define BOARD_INTERNAL_H

#include <stddef.h>

/* Enough for the longest entry, "region NAME BASE SIZE DESCRIPTION", and a
 * few expression words. */
#define LEX_MAX_WORDS 32

/* One line split into words with Tcl's quoting. comment is the text of a
 * whole-line comment (after "#" and one space), NULL otherwise. */
typedef struct {
  int n;
  char *word[LEX_MAX_WORDS];
  int col[LEX_MAX_WORDS]; /* 1-based column where each word's text starts */
  char *comment;
} LexLine;

/* Splits LINE. Returns 0, or -1 with a message (no file:line) in err. */
int lex_line(const char *line, LexLine *out, char *err, size_t errlen);
void lex_free(LexLine *l);

/* Resolves a name inside an expression: 0 with *out set, or -1 with err. */
typedef int (*ExprLookup)(void *ctx, const char *name, long long *out,
                          char *err, size_t errlen);

/* Nesting of parentheses, unary operators and ?: branches an expression may
 * have (each is one level; a bare number or name is one too). */
#define EXPR_MAX_DEPTH 256

/* The longest key, CSR or region name (longer ones are refused, not cut). */
#define MAX_NAME_LENGTH 127

/* Evaluates SRC (C operators on 64-bit integers, names, log2()). On error
 * returns -1 with the message in err and, when erroff is not NULL, the
 * offset into SRC where it was found. */
int expr_eval(const char *src, ExprLookup lookup, void *ctx, long long *out,
              char *err, size_t errlen, size_t *erroff);

/* Parses a whole word as an integer (decimal or 0x hex); 0 on success. */
int parse_int(const char *s, long long *out);

#endif
