/*
 * op_decl.c: op_init/op_exit and the declarations. Maps and dats copy the
 * user's buffer (OP2's default), so the program may free its own copy.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op_internal.h"

OpState op_state;

/*
 * OP2's options in argv (each found anywhere in an argument, as OP2 looks
 * for them): OP_MAPS_BASE_INDEX=0|1 is applied (1: the maps declared from
 * then on hold 1-based indices, made 0-based in the runtime's copy). The
 * others tune OP2's plans, partitions, caches, MPI and GPUs, none of which
 * the sequential runtime or the tinsel host has: each is acknowledged as
 * OP2 acknowledges it and changes nothing (docs/op2-api.md).
 */
static void int_option(const char *arg, const char *key, const char *shown, int *into) {
  const char *p = strstr(arg, key);
  if (p) {
    *into = atoi(p + strlen(key));
    op_printf("\n %s = %d \n", shown, *into);
  }
}

static void flag_option(const char *arg, const char *key, const char *message) {
  if (strstr(arg, key))
    op_printf("\n %s\n", message);
}

static void op_init_options(int argc, char **argv) {
  for (int i = 1; i < argc && argv; i++) {
    const char *a = argv[i];
    if (!a)
      continue;
    int ignored;
    int_option(a, "OP_BLOCK_SIZE=", "OP_block_size", &ignored);
    int_option(a, "OP_PART_SIZE=", "OP_part_size", &ignored);
    flag_option(a, "OP_NO_REALLOC", "Disable user memory reallocation/internal copy");
    int_option(a, "OP_CACHE_LINE_SIZE=", "OP_cache_line_size ", &ignored);
    int_option(a, "OP_TEST_FREQ=", "OP_mpi_test_frequency ", &ignored);
    flag_option(a, "-gpudirect", "Enabling GPU Direct");
    flag_option(a, "OP_AUTO_SOA", "Enabling Automatic AoS->SoA Conversion");
    flag_option(a, "OP_PARTIAL_EXCHANGE", "Enabling partial MPI halo exchanges");
    const char *h = strstr(a, "OP_HYBRID_BALANCE=");
    if (h)
      op_printf("\n OP_hybrid_balance  = %g \n", atof(h + strlen("OP_HYBRID_BALANCE=")));
    const char *m = strstr(a, "OP_MAPS_BASE_INDEX=");
    if (m) {
      int base = atoi(m + strlen("OP_MAPS_BASE_INDEX=")), prev = op_state.maps_base;
      if (base == 0 || base == 1) {
        op_state.maps_base = base;
        if (base != prev)
          op_printf("\n OP_maps_base_index  = %d (Default value %d overridden)\n", base, prev);
      } else {
        op_printf("\n Unsupported OP_maps_base_index : %d -- keeping %d-based indexing \n", base, prev);
      }
    }
    int_option(a, "OP_CUDA_REDUCTIONS_MIB=", "OP_cuda_reductions_mib ", &ignored);
  }
}

void op_init(int argc, char **argv, int diags) {
  op_state.diags = diags;
  op_init_options(argc, argv);
}

void op_init_soa(int argc, char **argv, int diags, int soa) {
  (void)soa;
  op_init(argc, argv, diags);
}

#define PUSH(arr, n, item)                                                     \
  do {                                                                         \
    void *grown = realloc((arr), sizeof(*(arr)) * ((size_t)(n) + 1));          \
    if (!grown)                                                                \
      op_fatal("out of memory growing the object registry");                   \
    (arr) = grown;                                                             \
    (arr)[(n)++] = (item);                                                     \
  } while (0)

op_set op_decl_set(int size, const char *name) {
  if (size < 0)
    op_fatal("op_decl_set: set \"%s\" has negative size %d", name ? name : "(unnamed)", size);
  op_set set = op_xcalloc(1, sizeof(*set), "a set");
  set->index = op_state.nsets;
  set->size = size;
  set->name = op_xstrdup(name);
  PUSH(op_state.sets, op_state.nsets, set);
  return set;
}

/* Bytes for n elements of elem bytes each; dies rather than overflow. */
static size_t checked_bytes(int n, size_t elem, const char *what, const char *name) {
  if (elem != 0 && (size_t)n > SIZE_MAX / elem)
    op_fatal("%s \"%s\": %d elements of %zu bytes overflow memory", what, name, n, elem);
  return (size_t)n * elem;
}

static void check_map_entries(op_map map) {
  long long n = (long long)map->from->size * map->dim;
  for (long long e = 0; e < n; e++) {
    int v = map->map[e];
    if (v < 0 || v >= map->to->size)
      op_fatal("op_decl_map: map \"%s\" entry %lld (element %lld, slot %lld) is %d, "
               "outside set \"%s\" of size %d",
               map->name, e, e / map->dim, e % map->dim, v + op_state.maps_base, map->to->name, map->to->size);
  }
}

op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name) {
  const char *nm = name ? name : "(unnamed)";
  if (!from || !to)
    op_fatal("op_decl_map: map \"%s\" has a NULL %s set", nm, from ? "to" : "from");
  if (dim < 1)
    op_fatal("op_decl_map: map \"%s\" has dim %d (must be at least 1)", nm, dim);
  if (!imap && from->size > 0)
    op_fatal("op_decl_map: map \"%s\" has NULL data for %d elements of set \"%s\"", nm,
             from->size, from->name);
  if (from->size > INT_MAX / dim)
    op_fatal("op_decl_map: map \"%s\" has too many entries (%d x %d)", nm, from->size, dim);
  size_t bytes = checked_bytes(from->size * dim, sizeof(int), "map", nm);
  op_map map = op_xcalloc(1, sizeof(*map), "a map");
  map->index = op_state.nmaps;
  map->from = from;
  map->to = to;
  map->dim = dim;
  map->name = op_xstrdup(name);
  map->map = op_xcalloc(bytes ? bytes : 1, 1, map->name);
  if (bytes)
    memcpy(map->map, imap, bytes);
  if (op_state.maps_base == 1) /* OP_MAPS_BASE_INDEX=1: the program numbers from 1 */
    for (long long e = 0; e < (long long)from->size * dim; e++)
      map->map[e]--;
  check_map_entries(map);
  PUSH(op_state.maps, op_state.nmaps, map);
  return map;
}

/* The 64-bit entries must each name an element of the to-set (in the program's
 * numbering, 0- or 1-based); then the map is an ordinary one. */
op_map op_decl_map_long(op_set from, op_set to, int dim, idx_g_t *imap, const char *name) {
  const char *nm = name ? name : "(unnamed)";
  if (!from || !to || dim < 1 || (!imap && from->size > 0) || from->size > INT_MAX / dim)
    return op_decl_map(from, to, dim, (int *)imap, name); /* dies, saying which, before reading */
  long long n = (long long)from->size * dim;
  for (long long e = 0; e < n; e++) // all checked before anything is allocated
    if (imap[e] < op_state.maps_base || imap[e] - op_state.maps_base >= to->size)
      op_fatal("op_decl_map_long: map \"%s\" entry %lld (element %lld, slot %lld) is %lld, "
               "outside set \"%s\" of size %d",
               nm, e, e / dim, e % dim, imap[e], to->name, to->size);
  int *narrow = op_xcalloc(n ? (size_t)n : 1, sizeof(int), nm);
  for (long long e = 0; e < n; e++)
    narrow[e] = (int)imap[e];
  op_map map = op_decl_map(from, to, dim, narrow, name);
  free(narrow);
  return map;
}

static op_dat new_dat(op_set set, int dim, const char *type, const char *name, const char *fn) {
  const char *nm = name ? name : "(unnamed)";
  if (!set)
    op_fatal("%s: dat \"%s\" has a NULL set", fn, nm);
  if (dim < 1)
    op_fatal("%s: dat \"%s\" has dim %d (must be at least 1)", fn, nm, dim);
  int esize = op_type_size_or_die(type, fn);
  if (dim > INT_MAX / esize)
    op_fatal("%s: dat \"%s\" has dim %d, too large", fn, nm, dim);
  op_dat dat = op_xcalloc(1, sizeof(*dat), "a dat");
  dat->index = op_state.ndats;
  dat->set = set;
  dat->dim = dim;
  dat->size = dim * esize;
  dat->type = op_xstrdup(type);
  dat->name = op_xstrdup(name);
  size_t bytes = checked_bytes(set->size, (size_t)dat->size, "dat", nm);
  dat->data = op_xcalloc(bytes ? bytes : 1, 1, dat->name);
  PUSH(op_state.dats, op_state.ndats, dat);
  return dat;
}

op_dat op_decl_dat(op_set set, int dim, const char *type, const void *data, const char *name) {
  op_dat dat = new_dat(set, dim, type, name, "op_decl_dat");
  /* NULL data leaves the dat zero-filled, like a temp dat. */
  if (data)
    memcpy(dat->data, data, (size_t)set->size * (size_t)dat->size);
  op_hook_host_wrote(dat);
  return dat;
}

op_dat op_decl_dat_temp(op_set set, int dim, const char *type, const void *data, const char *name) {
  (void)data; /* OP2 ignores it: temp dats start zeroed */
  op_dat dat = new_dat(set, dim, type, name, "op_decl_dat_temp");
  dat->is_temp = 1;
  op_hook_host_wrote(dat);
  return dat;
}

op_dat op_decl_dat_overlay(op_set set, op_dat dat) {
  if (!set || !dat)
    op_fatal("op_decl_dat_overlay: NULL %s", set ? "dat" : "set");
  if (set->size > dat->set->size)
    op_fatal("op_decl_dat_overlay: set \"%s\" has %d elements, more than the %d of dat \"%s\"'s set \"%s\"",
             set->name, set->size, dat->set->size, dat->name, dat->set->name);
  while (dat->overlay_of)
    dat = dat->overlay_of;
  if (op_state.diags > 1)
    op_printf("op_decl_dat_overlay: dat: %s, set %s (%d elems) -> %s (%d elems)\n", dat->name, dat->set->name,
              dat->set->size, set->name, set->size);
  op_dat o = op_xcalloc(1, sizeof(*o), "a dat");
  *o = *dat;
  o->index = op_state.ndats;
  o->set = set;
  o->type = op_xstrdup(dat->type);
  o->name = op_xstrdup(dat->name);
  o->overlay_of = dat;
  o->is_temp = 0;
  PUSH(op_state.dats, op_state.ndats, o);
  return o;
}

static void free_dat(op_dat dat) {
  if (!dat->overlay_of)
    free(dat->data);
  free((char *)dat->type);
  free((char *)dat->name);
  free(dat);
}

int op_free_dat_temp(op_dat dat) {
  if (!dat) {
    fprintf(stderr, "op2 warning: op_free_dat_temp: NULL dat\n");
    return -1;
  }
  for (int i = 0; i < op_state.ndats; i++) {
    if (op_state.dats[i] != dat)
      continue;
    if (!dat->is_temp) {
      fprintf(stderr, "op2 warning: op_free_dat_temp: dat \"%s\" is not a temp dat\n", dat->name);
      return -1;
    }
    op_hook_freed(dat);
    op_state.dats[i] = NULL;
    free_dat(dat);
    return 0;
  }
  fprintf(stderr, "op2 warning: op_free_dat_temp: unknown or already freed dat\n");
  return -1;
}

void op_decl_const(int dim, const char *type, const void *data) {
  /* Kernels read the C global directly; only check the declaration. */
  op_type_size_or_die(type, "op_decl_const");
  if (dim < 1)
    op_fatal("op_decl_const: dim %d (must be at least 1) for a \"%s\" constant", dim, type);
  if (!data)
    op_fatal("op_decl_const: NULL data for a %d x \"%s\" constant", dim, type);
}

void op_decl_const2(const char *name, int dim, const char *type, const void *data) {
  (void)name;
  op_decl_const(dim, type, data);
}

long long op_get_size(op_set set) {
  if (!set)
    op_fatal("op_get_size: NULL set");
  return set->size;
}

void op_partition(const char *lib_name, const char *lib_routine, op_set prime_set,
                  op_map prime_map, op_dat coords) {
  (void)prime_set;
  (void)prime_map;
  (void)coords;
  if (op_state.diags > 1)
    printf(" op_partition(%s, %s): nothing to do on one node\n", lib_name ? lib_name : "NULL",
           lib_routine ? lib_routine : "NULL");
}

int op_is_root(void) { return 1; }

void op_renumber(op_map base) {
  if (!base)
    op_fatal("op_renumber: NULL map");
  if (op_state.diags > 1)
    printf(" op_renumber(%s): the numbering is kept\n", base->name);
}

void op_exit(void) {
  op_hook_exiting();
  for (int i = 0; i < op_state.ndats; i++)
    if (op_state.dats[i]) {
      op_hook_freed(op_state.dats[i]);
      free_dat(op_state.dats[i]);
    }
  for (int i = 0; i < op_state.nmaps; i++) {
    free(op_state.maps[i]->map);
    free((char *)op_state.maps[i]->name);
    free(op_state.maps[i]);
  }
  for (int i = 0; i < op_state.nsets; i++) {
    free((char *)op_state.sets[i]->name);
    free(op_state.sets[i]);
  }
  free(op_state.dats);
  free(op_state.maps);
  free(op_state.sets);
  op_loops_free();
  memset(&op_state, 0, sizeof(op_state));
}
