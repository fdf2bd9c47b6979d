/* op_error.c: fatal errors and checked allocation for the runtime. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_internal.h"

_Noreturn void op_fatal(const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "op2 error: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  exit(1);
}

void *op_xcalloc(size_t n, size_t size, const char *what) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    op_fatal("out of memory allocating %zu x %zu bytes for %s", n, size, what);
  return p;
}

char *op_xstrdup(const char *s) {
  if (!s)
    s = "(unnamed)";
  char *p = op_xcalloc(strlen(s) + 1, 1, "a name");
  strcpy(p, s);
  return p;
}
