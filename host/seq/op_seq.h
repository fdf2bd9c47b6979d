/*
 * op_seq.h: the OP2 C/C++ API as op2-poets' sequential runtime provides it.
 *
 * User programs include this header unchanged (`#include "op_seq.h"`).
 * Unlike OP2's header there is no op_par_loop template: op2c rewrites every
 * op_par_loop call into a generated loop function, so an untranslated call
 * is a compile error rather than a silent fallback.
 *
 * The API is plain C with `void *` data pointers so the same header serves C
 * and C++ programs; op2c checks the type strings statically instead of
 * OP2's template type checks. Data that OP2's templates take as `T *` is
 * `const void *` here, so a pointer to const (`op_decl_const(1, "double",
 * &gam)` with `const double gam`) is accepted as OP2 accepts it.
 *
 * OP2's other header names (op_lib_cpp.h, op_lib_core.h, op_lib_c.h,
 * op_profile.h) include this one; op2c's own preprocessor knows what they
 * define (compiler/preprocess.c): the two must stay in step.
 */
#ifndef OP_SEQ_H
#define OP_SEQ_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Access modes and argument kinds: OP2's values. */
#define OP_READ  0
#define OP_WRITE 1
#define OP_RW    2
#define OP_INC   3
#define OP_MIN   4
#define OP_MAX   5
#define OP_WORK  6 /* a global the kernel uses as scratch: no value in, none out */
typedef int op_access;

#define OP_ARG_GBL 0
#define OP_ARG_DAT 1
#define OP_ARG_IDX 2
#define OP_ARG_INFO 3

typedef struct op_set_core {
  int index;            /* declaration order, from 0 */
  int size;             /* number of elements */
  const char *name;
} op_set_core, *op_set;

typedef struct op_map_core {
  int index;
  op_set from, to;
  int dim;              /* targets per source element */
  int *map;             /* from->size * dim entries, owned by the runtime */
  const char *name;
} op_map_core, *op_map;

typedef struct op_dat_core {
  int index;
  op_set set;
  int dim;              /* values per element */
  int size;             /* bytes per element: dim * sizeof(type) */
  char *data;           /* set->size * size bytes, owned by the runtime */
  const char *type;     /* "double", "float", "int", ... */
  const char *name;
  int is_temp;          /* declared by op_decl_dat_temp, not yet freed */
  struct op_dat_core *overlay_of; /* op_decl_dat_overlay: the dat whose data this is */
} op_dat_core, *op_dat;

typedef struct op_arg {
  int argtype;          /* OP_ARG_GBL, OP_ARG_DAT, OP_ARG_IDX or OP_ARG_INFO */
  op_dat dat;           /* dat args */
  op_map map;           /* NULL for OP_ID and gbl args */
  int dim;              /* as written in the call */
  int idx;              /* map slot, -1 for OP_ID, -m for an m-vector arg */
  int size;             /* bytes per element (dat) or of the whole gbl */
  char *data;           /* dat->data, or the user's gbl variable */
  int *map_data;        /* map->map, or NULL */
  const char *type;
  op_access acc;        /* OP_ARG_INFO: as OP2, the position of its MIN/MAX global (ref) */
  int opt;              /* 0: the optional arg is switched off */
} op_arg;

#define OP_ID  ((op_map)NULL)
#define OP_GBL ((op_map)NULL)

/* Life cycle. diags >= 2 turns on per-loop argument checks and op_diagnostic_output tables. */
void op_init(int argc, char **argv, int diags);
/* op_init with OP2's struct-of-arrays switch: on one node, without plans or GPUs,
 * the layout is the declared one either way, as in OP2's sequential library. */
void op_init_soa(int argc, char **argv, int diags, int soa);
void op_exit(void);

/* Declarations: maps and dats copy the user's buffer, as OP2 does by default. */
op_set op_decl_set(int size, const char *name);
op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name);
/* Global indices as OP2 types them (64-bit); op_decl_map_long copies them into
 * the int map of op_decl_map, refusing any index outside the to-set. */
typedef long long idx_g_t;
typedef int idx_l_t;
op_map op_decl_map_long(op_set from, op_set to, int dim, idx_g_t *imap, const char *name);
op_dat op_decl_dat(op_set set, int dim, const char *type, const void *data, const char *name);
op_dat op_decl_dat_temp(op_set set, int dim, const char *type, const void *data, const char *name);
int op_free_dat_temp(op_dat dat);
/* The first set->size elements of dat, as a dat on set: the same storage. */
op_dat op_decl_dat_overlay(op_set set, op_dat dat);
void op_decl_const(int dim, const char *type, const void *data);
/* The older name, with the constant's name first (op2c checks it names the variable). */
void op_decl_const2(const char *name, int dim, const char *type, const void *data);

/* Loop arguments. */
op_arg op_arg_dat(op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc);
op_arg op_opt_arg_dat(int opt, op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc);
op_arg op_arg_gbl(const void *data, int dim, const char *type, op_access acc);
op_arg op_opt_arg_gbl(int opt, const void *data, int dim, const char *type, op_access acc);
op_arg op_arg_idx(int idx, op_map map);
/* A value the kernel keeps with the OP_MIN/OP_MAX global at position ref of
 * the same loop (argmin/argmax: the element where the extreme was found). */
op_arg op_arg_info(const void *data, int dim, const char *type, int ref);

/* Data out. */
void op_fetch_data(op_dat dat, void *dest);
void op_fetch_data_idx(op_dat dat, void *dest, int low, int high);
void op_print_dat_to_txtfile(op_dat dat, const char *file);
void op_print_dat_to_binfile(op_dat dat, const char *file);

/* OP2's allocator: malloc, calloc, realloc and free, under OP2's names.
 * Out of memory is a fatal error naming the size (OP2 returns NULL). */
void *op_malloc(size_t size);
void *op_calloc(size_t num, size_t size);
void *op_realloc(void *ptr, size_t size);
void op_free(void *ptr);

/* Miscellany. */
void op_timers(double *cpu, double *et);
void op_timers_core(double *cpu, double *et); /* the same: cpu seconds of the process, wall seconds */
void op_timing_output(void);
void op_timings_to_csv(const char *file);
void op_diagnostic_output(void);
long long op_get_size(op_set set);
void op_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void op_partition(const char *lib_name, const char *lib_routine, op_set prime_set,
                  op_map prime_map, op_dat coords);
int op_is_root(void);
void op_renumber(op_map base); /* accepted; the single-node runtimes keep the numbering */

/*
 * OP2's op_profile.h: a timing tree of named sections (host/seq/op_profile.c).
 * OP_PROFILE_LEVEL=0..3 (read by op_profile_start) and OP_PROFILE_JSON_OUTPUT=FILE.
 */
void op_profile_start(const char *name);
void op_profile_enter(const char *name);
void op_profile_enter_kernel(const char *name, const char *target, const char *variant);
void op_profile_next(const char *name);
void op_profile_exit(void);
void op_profile_end(void);
void op_profile_output(void);
void op_profile_output_json(const char *filename);

/*
 * OP2's op_hdf5.h, which OP2's op_lib_c.h includes: programs that include
 * only op_seq.h call these too. In libop2_hdf5 (host/hdf5/op_hdf5.c, the
 * file layout there), which op2c links into a program that calls them.
 */
op_set op_decl_set_hdf5(const char *file, const char *name);
op_set op_decl_set_hdf5_infer_size(const char *file, const char *name, const char *set_dataset_name);
op_map op_decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name);
op_dat op_decl_dat_hdf5(op_set set, int dim, const char *type, const char *file, const char *name);
void op_get_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name);
void op_write_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name);
void op_dump_to_hdf5(const char *file_name);
void op_fetch_data_hdf5_file(op_dat dat, const char *file_name);
void op_fetch_data_hdf5_file_path(op_dat dat, const char *file_name, const char *path_name);

/*
 * Called only by op2c-generated loops. op_rt_loop_enter checks the args
 * against the iteration set (at diags >= 2, as OP2's op_arg_check; any
 * inconsistency is a fatal error naming loop, arg and objects) and returns
 * the start time; op_rt_loop_exit adds the elapsed time and the bytes moved
 * to the loop's row in op_timing_output.
 */
double op_rt_loop_enter(const char *name, op_set set, int nargs, const op_arg *args);
void op_rt_loop_exit(const char *name, op_set set, int nargs, const op_arg *args, double t0);
/* The target named in loops' profile sections ("seq" unless a runtime says otherwise). */
void op_rt_profile_target(const char *target);

/*
 * For a runtime that keeps dats elsewhere (libop2_tinsel keeps them resident
 * on the devices): host_read runs before the host reads a dat's data
 * (op_fetch_data, op_fetch_data_idx, op_print_dat_to_txtfile,
 * op_print_dat_to_binfile) and must make dat->data current; host_wrote runs
 * after the host set a dat's data (op_decl_dat, op_decl_dat_temp); freed runs
 * before a dat is freed (op_free_dat_temp, op_exit); exiting runs first in
 * op_exit; timers runs before op_timers reads the clocks (a runtime whose
 * loops may still be running waits for them). Any may be NULL;
 * op_rt_set_hooks(NULL) removes them.
 */
typedef struct {
  void (*host_read)(op_dat dat);
  void (*host_wrote)(op_dat dat);
  void (*freed)(op_dat dat);
  void (*exiting)(void);
  void (*timers)(void);
} op_rt_hooks;
void op_rt_set_hooks(const op_rt_hooks *h);

#ifdef __cplusplus
}
#endif

#endif /* OP_SEQ_H */

/*
 * What OP2's headers give a program besides the API: the standard headers
 * programs rely on (exit, strcmp, sqrt, std::pow, bool in C) and OP2's
 * helper macros. Outside the include guard and skipped while OP2C_PREAMBLE
 * is defined: op2c's translated sources include this header in a preamble
 * before the program's first line, and the program's own include, where
 * OP2's would be, must be what defines these (MIN and MAX only where the
 * program has none of its own, as OP2's headers do).
 */
#if !defined(OP2C_PREAMBLE) && !defined(OP_SEQ_PROGRAM_H)
#define OP_SEQ_PROGRAM_H
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#endif

/* OP2's helper macros: MIN and MAX only where the program has none of its
 * own (each argument may be evaluated twice); ROUND_UP rounds a byte count
 * up to a multiple of 16, ROUND_UP_64 to a multiple of 64. */
#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#define ROUND_UP(bytes) (((bytes) + 15) & ~15)
#define ROUND_UP_64(bytes) (((bytes) + 63) & ~63)

#endif /* OP_SEQ_PROGRAM_H */
