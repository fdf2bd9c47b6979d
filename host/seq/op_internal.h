/*
 * op_internal.h: state and helpers shared by the files of libop2_seq.
 * Not part of the API: op2c-generated code sees only op_seq.h.
 */
#ifndef OP_INTERNAL_H
#define OP_INTERNAL_H

#include <stddef.h>

#include "op_seq.h"

/* The registry of declared objects, in declaration order. */
typedef struct {
  int diags;
  int maps_base;        /* OP_MAPS_BASE_INDEX: 1 when maps are declared 1-based */
  op_set *sets; int nsets;
  op_map *maps; int nmaps;
  op_dat *dats; int ndats;   /* freed temp dats leave a NULL slot */
} OpState;

extern OpState op_state;

/* op_error.c: every runtime error is fatal, names the objects and exits 1. */
_Noreturn void op_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *op_xcalloc(size_t n, size_t size, const char *what);
char *op_xstrdup(const char *s);

/* op_types.c: bytes per value of an OP2 type string, or 0 if unknown. */
int op_type_size(const char *type);
int op_type_size_or_die(const char *type, const char *where);

/* op_check.c: OP2 op_arg_check, fatal on the first inconsistency. */
void op_check_loop_args(const char *name, op_set set, int nargs, const op_arg *args);

/* op_hooks.c: the registered runtime's hooks (op_rt_set_hooks), no-ops without one. */
void op_hook_host_read(op_dat dat);
void op_hook_host_wrote(op_dat dat);
void op_hook_freed(op_dat dat);
void op_hook_exiting(void);
void op_hook_timers(void);

/* op_loops.c */
void op_loops_free(void);
double op_wall_time(void);

/* op_profile.c: a loop's kernel section in the program's profile (no-ops when none is open). */
void op_profile_loop_begin(const char *name, int nargs, const op_arg *args);
void op_profile_loop_end(int nargs, const op_arg *args);

#endif /* OP_INTERNAL_H */
