// util.c: allocation, strings and files. Allocation failure is fatal.
#include "op2c.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// Each block starts with its slot in a table of every live block, so that
// xfree_all() can free them all, and its capacity, so that xrealloc grows
// by doubling (VEC_PUSH asks for one more element at a time); 16 bytes keep
// the block's alignment.
typedef struct {
  size_t slot;
  size_t cap;
} AllocHeader;

static AllocHeader **blocks;
static size_t nblocks, blocks_cap;

static void *record(AllocHeader *h) {
  if (nblocks == blocks_cap) {
    blocks_cap = blocks_cap ? blocks_cap * 2 : 1024;
    AllocHeader **b = realloc(blocks, blocks_cap * sizeof(*blocks));
    if (!b)
      die(__FILE__, __LINE__, "out of memory");
    blocks = b;
  }
  h->slot = nblocks;
  blocks[nblocks++] = h;
  return h + 1;
}

void *xcalloc(size_t n, size_t size) {
  n = n ? n : 1;
  size = size ? size : 1;
  if (n > (SIZE_MAX - sizeof(AllocHeader)) / size)
    die(__FILE__, __LINE__, "allocation of %zu x %zu bytes is too large", n, size);
  AllocHeader *h = calloc(1, sizeof(AllocHeader) + n * size);
  if (!h)
    die(__FILE__, __LINE__, "out of memory allocating %zu bytes", n * size);
  h->cap = n * size;
  return record(h);
}

void *xrealloc(void *p, size_t size) {
  if (!p)
    return xcalloc(1, size);
  if (size > SIZE_MAX - sizeof(AllocHeader))
    die(__FILE__, __LINE__, "allocation of %zu bytes is too large", size);
  AllocHeader *h = (AllocHeader *)p - 1;
  if (size <= h->cap)
    return p;
  // Small blocks grow as asked (often in place); larger ones double, so that
  // pushing n elements copies O(n) bytes, not O(n * n).
  size_t cap = size >= 4096 && h->cap <= (SIZE_MAX - sizeof(AllocHeader)) / 2 && size < h->cap * 2 ? h->cap * 2 : size;
  size_t slot = h->slot;
  h = realloc(h, sizeof(AllocHeader) + cap);
  if (!h)
    die(__FILE__, __LINE__, "out of memory allocating %zu bytes", cap);
  h->cap = cap;
  blocks[slot] = h;
  return h + 1;
}

void xfree(void *p) {
  if (!p)
    return;
  AllocHeader *h = (AllocHeader *)p - 1;
  blocks[h->slot] = NULL;
  free(h);
}

void xfree_all(void) {
  for (size_t i = 0; i < nblocks; i++)
    free(blocks[i]);
  nblocks = 0;
}

char *xstrndup(const char *s, size_t n) {
  char *p = xcalloc(1, n + 1);
  memcpy(p, s, n);
  return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *buf = xcalloc(1, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(buf, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return buf;
}

void strarray_push(StrArray *a, char *s) {
  if (a->len == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 8;
    a->data = xrealloc(a->data, sizeof(char *) * (size_t)a->cap);
  }
  a->data[a->len++] = s;
}

// Returns the file's contents NUL-terminated, or NULL with errno set.
char *read_file(const char *path, size_t *len) {
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return NULL;
  size_t cap = 4096, n = 0;
  char *buf = xcalloc(1, cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n - 1, fp);
    if (got == 0)
      break;
    n += got;
  }
  int err = ferror(fp);
  fclose(fp);
  if (err) {
    errno = EIO;
    return NULL;
  }
  buf[n] = '\0';
  if (len)
    *len = n;
  return buf;
}

char *read_source_file(const char *path, size_t *len, const char **why) {
  FILE *fp = fopen(path, "rb");
  if (!fp) {
    *why = strerror(errno);
    return NULL;
  }
  // Reading a directory or a device (/dev/zero) would fail late or never end.
  struct stat st;
  if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
    fclose(fp);
    return NULL;
  }
  const size_t max = OP2C_MAX_SOURCE_BYTES;
  if (st.st_size > (off_t)max) {
    *why = format("larger than %zu bytes (%lld)", max, (long long)st.st_size);
    fclose(fp);
    return NULL;
  }
  // The size may change while reading (or be 0, as in /proc): read at most
  // one byte more than allowed to know.
  size_t cap = (size_t)st.st_size + 2, n = 0;
  char *buf = xcalloc(1, cap);
  for (;;) {
    if (n + 1 >= cap) {
      cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
      buf = xrealloc(buf, cap);
    }
    size_t got = fread(buf + n, 1, cap - n - 1, fp);
    n += got;
    if (got == 0 || n > max)
      break;
  }
  int err = ferror(fp);
  fclose(fp);
  if (err || n > max) {
    xfree(buf);
    *why = err ? strerror(EIO) : format("larger than %zu bytes", max);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

char *dir_name(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return xstrdup(".");
  if (slash == path)
    return xstrdup("/");
  return xstrndup(path, (size_t)(slash - path));
}

bool file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

// Internal errors: a bug in op2c, not in the user's program.
void die(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "op2c: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (at %s:%d)\n", file, line);
  va_end(ap);
  exit(70);
}

//
// StrMap: open addressing, FNV-1a, at most half full.
//

static size_t str_hash(const char *s, size_t len) {
  size_t h = 2166136261u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static size_t strmap_slot(const StrMap *m, const char *key, size_t len) {
  size_t i = str_hash(key, len) & (m->cap - 1);
  while (m->keys[i] && !(strncmp(m->keys[i], key, len) == 0 && m->keys[i][len] == '\0'))
    i = (i + 1) & (m->cap - 1);
  return i;
}

void *strmap_get_n(const StrMap *m, const char *key, size_t len) {
  if (!m->cap)
    return NULL;
  size_t i = strmap_slot(m, key, len);
  return m->keys[i] ? m->vals[i] : NULL;
}

void *strmap_get(const StrMap *m, const char *key) { return strmap_get_n(m, key, strlen(key)); }

void strmap_put(StrMap *m, const char *key, void *val) {
  if (2 * (m->len + 1) > m->cap) {
    StrMap bigger = {xcalloc(m->cap ? m->cap * 2 : 64, sizeof(char *)),
                     xcalloc(m->cap ? m->cap * 2 : 64, sizeof(void *)), m->cap ? m->cap * 2 : 64, 0};
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i])
        strmap_put(&bigger, m->keys[i], m->vals[i]);
    xfree(m->keys);
    xfree(m->vals);
    *m = bigger;
  }
  size_t i = strmap_slot(m, key, strlen(key));
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->len++;
  }
  m->vals[i] = val;
}
