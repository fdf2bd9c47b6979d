/* pcprof_parse.c: see pcprof_parse.h. */
#include "pcprof_parse.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *name;
  char *err;
  size_t errlen;
} Ctx;

static int fail(Ctx *c, unsigned long line, const char *fmt, ...) {
  va_list ap;
  int n = snprintf(c->err, c->errlen, "%s:%lu: error: ", c->name, line);
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < c->errlen) vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

/* A decimal number at *S, ended by a space or the end of the field (E);
   no sign, no overflow. 0 or -1. */
static int dec(const char **s, const char *e, uint64_t *v) {
  const char *p = *s;
  uint64_t n = 0;
  if (p == e || *p < '0' || *p > '9') return -1;
  for (; p < e && *p >= '0' && *p <= '9'; p++) {
    if (n > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return -1;
    n = n * 10 + (uint64_t)(*p - '0');
  }
  *s = p;
  *v = n;
  return 0;
}

/* 0x and 1 to 8 hex digits at *S. 0 or -1. */
static int hex32(const char **s, const char *e, uint32_t *v) {
  const char *p = *s;
  uint32_t n = 0;
  int k = 0;
  if (e - p < 3 || p[0] != '0' || p[1] != 'x') return -1;
  for (p += 2; p < e; p++, k++) {
    int d = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
            *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : -1;
    if (d < 0) break;
    if (k == 8) return -1;
    n = n << 4 | (uint32_t)d;
  }
  if (k == 0) return -1;
  *s = p;
  *v = n;
  return 0;
}

/* The literal WORD at *S. 0 or -1. */
static int lit(const char **s, const char *e, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(e - *s) < n || memcmp(*s, word, n)) return -1;
  *s += n;
  return 0;
}

/* One space, then not the end. */
static int sep(const char **s, const char *e) {
  if (*s >= e || **s != ' ') return -1;
  ++*s;
  return *s < e ? 0 : -1;
}

typedef struct {
  unsigned long line;     /* of its header; 0: no block yet */
  uint64_t cores, cycles, retired, rows, seen, sum;
  uint32_t core, pc;      /* the last row's */
} Block;

static int block_end(Ctx *c, const Block *b, unsigned long line) {
  if (!b->line) return 0;
  if (b->seen < b->rows)
    return fail(c, line, "the block of line %lu ends after %llu of its rows=%llu rows", b->line,
                (unsigned long long)b->seen, (unsigned long long)b->rows);
  if (b->sum != b->retired)
    return fail(c, line, "the counts of the block of line %lu add up to %llu, its header says retired=%llu", b->line,
                (unsigned long long)b->sum, (unsigned long long)b->retired);
  return 0;
}

static int header(Ctx *c, const char *s, const char *e, unsigned long line, Block *b) {
  uint64_t version;
  if (lit(&s, e, "pc-profile") || sep(&s, e) || dec(&s, e, &version))
    return fail(c, line, "expected a header \"pc-profile 1 cores=C cycles=N retired=R rows=K\"");
  if (version != 1) return fail(c, line, "pc-profile version %llu (pcprof reads version 1)", (unsigned long long)version);
  static const char *const keys[] = {"cores=", "cycles=", "retired=", "rows="};
  uint64_t *vals[] = {&b->cores, &b->cycles, &b->retired, &b->rows};
  for (int k = 0; k < 4; k++)
    if (sep(&s, e) || lit(&s, e, keys[k]) || dec(&s, e, vals[k]))
      return fail(c, line, "header: expected %s and a decimal number (\"pc-profile 1 cores=C cycles=N retired=R rows=K\")",
                  keys[k]);
  if (s != e) return fail(c, line, "header: unexpected text after rows=%llu", (unsigned long long)b->rows);
  if (b->cores == 0 || b->cores > PCPROF_MAX_CORES)
    return fail(c, line, "header: cores=%llu is out of range (1 to %u)", (unsigned long long)b->cores, PCPROF_MAX_CORES);
  if (b->rows > PCPROF_MAX_ROWS)
    return fail(c, line, "header: rows=%llu is over the limit of %u rows", (unsigned long long)b->rows, PCPROF_MAX_ROWS);
  b->line = line;
  b->seen = b->sum = 0;
  return 0;
}

static int row(Ctx *c, const char *s, const char *e, unsigned long line, Block *b, PcProfile *p) {
  uint64_t core, count;
  uint32_t pc, word;
  if (!b->line) return fail(c, line, "a row before any \"pc-profile\" header");
  if (dec(&s, e, &core) || sep(&s, e) || hex32(&s, e, &pc) || sep(&s, e) || dec(&s, e, &count) || sep(&s, e) ||
      hex32(&s, e, &word) || s != e)
    return fail(c, line, "expected a row \"CORE 0xPC COUNT 0xWORD\" (decimal, hex, decimal, hex)");
  if (b->seen == b->rows)
    return fail(c, line, "one row more than the rows=%llu of the header on line %lu", (unsigned long long)b->rows, b->line);
  if (core >= b->cores)
    return fail(c, line, "core %llu is out of range (the header says cores=%llu)", (unsigned long long)core,
                (unsigned long long)b->cores);
  if (pc & 3) return fail(c, line, "pc 0x%08x is not a multiple of 4", pc);
  if (count == 0) return fail(c, line, "a count of 0 (only pcs that retired instructions have rows)");
  if (b->seen && (core < b->core || (core == b->core && pc <= b->pc)))
    return fail(c, line, "core %llu pc 0x%08x does not follow core %u pc 0x%08x (rows go by core, then pc, once each)",
                (unsigned long long)core, pc, b->core, b->pc);
  if (count > UINT64_MAX - b->sum || count > UINT64_MAX - p->total)
    return fail(c, line, "the counts add up to more than 2^64");
  if (p->nrows == p->cap) {
    size_t cap = p->cap ? 2 * p->cap : 1024;
    PcRow *nr = realloc(p->rows, cap * sizeof *nr);
    if (!nr) return fail(c, line, "out of memory for %zu rows", cap);
    p->rows = nr;
    p->cap = cap;
  }
  p->rows[p->nrows++] = (PcRow){p->nblocks - 1, (uint32_t)core, pc, word, count};
  b->sum += count;
  p->total += count;
  b->seen++;
  b->core = (uint32_t)core;
  b->pc = pc;
  return 0;
}

int pcprof_parse(const char *name, const char *text, size_t len, PcProfile *p, char *err, size_t errlen) {
  Ctx c = {name, err, errlen};
  Block b = {0};
  memset(p, 0, sizeof *p);
  const char *s = text, *end = text + len;
  unsigned long line = 0;
  int rc = 0;
  while (s < end && !rc) {
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (!e) e = end;
    line++;
    if (memchr(s, 0, (size_t)(e - s))) rc = fail(&c, line, "a NUL byte (not a text file?)");
    else if (e == s || *s == '#') {}
    else if (*s == 'p') {
      if (!(rc = block_end(&c, &b, line))) {
        p->nblocks++;
        rc = header(&c, s, e, line, &b);
        if (!rc && b.cores > p->max_cores) p->max_cores = (unsigned)b.cores;
      }
    } else rc = row(&c, s, e, line, &b, p);
    s = e + 1;
  }
  if (!rc) rc = block_end(&c, &b, line);
  if (!rc && !b.line) rc = fail(&c, line, "no \"pc-profile\" block (is this a tsim --pc-profile file?)");
  if (rc) pcprof_free(p);
  return rc;
}

void pcprof_free(PcProfile *p) {
  free(p->rows);
  memset(p, 0, sizeof *p);
}
