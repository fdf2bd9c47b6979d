/*
 * op_args.c: the op_arg constructors. They only record what the call says;
 * consistency with the loop's set is checked by op_rt_loop_enter.
 */
#include <string.h>

#include "op_internal.h"

op_arg op_opt_arg_dat(int opt, op_dat dat, int idx, op_map map, int dim, const char *type,
                      op_access acc) {
  op_arg arg;
  memset(&arg, 0, sizeof(arg));
  arg.argtype = OP_ARG_DAT;
  arg.opt = opt != 0;
  arg.dat = dat;
  arg.map = map;
  arg.dim = dim;
  arg.idx = idx;
  arg.type = type;
  arg.acc = acc;
  if (!dat) {
    if (opt)
      op_fatal("op_arg_dat: NULL dat (idx %d, map \"%s\", type \"%s\")", idx,
               map ? map->name : "OP_ID", type ? type : "(null)");
    return arg;
  }
  arg.size = dat->size;
  arg.data = opt ? dat->data : NULL;
  arg.map_data = map ? map->map : NULL;
  return arg;
}

op_arg op_arg_dat(op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc) {
  return op_opt_arg_dat(1, dat, idx, map, dim, type, acc);
}

op_arg op_opt_arg_gbl(int opt, const void *data, int dim, const char *type, op_access acc) {
  op_arg arg;
  memset(&arg, 0, sizeof(arg));
  arg.argtype = OP_ARG_GBL;
  arg.opt = opt != 0;
  arg.dim = dim;
  arg.idx = -1;
  arg.type = type;
  arg.acc = acc;
  if (dim < 1)
    op_fatal("op_arg_gbl: dim %d (must be at least 1) for a \"%s\" global", dim,
             type ? type : "(null)");
  arg.size = dim * op_type_size_or_die(type, "op_arg_gbl");
  /* OP2 takes T * with T possibly const; only OP_READ leaves it unwritten. */
  arg.data = opt ? (char *)data : NULL;
  if (opt && !data)
    op_fatal("op_arg_gbl: NULL data for a %d x \"%s\" global", dim, type);
  return arg;
}

op_arg op_arg_gbl(const void *data, int dim, const char *type, op_access acc) {
  return op_opt_arg_gbl(1, data, dim, type, acc);
}

op_arg op_arg_idx(int idx, op_map map) {
  op_arg arg;
  memset(&arg, 0, sizeof(arg));
  arg.argtype = OP_ARG_IDX;
  arg.opt = 1;
  arg.map = map;
  arg.dim = 1;
  arg.idx = idx;
  arg.size = sizeof(int);
  arg.type = "int";
  arg.acc = OP_READ;
  arg.map_data = map ? map->map : NULL;
  return arg;
}

op_arg op_arg_info(const void *data, int dim, const char *type, int ref) {
  op_arg arg;
  memset(&arg, 0, sizeof(arg));
  arg.argtype = OP_ARG_INFO;
  arg.opt = 1;
  arg.dim = dim;
  arg.idx = -1;
  arg.type = type;
  arg.acc = ref; /* OP2 keeps ref where a global keeps its access */
  if (dim < 1)
    op_fatal("op_arg_info: dim %d (must be at least 1) for a \"%s\" value", dim, type ? type : "(null)");
  arg.size = dim * op_type_size_or_die(type, "op_arg_info");
  if (!data)
    op_fatal("op_arg_info: NULL data for a %d x \"%s\" value", dim, type);
  arg.data = (char *)data;
  return arg;
}
