// lex.c: turns a file's text into preprocessing tokens.
//
// Comments become white space, backslash-newlines are joined (the newlines
// are put back after the logical line so that line numbers stay right), and
// every token records its file, line and column for diagnostics.
#include "op2c.h"

#include <ctype.h>
#include <string.h>

static int file_count;
long lex_tokens_made;
long lex_max_tokens = OP2C_MAX_TOKENS;

// Every token made counts against lex_max_tokens (macros and #include can
// make many from a small input): the lexer stops at the token past it, the
// preprocessor after each macro expansion, at the call.
static void count_token(const Token *t, bool check) {
  if (++lex_tokens_made > lex_max_tokens && check)
    fatal_tok(t, "more than %ld tokens in the translation unit (sources, headers and macro expansions)", lex_max_tokens);
}

// Joins backslash-newline continuations in place.
static void join_continuations(char *p) {
  char *out = p;
  int pending = 0; // newlines removed from the current logical line
  while (*p) {
    if (p[0] == '\\' && p[1] == '\n') {
      p += 2;
      pending++;
    } else if (p[0] == '\\' && p[1] == '\r' && p[2] == '\n') {
      p += 3;
      pending++;
    } else if (*p == '\n') {
      *out++ = *p++;
      for (; pending > 0; pending--)
        *out++ = '\n';
    } else {
      *out++ = *p++;
    }
  }
  for (; pending > 0; pending--)
    *out++ = '\n';
  *out = '\0';
}

File *new_file(const char *name, char *contents, size_t len) {
  File *f = xcalloc(1, sizeof(File));
  f->name = xstrdup(name);
  f->contents = contents;
  f->has_nul = strlen(contents) < len;
  join_continuations(f->contents);
  f->len = strlen(f->contents);
  f->index = file_count++;
  return f;
}

bool tok_equal(const Token *tok, const char *s) {
  return tok->kind != TK_EOF && (int)strlen(s) == tok->len &&
         memcmp(tok->loc, s, (size_t)tok->len) == 0;
}

char *tok_text(const Token *tok) { return xstrndup(tok->loc, (size_t)tok->len); }

Token *tok_copy(const Token *tok) {
  Token *t = xcalloc(1, sizeof(Token));
  *t = *tok;
  t->next = NULL;
  count_token(t, false);
  return t;
}

// Longest punctuators first.
static const char *punctuators[] = {
    "<<=", ">>=", "...", "->*", "==", "!=", "<=", ">=", "->", "+=", "-=", "*=",
    "/=",  "++",  "--",  "%=",  "&=", "|=", "^=", "&&", "||", "<<", ">>", "##",
    "::",  ".*",
};

static int punct_len(const char *p) {
  for (size_t i = 0; i < sizeof(punctuators) / sizeof(*punctuators); i++) {
    size_t n = strlen(punctuators[i]);
    if (strncmp(p, punctuators[i], n) == 0)
      return (int)n;
  }
  return ispunct((unsigned char)*p) ? 1 : 0;
}

static bool is_ident1(char c) { return isalpha((unsigned char)c) || c == '_' || c == '$'; }
static bool is_ident2(char c) { return is_ident1(c) || isdigit((unsigned char)c); }

typedef struct {
  File *file;
  char *line_start;
  int line;
} Lexer;

static Token *new_token(Lexer *lx, TokenKind kind, char *start, char *end) {
  Token *t = xcalloc(1, sizeof(Token));
  t->kind = kind;
  t->loc = start;
  t->len = (int)(end - start);
  t->file = lx->file;
  t->line = lx->line;
  t->col = (int)(start - lx->line_start) + 1;
  count_token(t, true);
  return t;
}

// Reads the escape at p (after the backslash) into *c; returns the end.
// Hex escapes take any number of digits: the value stops growing past
// 0xffffff (it only has to be known to be too large for a char).
static char *read_escape(char *p, int *c) {
  if ('0' <= *p && *p <= '7') {
    int v = *p++ - '0';
    for (int i = 0; i < 2 && '0' <= *p && *p <= '7'; i++)
      v = v * 8 + (*p++ - '0');
    *c = v;
    return p;
  }
  if (*p == 'x') {
    p++;
    int v = 0;
    while (isxdigit((unsigned char)*p)) {
      int d = isdigit((unsigned char)*p) ? *p - '0' : (tolower((unsigned char)*p) - 'a' + 10);
      v = v > 0xffffff ? v : v * 16 + d;
      p++;
    }
    *c = v;
    return p;
  }
  switch (*p) {
  case 'a': *c = '\a'; break;
  case 'b': *c = '\b'; break;
  case 't': *c = '\t'; break;
  case 'n': *c = '\n'; break;
  case 'v': *c = '\v'; break;
  case 'f': *c = '\f'; break;
  case 'r': *c = '\r'; break;
  default:  *c = *p; break;
  }
  return p + 1;
}

// Reads a quoted literal starting at the quote q; returns the end or NULL if
// it is unterminated.
static char *literal_end(char *q) {
  char quote = *q;
  char *p = q + 1;
  for (; *p != quote; p++) {
    if (*p == '\n' || *p == '\0')
      return NULL;
    if (*p == '\\' && p[1])
      p++;
  }
  return p + 1;
}

static Token *read_string(Lexer *lx, char *start, char *quote) {
  char *end = literal_end(quote);
  if (!end) {
    Token *t = new_token(lx, TK_STR, start, quote + 1);
    fatal_tok(t, "unterminated string literal");
  }
  Token *t = new_token(lx, TK_STR, start, end);
  char *buf = xcalloc(1, (size_t)(end - quote));
  int n = 0;
  for (char *p = quote + 1; p < end - 1;) {
    int c;
    if (*p == '\\')
      p = read_escape(p + 1, &c);
    else
      c = (unsigned char)*p++;
    // Wide strings (L"", u"", U"") hold larger values; op2c only reads narrow ones.
    if (c > 0xff && (quote == start || quote - start == 2))
      fatal_tok(t, "escape sequence out of range in string literal");
    buf[n++] = (char)c;
  }
  t->str = buf;
  return t;
}

static char *string_prefix_end(char *p) {
  static const char *prefixes[] = {"u8\"", "u\"", "U\"", "L\"", "u8'", "u'", "U'", "L'"};
  for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
    size_t n = strlen(prefixes[i]);
    if (strncmp(p, prefixes[i], n) == 0)
      return p + n - 1;
  }
  return NULL;
}

Token *tokenize(File *file) {
  Lexer lx = {.file = file, .line_start = file->contents, .line = 1};
  Token head = {0}, *cur = &head;
  bool at_bol = true, has_space = false;
  char *p = file->contents;

  while (*p) {
    if (*p == '\n') {
      p++;
      lx.line++;
      lx.line_start = p;
      at_bol = true;
      has_space = false;
      continue;
    }
    if (isspace((unsigned char)*p)) {
      p++;
      has_space = true;
      continue;
    }
    if (p[0] == '/' && p[1] == '/') {
      while (*p && *p != '\n')
        p++;
      has_space = true;
      continue;
    }
    if (p[0] == '/' && p[1] == '*') {
      char *q = strstr(p + 2, "*/");
      if (!q) {
        Token *t = new_token(&lx, TK_PUNCT, p, p + 2);
        fatal_tok(t, "unterminated comment");
      }
      for (char *r = p; r < q; r++)
        if (*r == '\n') {
          lx.line++;
          lx.line_start = r + 1;
        }
      p = q + 2;
      has_space = true;
      continue;
    }

    Token *t;
    char *q;
    if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
      q = p + 1;
      for (;;) {
        if (q[0] && q[1] && strchr("eEpP", q[0]) && strchr("+-", q[1]))
          q += 2;
        else if (is_ident2(*q) || *q == '.')
          q++;
        else if (*q == '\'' && is_ident2(q[1])) // C++14 digit separator
          q++;
        else
          break;
      }
      t = new_token(&lx, TK_NUM, p, q);
    } else if ((q = string_prefix_end(p)) != NULL) {
      t = *q == '"' ? read_string(&lx, p, q) : NULL;
      if (!t) {
        char *end = literal_end(q);
        if (!end)
          fatal_tok(new_token(&lx, TK_CHAR, p, q + 1), "unterminated character literal");
        t = new_token(&lx, TK_CHAR, p, end);
      }
    } else if (*p == '"') {
      t = read_string(&lx, p, p);
    } else if (*p == '\'') {
      char *end = literal_end(p);
      if (!end)
        fatal_tok(new_token(&lx, TK_CHAR, p, p + 1), "unterminated character literal");
      t = new_token(&lx, TK_CHAR, p, end);
    } else if (is_ident1(*p)) {
      q = p + 1;
      while (is_ident2(*q))
        q++;
      t = new_token(&lx, TK_IDENT, p, q);
    } else {
      int n = punct_len(p);
      if (n == 0) {
        t = new_token(&lx, TK_PUNCT, p, p + 1);
        fatal_tok(t, "stray '\\%o' in program", (unsigned char)*p);
      }
      t = new_token(&lx, TK_PUNCT, p, p + n);
    }
    t->at_bol = at_bol;
    t->has_space = has_space;
    at_bol = has_space = false;
    p = t->loc + t->len;
    cur = cur->next = t;
  }
  if (file->has_nul) // the text stops at the first NUL: not silently
    fatal_tok(new_token(&lx, TK_PUNCT, p, p + 1), "stray '\\0' in program");
  Token *eof = new_token(&lx, TK_EOF, p, p);
  eof->at_bol = true;
  cur->next = eof;
  return head.next;
}
