/*
 * board_config.c: load a configuration: includes, declarations, overrides,
 * then derived keys and assertions (format: boards/README.md).
 *
 * Loading stops at the first error, reported as "file:line: message". A
 * file whose first entry is an include is a configuration and may only
 * override declared keys; any other file declares them. Derived keys are
 * evaluated once everything is read, so overrides reach them.
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board_config.h"
#include "board_internal.h"

#ifndef BOARDS_DIR
#define BOARDS_DIR "boards"
#endif
#define MAX_INCLUDE_DEPTH 16
/* Limits on hostile input (docs/limits.md, "boardgen"). */
#define MAX_FILE_BYTES (1 << 20)     /* one configuration file */
#define MAX_ENTRIES 10000            /* keys, CSRs and regions of a configuration */
#define MAX_DERIVED_DEPTH 100        /* derived keys evaluated inside one another */

/* Where an entry was written, for error messages. */
typedef struct {
  char *file;
  int line;
  int col; /* of the entry's (first) expression; 0 when it has none */
} Where;

typedef struct {
  BoardKey pub;
  Where at;
  int state; /* derived keys: 0 pending, 1 evaluating, 2 done */
} Key;

typedef struct {
  BoardRegion pub;
  char *base_expr, *size_expr;
  Where at;
  int size_col; /* at.col is the base's */
} Region;

typedef struct {
  char *expr;
  Where at;
} Assert;

struct BoardConfig {
  char *name;
  Key *keys;
  size_t nkeys, capkeys;
  size_t *index, capindex; /* open addressing: key number + 1, 0 empty */
  BoardCsr *csrs;
  size_t ncsrs, capcsrs;
  Region *regions;
  size_t nregions, capregions;
  Assert *asserts;
  size_t nasserts, capasserts;
  char **strings; /* everything the public structs point into */
  size_t nstrings, capstrings;
};

/* Loader state: the configuration being built and the error buffer. */
typedef struct {
  BoardConfig *cfg;
  const char *dir;
  char *err;
  size_t errlen;
  char *stack[MAX_INCLUDE_DEPTH]; /* real paths of the files being read */
  int depth;
  int eval_depth; /* derived keys being evaluated */
} Loader;

/* ------------------------------------------------------------------ memory */

static void *grow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap)
    return p;
  *cap = *cap ? *cap * 2 : 16;
  p = realloc(p, *cap * size);
  if (!p) { perror("realloc"); exit(1); }
  return p;
}

/* Copies S into the configuration's string pool. */
static char *keep(BoardConfig *cfg, const char *s) {
  char *r = strdup(s ? s : "");
  if (!r) { perror("strdup"); exit(1); }
  cfg->strings = grow(cfg->strings, &cfg->capstrings, cfg->nstrings, sizeof *cfg->strings);
  cfg->strings[cfg->nstrings++] = r;
  return r;
}

static int errorf(Loader *ld, const Where *at, const char *fmt, ...) {
  va_list ap;
  int n = !at ? 0
          : at->col ? snprintf(ld->err, ld->errlen, "%s:%d:%d: error: ", at->file, at->line, at->col)
                    : snprintf(ld->err, ld->errlen, "%s:%d: ", at->file, at->line);
  if (n < 0 || (size_t)n >= ld->errlen)
    n = 0;
  va_start(ap, fmt);
  vsnprintf(ld->err + n, ld->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* ------------------------------------------------------------------ lookups */

/* Keys are found through a hash index, so that evaluating many names
 * against many keys stays linear. */
static size_t hash(const char *s) {
  size_t h = 5381;
  for (; *s; s++)
    h = h * 33 + (unsigned char)*s;
  return h;
}

static Key *find_key(const BoardConfig *cfg, const char *name) {
  if (!cfg->capindex)
    return NULL;
  for (size_t i = hash(name) & (cfg->capindex - 1);; i = (i + 1) & (cfg->capindex - 1)) {
    size_t k = cfg->index[i];
    if (!k)
      return NULL;
    if (strcmp(cfg->keys[k - 1].pub.name, name) == 0)
      return &cfg->keys[k - 1];
  }
}

/* Adds the last key to the index, rebuilding it at half full. */
static void index_key(BoardConfig *cfg) {
  if (2 * cfg->nkeys > cfg->capindex) {
    free(cfg->index);
    cfg->capindex = cfg->capindex ? 2 * cfg->capindex : 64;
    cfg->index = calloc(cfg->capindex, sizeof *cfg->index);
    if (!cfg->index) { perror("calloc"); exit(1); }
    for (size_t k = 0; k + 1 < cfg->nkeys; k++) {
      size_t i = hash(cfg->keys[k].pub.name) & (cfg->capindex - 1);
      while (cfg->index[i])
        i = (i + 1) & (cfg->capindex - 1);
      cfg->index[i] = k + 1;
    }
  }
  size_t i = hash(cfg->keys[cfg->nkeys - 1].pub.name) & (cfg->capindex - 1);
  while (cfg->index[i])
    i = (i + 1) & (cfg->capindex - 1);
  cfg->index[i] = cfg->nkeys;
}

static void set_value(BoardConfig *cfg, Key *k, const char *text, int derived, Where at) {
  k->pub.text = keep(cfg, text);
  k->pub.derived = derived;
  k->pub.is_int = !derived && parse_int(text, &k->pub.value) == 0;
  if (!k->pub.is_int)
    k->pub.value = 0;
  k->state = 0;
  k->at = at;
}

/* ------------------------------------------------------------------ entries */

static int is_name(const char *s) {
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
    return 0;
  for (; *s; s++)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  return 1;
}

/* A name longer than an expression can name, or than the views print
 * whole (boards/board_emit.c), is an error rather than cut. */
static int long_name(Loader *ld, const Where *at, const char *what, const char *name) {
  size_t n = strlen(name);
  if (n <= MAX_NAME_LENGTH)
    return 0;
  return errorf(ld, at, "error: %s name of %zu characters, longer than %d", what, n, MAX_NAME_LENGTH);
}

static const char *const reserved[] = {"include", "assert", "csr", "region", "log2"};

static int is_reserved(const char *s) {
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
    if (strcmp(s, reserved[i]) == 0)
      return 1;
  return 0;
}

/* Joins words [from, n) with spaces: the text of an expression. */
static char *join_words(const LexLine *l, int from) {
  size_t len = 1;
  for (int i = from; i < l->n; i++)
    len += strlen(l->word[i]) + 1;
  char *r = calloc(1, len);
  if (!r) { perror("calloc"); exit(1); }
  for (int i = from; i < l->n; i++) {
    if (i > from)
      strcat(r, " ");
    strcat(r, l->word[i]);
  }
  return r;
}

static int entry_key(Loader *ld, const LexLine *l, int declaring, const char *desc, Where at) {
  const char *name = l->word[0];
  int derived = l->n >= 3 && strcmp(l->word[1], "=") == 0;
  if (!is_name(name) || is_reserved(name))
    return errorf(ld, &at, "bad key name \"%s\"", name);
  if (long_name(ld, &at, "key", name))
    return -1;
  if (!derived && l->n != 2)
    return errorf(ld, &at, "expected \"%s value\" or \"%s = expression\"", name, name);
  Key *k = find_key(ld->cfg, name);
  if (declaring && k)
    return errorf(ld, &at, "key \"%s\" already declared at %s:%d", name, k->at.file, k->at.line);
  if (!declaring && !k)
    return errorf(ld, &at, "unknown key \"%s\"", name);
  if (!k) {
    BoardConfig *cfg = ld->cfg;
    cfg->keys = grow(cfg->keys, &cfg->capkeys, cfg->nkeys, sizeof *cfg->keys);
    k = &cfg->keys[cfg->nkeys++];
    memset(k, 0, sizeof *k);
    k->pub.name = keep(cfg, name);
    k->pub.desc = keep(cfg, desc);
    index_key(cfg);
  }
  char *text = derived ? join_words(l, 2) : NULL;
  at.col = derived ? l->col[2] : 0;
  set_value(ld->cfg, k, derived ? text : l->word[1], derived, at);
  free(text);
  return 0;
}

static int entry_csr(Loader *ld, const LexLine *l, int declaring, Where at) {
  BoardConfig *cfg = ld->cfg;
  long long num;
  if (l->n != 5)
    return errorf(ld, &at, "expected \"csr NAME NUMBER ACCESS DESCRIPTION\"");
  if (!is_name(l->word[1]))
    return errorf(ld, &at, "bad CSR name \"%s\"", l->word[1]);
  if (long_name(ld, &at, "CSR", l->word[1]))
    return -1;
  if (parse_int(l->word[2], &num) != 0 || num > 0xfff)
    return errorf(ld, &at, "bad CSR number \"%s\" (0 to 0xfff)", l->word[2]);
  if (strcmp(l->word[3], "R") && strcmp(l->word[3], "W") && strcmp(l->word[3], "RW"))
    return errorf(ld, &at, "bad CSR access \"%s\" (R, W or RW)", l->word[3]);
  BoardCsr *c = NULL;
  for (size_t i = 0; i < cfg->ncsrs && !c; i++)
    if (strcmp(cfg->csrs[i].name, l->word[1]) == 0)
      c = &cfg->csrs[i];
  if (declaring && c)
    return errorf(ld, &at, "CSR \"%s\" already declared", l->word[1]);
  if (!declaring && !c)
    return errorf(ld, &at, "unknown CSR \"%s\"", l->word[1]);
  if (!c) {
    cfg->csrs = grow(cfg->csrs, &cfg->capcsrs, cfg->ncsrs, sizeof *cfg->csrs);
    c = &cfg->csrs[cfg->ncsrs++];
    c->name = keep(cfg, l->word[1]);
  }
  c->number = (unsigned)num;
  c->access = keep(cfg, l->word[3]);
  c->desc = keep(cfg, l->word[4]);
  return 0;
}

static int entry_region(Loader *ld, const LexLine *l, int declaring, Where at) {
  BoardConfig *cfg = ld->cfg;
  if (l->n != 5)
    return errorf(ld, &at, "expected \"region NAME BASE SIZE DESCRIPTION\"");
  if (!is_name(l->word[1]))
    return errorf(ld, &at, "bad region name \"%s\"", l->word[1]);
  if (long_name(ld, &at, "region", l->word[1]))
    return -1;
  Region *r = NULL;
  for (size_t i = 0; i < cfg->nregions && !r; i++)
    if (strcmp(cfg->regions[i].pub.name, l->word[1]) == 0)
      r = &cfg->regions[i];
  if (declaring && r)
    return errorf(ld, &at, "region \"%s\" already declared", l->word[1]);
  if (!declaring && !r)
    return errorf(ld, &at, "unknown region \"%s\"", l->word[1]);
  if (!r) {
    cfg->regions = grow(cfg->regions, &cfg->capregions, cfg->nregions, sizeof *cfg->regions);
    r = &cfg->regions[cfg->nregions++];
    memset(r, 0, sizeof *r);
    r->pub.name = keep(cfg, l->word[1]);
  }
  r->base_expr = keep(cfg, l->word[2]);
  r->size_expr = keep(cfg, l->word[3]);
  r->pub.desc = keep(cfg, l->word[4]);
  r->at = at;
  r->at.col = l->col[2];
  r->size_col = l->col[3];
  return 0;
}

static int entry_assert(Loader *ld, const LexLine *l, Where at) {
  BoardConfig *cfg = ld->cfg;
  if (l->n < 2)
    return errorf(ld, &at, "expected \"assert expression\"");
  cfg->asserts = grow(cfg->asserts, &cfg->capasserts, cfg->nasserts, sizeof *cfg->asserts);
  char *text = join_words(l, 1);
  cfg->asserts[cfg->nasserts].expr = keep(cfg, text);
  at.col = l->col[1];
  cfg->asserts[cfg->nasserts++].at = at;
  free(text);
  return 0;
}

/* ------------------------------------------------------------------ files */

static int load_file(Loader *ld, const char *path, const Where *from);

/* A configuration is named by a path when it has a slash or ends in .cfg. */
static int is_path(const char *name) {
  size_t n = strlen(name);
  return strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".cfg") == 0);
}

/* Resolves an include: a name is looked up beside the including file, then
 * in the boards directory; a path is relative to the including file. */
static char *include_path(Loader *ld, const char *name, const char *from_file) {
  int path = is_path(name);
  const char *slash = strrchr(from_file, '/');
  size_t dirlen = slash ? (size_t)(slash - from_file) : 1;
  const char *dir = slash ? from_file : ".";
  size_t n = dirlen + strlen(name) + 8;
  char *p = malloc(n);
  if (!p) { perror("malloc"); exit(1); }
  if (name[0] == '/')
    snprintf(p, n, "%s", name);
  else
    snprintf(p, n, "%.*s/%s%s", (int)dirlen, dir, name, path ? "" : ".cfg");
  if (path || access(p, R_OK) == 0)
    return p;
  free(p);
  n = strlen(ld->dir) + strlen(name) + 8;
  p = malloc(n);
  if (!p) { perror("malloc"); exit(1); }
  snprintf(p, n, "%s/%s.cfg", ld->dir, name);
  return p;
}

static int entry_include(Loader *ld, const LexLine *l, Where at) {
  if (l->n != 2)
    return errorf(ld, &at, "expected \"include NAME\"");
  char *p = include_path(ld, l->word[1], at.file);
  int rc = !is_path(l->word[1]) && access(p, R_OK) != 0
               ? errorf(ld, &at, "unknown configuration \"%s\"", l->word[1])
               : load_file(ld, p, &at);
  free(p);
  return rc;
}

static int entry(Loader *ld, const LexLine *l, int declaring, const char *desc, Where at) {
  const char *w = l->word[0];
  const BoardConfig *cfg = ld->cfg;
  if (cfg->nkeys + cfg->ncsrs + cfg->nregions + cfg->nasserts >= MAX_ENTRIES)
    return errorf(ld, &at, "error: more than %d keys, CSRs, regions and assertions in one configuration", MAX_ENTRIES);
  if (!strcmp(w, "include"))
    return entry_include(ld, l, at);
  if (!strcmp(w, "assert"))
    return entry_assert(ld, l, at);
  if (!strcmp(w, "csr"))
    return entry_csr(ld, l, declaring, at);
  if (!strcmp(w, "region"))
    return entry_region(ld, l, declaring, at);
  return entry_key(ld, l, declaring, desc, at);
}

/* The pending description: the comment lines before an entry. */
typedef struct {
  char *s;
  size_t len, cap;
} Desc;

/* Appends a comment line to the pending description, in time linear in
 * the line (a file of many comment lines used to take quadratic time). */
static void add_comment(Desc *d, const char *text) {
  size_t n = strlen(text), need = d->len + n + 2;
  if (need > d->cap) {
    d->cap = need > 2 * d->cap ? need : 2 * d->cap;
    d->s = realloc(d->s, d->cap);
    if (!d->s) { perror("realloc"); exit(1); }
  }
  if (d->len)
    d->s[d->len++] = ' ';
  memcpy(d->s + d->len, text, n + 1);
  d->len += n;
}

static void clear_desc(Desc *d) {
  d->len = 0;
  if (d->s)
    d->s[0] = 0;
}

static int read_lines(Loader *ld, FILE *f, const char *file) {
  char *line = NULL;
  Desc desc = {NULL, 0, 0};
  size_t cap = 0;
  int lineno = 0, rc = 0, declaring = -1, entries = 0;
  ssize_t len;
  long long total = 0;
  while (rc == 0 && (len = getline(&line, &cap, f)) >= 0) {
    /* Files whose size stat cannot tell (in /proc) are bounded here. */
    if ((total += len) > MAX_FILE_BYTES) {
      rc = errorf(ld, NULL, "%s: error: more than %d bytes, the limit for a configuration file", file, MAX_FILE_BYTES);
      break;
    }
    LexLine l;
    char msg[256];
    Where at = {(char *)file, ++lineno, 0};
    if (lex_line(line, &l, msg, sizeof msg) != 0) {
      rc = errorf(ld, &at, "%s", msg);
      break;
    }
    if (l.comment)
      add_comment(&desc, l.comment);
    else if (l.n == 0) {
      clear_desc(&desc);
    } else {
      if (declaring < 0)
        declaring = strcmp(l.word[0], "include") != 0;
      rc = entry(ld, &l, declaring, desc.len ? desc.s : NULL, at);
      entries++;
      clear_desc(&desc);
    }
    lex_free(&l);
  }
  free(line);
  free(desc.s);
  if (rc == 0 && entries == 0)
    rc = errorf(ld, NULL, "%s: error: no entries (an empty configuration)", file);
  return rc;
}

/* Why PATH cannot be a configuration file, or NULL. Checked before it is
 * opened: opening a FIFO would wait for a writer. */
static const char *not_config_file(const char *path, char *buf, size_t len) {
  struct stat st;
  if (stat(path, &st) != 0)
    return NULL; /* fopen says why */
  if (S_ISDIR(st.st_mode))
    return "it is a directory";
  if (!S_ISREG(st.st_mode))
    return "not a regular file";
  if (st.st_size > MAX_FILE_BYTES) {
    snprintf(buf, len, "the file is %lld bytes, over the %d-byte limit for a configuration file",
             (long long)st.st_size, MAX_FILE_BYTES);
    return buf;
  }
  return NULL;
}

static int load_file(Loader *ld, const char *path, const Where *from) {
  char real[PATH_MAX], why_buf[128];
  const char *why = not_config_file(path, why_buf, sizeof why_buf);
  if (why) {
    return from ? errorf(ld, from, "error: cannot include %s: %s", path, why)
                : errorf(ld, NULL, "%s: error: %s", path, why);
  }
  FILE *f = fopen(path, "r");
  if (!f)
    return errorf(ld, from, "cannot read configuration %s", path);
  if (!realpath(path, real))
    snprintf(real, sizeof real, "%s", path);
  for (int i = 0; i < ld->depth; i++)
    if (strcmp(ld->stack[i], real) == 0) {
      fclose(f);
      return errorf(ld, from, "include loop: %s includes itself", path);
    }
  if (ld->depth == MAX_INCLUDE_DEPTH) {
    fclose(f);
    return errorf(ld, from, "includes nested more than %d deep", MAX_INCLUDE_DEPTH);
  }
  ld->stack[ld->depth++] = real;
  int rc = read_lines(ld, f, keep(ld->cfg, path));
  ld->depth--;
  fclose(f);
  return rc;
}

/* ------------------------------------------------------------------ evaluation */

static int eval_key(Loader *ld, Key *k);

static int lookup(void *ctx, const char *name, long long *out, char *err, size_t errlen) {
  Loader *ld = ctx;
  Key *k = find_key(ld->cfg, name);
  if (!k)
    return snprintf(err, errlen, "undefined name \"%s\"", name), -1;
  if (k->pub.derived && eval_key(ld, k) != 0)
    return -1; /* the inner key's message is already in err */
  if (!k->pub.is_int)
    return snprintf(err, errlen, "key \"%s\" is not an integer", name), -1;
  *out = k->pub.value;
  return 0;
}

/* Evaluates EXPR; on failure the message names AT unless an inner derived
 * key already reported its own location. */
static int eval_at(Loader *ld, const char *expr, const Where *at, int col, const char *what, long long *out) {
  char msg[512];
  size_t off = 0;
  msg[0] = 0;
  if (expr_eval(expr, lookup, ld, out, msg, sizeof msg, &off) == 0)
    return 0;
  if (ld->err[0])
    return -1;
  /* The column is exact when the expression's words are one space apart. */
  Where w = *at;
  w.col = col > 0 && off < 100000 ? col + (int)off : 0;
  return errorf(ld, &w, "%s: %s", what, msg);
}

static int eval_key(Loader *ld, Key *k) {
  if (k->state == 2)
    return 0;
  if (k->state == 1)
    return errorf(ld, &k->at, "derived key \"%s\" depends on itself", k->pub.name);
  if (ld->eval_depth == MAX_DERIVED_DEPTH)
    return errorf(ld, &k->at, "derived key \"%s\" depends on derived keys nested more than %d deep", k->pub.name,
                  MAX_DERIVED_DEPTH);
  k->state = 1;
  ld->eval_depth++;
  int rc = eval_at(ld, k->pub.text, &k->at, k->at.col, k->pub.name, &k->pub.value);
  ld->eval_depth--;
  if (rc != 0)
    return -1;
  k->pub.is_int = 1;
  k->state = 2;
  return 0;
}

static int evaluate(Loader *ld) {
  BoardConfig *cfg = ld->cfg;
  long long v;
  ld->err[0] = 0;
  for (size_t i = 0; i < cfg->nkeys; i++)
    if (cfg->keys[i].pub.derived && eval_key(ld, &cfg->keys[i]) != 0)
      return -1;
  for (size_t i = 0; i < cfg->nregions; i++) {
    Region *r = &cfg->regions[i];
    if (eval_at(ld, r->base_expr, &r->at, r->at.col, r->pub.name, &r->pub.base) != 0 ||
        eval_at(ld, r->size_expr, &r->at, r->size_col, r->pub.name, &r->pub.size) != 0)
      return -1;
    Where at = r->at;
    if (r->pub.base < 0)
      return errorf(ld, &at, "region %s: base %lld is negative", r->pub.name, r->pub.base);
    at.col = r->size_col;
    if (r->pub.size < 0)
      return errorf(ld, &at, "region %s: size %lld is negative", r->pub.name, r->pub.size);
    if (r->pub.base > 0xffffffffLL || r->pub.size > 0x100000000LL - r->pub.base)
      return errorf(ld, &at, "region %s [0x%llx, +0x%llx) extends past the 32-bit address space", r->pub.name,
                    (unsigned long long)r->pub.base, (unsigned long long)r->pub.size);
  }
  for (size_t i = 0; i < cfg->nasserts; i++) {
    Assert *a = &cfg->asserts[i];
    if (eval_at(ld, a->expr, &a->at, a->at.col, "assert", &v) != 0)
      return -1;
    if (!v)
      return errorf(ld, &a->at, "assertion failed: %s", a->expr);
  }
  return 0;
}

/* ------------------------------------------------------------------ API */

const char *board_config_default_dir(void) {
  const char *env = getenv("POETS_BOARDS_DIR");
  return env && *env ? env : BOARDS_DIR;
}

BoardConfig *board_config_load_dir(const char *dir, const char *name, char *err, size_t errlen) {
  Loader ld = {0};
  char path[PATH_MAX];
  ld.dir = dir ? dir : board_config_default_dir();
  ld.err = err;
  ld.errlen = errlen;
  err[0] = 0;
  if (!*name || (!is_path(name) && !is_name(name))) {
    snprintf(err, errlen, "bad configuration name \"%s\"", name);
    return NULL;
  }
  if (is_path(name))
    snprintf(path, sizeof path, "%s", name);
  else
    snprintf(path, sizeof path, "%s/%s.cfg", ld.dir, name);
  ld.cfg = calloc(1, sizeof *ld.cfg);
  if (!ld.cfg) { perror("calloc"); exit(1); }
  ld.cfg->name = keep(ld.cfg, name);
  if (!is_path(name) && access(path, R_OK) != 0) {
    snprintf(err, errlen, "unknown configuration \"%s\" (no %s)", name, path);
    board_config_free(ld.cfg);
    return NULL;
  }
  if (load_file(&ld, path, NULL) != 0 || evaluate(&ld) != 0) {
    board_config_free(ld.cfg);
    return NULL;
  }
  return ld.cfg;
}

BoardConfig *board_config_load(const char *name, char *err, size_t errlen) {
  return board_config_load_dir(NULL, name, err, errlen);
}

void board_config_free(BoardConfig *cfg) {
  if (!cfg)
    return;
  for (size_t i = 0; i < cfg->nstrings; i++)
    free(cfg->strings[i]);
  free(cfg->strings);
  free(cfg->keys);
  free(cfg->index);
  free(cfg->csrs);
  free(cfg->regions);
  free(cfg->asserts);
  free(cfg);
}

const char *board_config_name(const BoardConfig *cfg) { return cfg->name; }

const BoardKey *board_config_find(const BoardConfig *cfg, const char *key) {
  Key *k = find_key(cfg, key);
  return k ? &k->pub : NULL;
}

int board_config_get_int(const BoardConfig *cfg, const char *key, long long *out,
                         char *err, size_t errlen) {
  const BoardKey *k = board_config_find(cfg, key);
  if (!k)
    return snprintf(err, errlen, "%s: unknown key \"%s\"", cfg->name, key), -1;
  if (!k->is_int)
    return snprintf(err, errlen, "%s: key \"%s\" is not an integer", cfg->name, key), -1;
  *out = k->value;
  return 0;
}

long long board_config_int(const BoardConfig *cfg, const char *key) {
  char err[256];
  long long v;
  if (board_config_get_int(cfg, key, &v, err, sizeof err) != 0) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
  return v;
}

const char *board_config_str(const BoardConfig *cfg, const char *key) {
  const BoardKey *k = board_config_find(cfg, key);
  return k ? k->text : NULL;
}

size_t board_config_nkeys(const BoardConfig *cfg) { return cfg->nkeys; }
const BoardKey *board_config_key(const BoardConfig *cfg, size_t i) {
  return i < cfg->nkeys ? &cfg->keys[i].pub : NULL;
}
size_t board_config_ncsrs(const BoardConfig *cfg) { return cfg->ncsrs; }
const BoardCsr *board_config_csr(const BoardConfig *cfg, size_t i) {
  return i < cfg->ncsrs ? &cfg->csrs[i] : NULL;
}
size_t board_config_nregions(const BoardConfig *cfg) { return cfg->nregions; }
const BoardRegion *board_config_region(const BoardConfig *cfg, size_t i) {
  return i < cfg->nregions ? &cfg->regions[i].pub : NULL;
}

int board_config_is_config_file(const char *path) {
  char why[128];
  if (not_config_file(path, why, sizeof why))
    return 0;
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0;
  int result = 0;
  if (!f)
    return 0;
  while (getline(&line, &cap, f) >= 0) {
    LexLine l;
    char msg[128];
    if (lex_line(line, &l, msg, sizeof msg) != 0)
      break;
    int n = l.n;
    result = n > 0 && strcmp(l.word[0], "include") == 0;
    lex_free(&l);
    if (n > 0)
      break;
  }
  free(line);
  fclose(f);
  return result;
}
