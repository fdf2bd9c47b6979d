/*
 * board_lex.c: split a configuration line into words.
 *
 * Words follow Tcl's list quoting so that values such as {byron coleridge}
 * mean the same to Tcl and to C: a bare word, a "quoted" string (\" and \\
 * are the only escapes) or a {braced} string (nested braces, no escapes).
 * A '#' where a word would start begins a comment.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_internal.h"

static char *copy_range(const char *s, size_t n) {
  char *r = malloc(n + 1);
  if (!r) { perror("malloc"); exit(1); }
  memcpy(r, s, n);
  r[n] = 0;
  return r;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Scans a braced word starting at *p (on the '{'); returns its content. */
static char *scan_braced(const char **p, char *err, size_t errlen) {
  const char *s = *p + 1;
  int depth = 1;
  const char *q = s;
  for (; *q && depth > 0; q++)
    depth += (*q == '{') - (*q == '}');
  if (depth > 0) {
    snprintf(err, errlen, "missing close-brace");
    return NULL;
  }
  *p = q;
  return copy_range(s, (size_t)(q - 1 - s));
}

/* Scans a quoted word starting at *p (on the '"'); returns its content. */
static char *scan_quoted(const char **p, char *err, size_t errlen) {
  const char *q = *p + 1;
  size_t cap = strlen(q) + 1, n = 0;
  char *r = malloc(cap);
  if (!r) { perror("malloc"); exit(1); }
  for (; *q && *q != '"'; q++) {
    if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
      q++;
    r[n++] = *q;
  }
  if (*q != '"') {
    free(r);
    snprintf(err, errlen, "missing close-quote");
    return NULL;
  }
  r[n] = 0;
  *p = q + 1;
  return r;
}

static char *scan_bare(const char **p) {
  const char *s = *p, *q = s;
  while (*q && !is_space(*q))
    q++;
  *p = q;
  return copy_range(s, (size_t)(q - s));
}

static int ends_word(char c) { return c == 0 || is_space(c); }

int lex_line(const char *line, LexLine *out, char *err, size_t errlen) {
  const char *p = line;
  memset(out, 0, sizeof *out);
  while (is_space(*p))
    p++;
  if (*p == '#') {
    p++;
    if (*p == ' ')
      p++;
    out->comment = copy_range(p, strcspn(p, "\r\n"));
    return 0;
  }
  while (*p && *p != '#') {
    char *w;
    if (out->n == LEX_MAX_WORDS) {
      snprintf(err, errlen, "too many words (at most %d)", LEX_MAX_WORDS);
      return lex_free(out), -1;
    }
    out->col[out->n] = (int)(p - line) + 1 + (*p == '{' || *p == '"');
    if (*p == '{')
      w = scan_braced(&p, err, errlen);
    else if (*p == '"')
      w = scan_quoted(&p, err, errlen);
    else
      w = scan_bare(&p);
    if (!w)
      return lex_free(out), -1;
    out->word[out->n++] = w;
    if (!ends_word(*p)) {
      snprintf(err, errlen, "extra characters after close-quote or close-brace");
      return lex_free(out), -1;
    }
    while (is_space(*p))
      p++;
  }
  return 0;
}

void lex_free(LexLine *l) {
  for (int i = 0; i < l->n; i++)
    free(l->word[i]);
  free(l->comment);
  memset(l, 0, sizeof *l);
}
