/*
 * op_check.c: OP2's op_arg_check. At diags >= 2 every loop's args are
 * checked against its iteration set before it runs; an inconsistency is
 * fatal (OP2 only prints it), because the generated loop would index
 * out of bounds.
 */
#include <string.h>

#include "op_internal.h"

static const char *loop_name;
static int arg_no;

#define ARG_FATAL(fmt, ...) \
  op_fatal("loop \"%s\" arg %d: " fmt, loop_name, arg_no, __VA_ARGS__)

static void check_idx(const op_arg *a, op_map map, int allow_vector) {
  if (!map) {
    if (a->idx != -1)
      ARG_FATAL("idx %d with OP_ID (must be -1)", a->idx);
    return;
  }
  if (a->idx >= 0 && a->idx < map->dim)
    return;
  if (allow_vector && a->idx <= -2 && a->idx >= -map->dim)
    return;
  if (a->idx == -1)
    ARG_FATAL("idx -1 is only valid with OP_ID, not with map \"%s\"", map->name);
  ARG_FATAL("idx %d is out of range for map \"%s\" of dim %d", a->idx, map->name, map->dim);
}

static void check_map_from(op_map map, op_set set) {
  if (map && map->from != set)
    ARG_FATAL("map \"%s\" is from set \"%s\", but the loop runs over set \"%s\"", map->name,
              map->from->name, set->name);
}

static void check_dat_arg(const op_arg *a, op_set set) {
  op_dat dat = a->dat;
  if (!dat)
    ARG_FATAL("%s", "NULL dat");
  if (a->acc < OP_READ || a->acc > OP_INC)
    ARG_FATAL("dat \"%s\" has access %d (dats take OP_READ, OP_WRITE, OP_RW or OP_INC)",
              dat->name, a->acc);
  if (!a->type || strcmp(a->type, dat->type) != 0)
    ARG_FATAL("type \"%s\" does not match dat \"%s\" of type \"%s\"", a->type ? a->type : "(null)",
              dat->name, dat->type);
  if (a->dim != dat->dim)
    ARG_FATAL("dim %d does not match dat \"%s\" of dim %d", a->dim, dat->name, dat->dim);
  check_idx(a, a->map, 1);
  if (!a->map) {
    if (dat->set != set)
      ARG_FATAL("direct dat \"%s\" is on set \"%s\", but the loop runs over set \"%s\"",
                dat->name, dat->set->name, set->name);
    return;
  }
  check_map_from(a->map, set);
  if (dat->set != a->map->to)
    ARG_FATAL("dat \"%s\" is on set \"%s\", but map \"%s\" maps to set \"%s\"", dat->name,
              dat->set->name, a->map->name, a->map->to->name);
}

static void check_gbl_arg(const op_arg *a) {
  if (a->acc < OP_READ || a->acc > OP_WORK)
    ARG_FATAL("global has access %d", a->acc);
  if (a->dim < 1 || op_type_size(a->type) == 0)
    ARG_FATAL("global has dim %d and type \"%s\"", a->dim, a->type ? a->type : "(null)");
}

/* OP2's op_arg_info: ref is the position of the loop's MIN or MAX global it goes with. */
static void check_info_arg(const op_arg *a, int nargs, const op_arg *args) {
  if (a->dim < 1 || op_type_size(a->type) == 0)
    ARG_FATAL("op_arg_info has dim %d and type \"%s\"", a->dim, a->type ? a->type : "(null)");
  int ref = a->acc;
  if (ref < 0 || ref >= nargs)
    ARG_FATAL("op_arg_info ref %d is not an argument of the loop (0..%d)", ref, nargs - 1);
  if (args[ref].argtype != OP_ARG_GBL || (args[ref].acc != OP_MIN && args[ref].acc != OP_MAX))
    ARG_FATAL("op_arg_info ref %d is not an op_arg_gbl with OP_MIN or OP_MAX", ref);
}

void op_check_loop_args(const char *name, op_set set, int nargs, const op_arg *args) {
  loop_name = name ? name : "(unnamed)";
  arg_no = -1;
  if (!set)
    op_fatal("loop \"%s\": NULL iteration set", loop_name);
  if (nargs < 0 || (nargs > 0 && !args))
    op_fatal("loop \"%s\": bad argument list (%d args)", loop_name, nargs);
  for (arg_no = 0; arg_no < nargs; arg_no++) {
    const op_arg *a = &args[arg_no];
    if (!a->opt)
      continue;
    switch (a->argtype) {
    case OP_ARG_DAT:
      check_dat_arg(a, set);
      break;
    case OP_ARG_GBL:
      check_gbl_arg(a);
      break;
    case OP_ARG_IDX:
      check_idx(a, a->map, 0);
      check_map_from(a->map, set);
      break;
    case OP_ARG_INFO:
      check_info_arg(a, nargs, args);
      break;
    default:
      ARG_FATAL("unknown argument kind %d", a->argtype);
    }
  }
}
