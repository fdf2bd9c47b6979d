/* tests/fuzz/hdf5: OP2's HDF5 readers (host/hdf5/op_hdf5.c) through their
 * entry points, on a file holding the input: op_decl_set_hdf5, then with
 * that set op_decl_map_hdf5, op_decl_dat_hdf5, op_get_const_hdf5 and
 * op_decl_set_hdf5_infer_size, as an airfoil program reads new_grid.h5.
 * The runtime around them is stood in for here: op_fatal returns to the
 * harness (longjmp) after checking that the message names the file, the
 * allocations of each input are freed, and libhdf5 is closed after each
 * input so no handle a refusal left open leaks. A set, map or dat the
 * readers accept must be what was asked (size, dim, every map index
 * inside its target set, as op_decl_map checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hdf5.h>

#include "op_internal.h"
#include "op_hdf5.h"

OpState op_state;
static char path[64];
static jmp_buf back;
// The reader's buffers (op_xcalloc; it frees them after op_decl_map or
// op_decl_dat took them: those drop them from the list) and the stand-in
// objects: whatever a refusal leaves is freed after the input.
typedef struct {
  void **p;
  size_t n, cap;
} List;
static List temps, objs;

static void *keep(List *l, void *p) {
  if (!p) abort();
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    l->p = realloc(l->p, l->cap * sizeof *l->p);
    if (!l->p) abort();
  }
  return l->p[l->n++] = p;
}

static void drop(List *l, const void *p) {
  for (size_t i = 0; i < l->n; i++)
    if (l->p[i] == p) {
      l->p[i] = l->p[--l->n];
      return;
    }
}

static void free_all(List *l) {
  for (size_t i = 0; i < l->n; i++) free(l->p[i]);
  l->n = 0;
}

_Noreturn void op_fatal(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (!strstr(msg, path)) abort(); /* every refusal names the file */
  longjmp(back, 1);
}

void *op_xcalloc(size_t n, size_t size, const char *what) {
  (void)what;
  return keep(&temps, calloc(n ? n : 1, size ? size : 1));
}

char *op_xstrdup(const char *s) { return strcpy(keep(&objs, calloc(strlen(s) + 1, 1)), s); }

int op_type_size(const char *type) {
  return !type ? 0 : !strcmp(type, "double") ? 8 : !strcmp(type, "int") ? 4 : 0;
}

int op_type_size_or_die(const char *type, const char *where) {
  int n = op_type_size(type);
  if (!n) op_fatal("%s: %s: bad type", where, path);
  return n;
}

void op_hook_host_read(op_dat dat) { (void)dat; }

op_set op_decl_set(int size, const char *name) {
  if (size < 0) abort();
  op_set s = keep(&objs, calloc(1, sizeof *s));
  *s = (op_set_core){0, size, op_xstrdup(name)};
  return s;
}

op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name) {
  for (long i = 0; i < (long)from->size * dim; i++)
    if (imap[i] < 0 || imap[i] >= to->size)
      op_fatal("op_decl_map: %s: map \"%s\" entry %ld is %d", path, name, i, imap[i]);
  drop(&temps, imap);
  op_map m = keep(&objs, calloc(1, sizeof *m));
  *m = (op_map_core){0, from, to, dim, NULL, op_xstrdup(name)};
  return m;
}

op_dat op_decl_dat(op_set set, int dim, const char *type, const void *data, const char *name) {
  drop(&temps, data);
  op_dat d = keep(&objs, calloc(1, sizeof *d));
  *d = (op_dat_core){.set = set, .dim = dim, .size = dim * op_type_size(type), .type = type, .name = name};
  return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!path[0])
    snprintf(path, sizeof path, "/tmp/fuzz-hdf5-%ld.h5", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();

  static op_set cells, nodes; /* static: setjmp may not keep locals */
  cells = nodes = NULL;
  if (!setjmp(back)) cells = op_decl_set_hdf5(path, "cells");
  if (!setjmp(back)) nodes = op_decl_set_hdf5(path, "nodes");
  if (cells && nodes) {
    if (!setjmp(back)) {
      op_map m = op_decl_map_hdf5(cells, nodes, 4, path, "pcell");
      if (m && (m->dim != 4 || m->from != cells)) abort(); /* NULL: no such dataset, as in OP2 */
    }
    if (!setjmp(back)) {
      op_dat d = op_decl_dat_hdf5(cells, 4, "double", path, "p_q");
      if (d && d->dim != 4) abort();
    }
    if (!setjmp(back)) op_decl_dat_hdf5(cells, 1, "int", path, "p_bound");
  }
  static double qinf[4];
  if (!setjmp(back)) op_get_const_hdf5("qinf", 4, "double", (char *)qinf, path);
  if (!setjmp(back)) op_decl_set_hdf5_infer_size(path, "edges", "pedge");

  free_all(&temps);
  free_all(&objs);
  H5close();
  unlink(path);
  return 0;
}

/* libhdf5 (not built with the sanitizers, not ours to fix) leaks some of
 * what it allocated for a damaged file; LeakSanitizer still reports every
 * leak of the readers and this harness. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libhdf5\n"; }
