/*
 * op_memory.c: op_malloc, op_calloc, op_realloc and op_free, the allocator
 * OP2 programs call by OP2's names (for mesh arrays and results).
 *
 * They are the C library's calls: op_free takes what the others return,
 * and free and realloc may take it too. A request for bytes that cannot be
 * met is a fatal error naming the size, not a NULL the program may not
 * check; a request for none returns what the C library returns.
 */
#include <stdint.h>
#include <stdlib.h>

#include "op_internal.h"

void *op_malloc(size_t size) {
  void *p = malloc(size);
  if (!p && size)
    op_fatal("op_malloc: out of memory allocating %zu bytes", size);
  return p;
}

void *op_calloc(size_t num, size_t size) {
  if (size && num > SIZE_MAX / size)
    op_fatal("op_calloc: %zu x %zu bytes is more than memory can hold", num, size);
  void *p = calloc(num, size);
  if (!p && num && size)
    op_fatal("op_calloc: out of memory allocating %zu x %zu bytes", num, size);
  return p;
}

void *op_realloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size);
  if (!p && size)
    op_fatal("op_realloc: out of memory growing a block to %zu bytes", size);
  return p;
}

void op_free(void *ptr) { free(ptr); }
