// util.c: allocation, strings and files. Allocation failure is fatal.
#include "op2c.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    die(__FILE__, __LINE__, "out of memory allocating %zu bytes", n * size);
  return p;
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
    a->data = realloc(a->data, sizeof(char *) * (size_t)a->cap);
    if (!a->data)
      die(__FILE__, __LINE__, "out of memory");
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
      buf = realloc(buf, cap);
      if (!buf)
        die(__FILE__, __LINE__, "out of memory reading %s", path);
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
