/* errors.c: every runtime error is fatal, names the objects and exits 1. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "op2t_internal.h"

void op2t_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "op2 tinsel: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(1);
}

void *op2t_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    op2t_fatal("out of memory (%zu x %zu bytes)", n, size);
  return p;
}

void *op2t_grow(void *p, size_t n, size_t size) {
  p = realloc(p, n * size);
  if (!p)
    op2t_fatal("out of memory (%zu x %zu bytes)", n, size);
  return p;
}
