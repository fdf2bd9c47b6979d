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
  char *comment;
} LexLine;

/* Splits LINE. Returns 0, or -1 with a message (no file:line) in err. */
int lex_line(const char *line, LexLine *out, char *err, size_t errlen);
void lex_free(LexLine *l);

/* Resolves a name inside an expression: 0 with *out set, or -1 with err. */
typedef int (*ExprLookup)(void *ctx, const char *name, long long *out,
                          char *err, size_t errlen);

/* Evaluates SRC (C operators on 64-bit integers, names, log2()). */
int expr_eval(const char *src, ExprLookup lookup, void *ctx, long long *out,
              char *err, size_t errlen);

/* Parses a whole word as an integer (decimal or 0x hex); 0 on success. */
int parse_int(const char *s, long long *out);

#endif
