// check.c: the rules OP2 places on a par-loop, checked against the IR.
//
// Each rule reports at the token the user should change, with a note at the
// declaration it conflicts with. Checks that need a value op2c could not
// fold (a dim written as a run-time expression) are skipped here; the
// runtime checks them at diags >= 2.
#include "op2c.h"

#include <string.h>

// C spellings of each OP2 type, for comparison with kernel parameters.
static const struct {
  const char *op2;
  const char *spellings[4];
} spellings[] = {
    {"double", {"double"}},
    {"float", {"float"}},
    {"int", {"int", "signed int", "signed"}},
    {"uint", {"unsigned int", "unsigned"}},
    {"ll", {"long long", "long long int", "signed long long", "signed long long int"}},
    {"ull", {"unsigned long long", "unsigned long long int"}},
    {"bool", {"bool", "_Bool"}},
};

// 1: `base` spells `op2_type`; 0: it spells another OP2 type; -1: unknown
// (a typedef op2c cannot see through), so no verdict.
static int spells(const char *base, const char *op2_type) {
  const TypeInfo *ti = type_lookup(op2_type);
  int verdict = -1;
  for (size_t i = 0; i < sizeof(spellings) / sizeof(*spellings); i++)
    for (int j = 0; j < 4 && spellings[i].spellings[j]; j++)
      if (strcmp(base, spellings[i].spellings[j]) == 0) {
        if (ti && strcmp(ti->op2, spellings[i].op2) == 0)
          return 1;
        verdict = 0;
      }
  return verdict;
}

static const char *set_var(const IRSet *s) { return s ? s->var : "?"; }

static void check_map_idx(const IRArg *a, bool allow_vector) {
  if (!a->map) {
    if (a->idx != -1)
      error_tok(a->idx_tok, "OP_ID requires idx -1, got %d", a->idx);
    return;
  }
  int dim = a->map->dim;
  if (dim < 0)
    return;
  bool ok = (a->idx >= 0 && a->idx < dim) || (allow_vector && a->idx <= -2 && a->idx >= -dim);
  if (ok)
    return;
  if (allow_vector && dim >= 2)
    error_tok(a->idx_tok,
              "idx %d is outside the range of map '%s' (dim %d): expected 0..%d, or -2..-%d for "
              "a vector arg",
              a->idx, a->map->var, dim, dim - 1, dim);
  else
    error_tok(a->idx_tok, "idx %d is outside the range of map '%s' (dim %d): expected 0..%d",
              a->idx, a->map->var, dim, dim - 1);
  note_tok(a->map->tok, "map '%s' declared here", a->map->var);
}

static void check_sets(const IRLoop *loop, const IRArg *a) {
  if (!loop->set)
    return;
  if (a->map) {
    if (a->map->from && a->map->from != loop->set)
      error_tok(a->map_tok, "map '%s' is from set '%s' but the loop iterates over '%s'",
                a->map->var, set_var(a->map->from), set_var(loop->set));
    if (a->kind == ARG_DAT && a->dat && a->dat->set && a->map->to && a->dat->set != a->map->to)
      error_tok(a->dat_tok, "dat '%s' is on set '%s' but map '%s' maps to set '%s'", a->dat->var,
                set_var(a->dat->set), a->map->var, set_var(a->map->to));
  } else if (a->kind == ARG_DAT && a->dat && a->dat->set && a->dat->set != loop->set) {
    error_tok(a->dat_tok, "dat '%s' is on set '%s' but the loop iterates over '%s' (a direct "
                          "arg needs a map to reach another set)",
              a->dat->var, set_var(a->dat->set), set_var(loop->set));
  }
}

static void check_dat_arg(const IRLoop *loop, const IRArg *a) {
  check_map_idx(a, true);
  if (a->acc == ACC_MIN || a->acc == ACC_MAX || a->acc == ACC_WORK)
    error_tok(a->acc_tok, "access OP_%s is not allowed on a dat (use OP_READ, OP_WRITE, OP_RW or "
                          "OP_INC)",
              access_name(a->acc));
  if (!a->dat)
    return;
  if (a->type && a->dat->type && strcmp(a->type, a->dat->type) != 0) {
    error_tok(a->type_tok, "type \"%s\" does not match dat '%s', declared as \"%s\"", a->type,
              a->dat->var, a->dat->type);
    note_tok(a->dat->tok, "dat '%s' declared here", a->dat->var);
  }
  if (a->dim >= 0 && a->dat->dim >= 0 && a->dim != a->dat->dim) {
    error_tok(a->dim_tok, "arg dim %d does not match dat '%s', declared with dim %d", a->dim,
              a->dat->var, a->dat->dim);
    note_tok(a->dat->tok, "dat '%s' declared here", a->dat->var);
  }
  check_sets(loop, a);
}

static void check_gbl_arg(const IRArg *a) {
  if (a->type && !type_lookup(a->type))
    error_tok(a->type_tok, "unknown type \"%s\" (expected double, float, int, uint, ll, ull or bool)",
              a->type);
  if (a->gbl_const && a->acc != ACC_READ) {
    error_tok(a->acc_tok, "const '%s' is read-only: access OP_%s is not allowed (only OP_READ)",
              a->gbl_const->name, access_name(a->acc));
    note_tok(a->gbl_const->tok, "'%s' declared as a const here", a->gbl_const->name);
  } else if (a->acc == ACC_WRITE || a->acc == ACC_RW) {
    error_tok(a->acc_tok, "access OP_%s is not allowed on a global (use OP_READ, OP_INC, OP_MIN, "
                          "OP_MAX or OP_WORK)",
              access_name(a->acc));
  }
}

// What an argument is, for messages: "an op_arg_gbl with OP_INC", ...
static const char *arg_what(const IRArg *a) {
  switch (a->kind) {
  case ARG_DAT: return "an op_arg_dat";
  case ARG_GBL: return format("an op_arg_gbl with OP_%s", access_name(a->acc));
  case ARG_IDX: return "an op_arg_idx";
  case ARG_INFO: return "an op_arg_info";
  }
  unreachable();
}

// op_arg_info: a known type, and ref naming the loop's MIN or MAX global
// that the value goes with (scan.c checked ref is an argument position).
static void check_info_arg(const IRLoop *loop, const IRArg *a) {
  if (a->type && !type_lookup(a->type))
    error_tok(a->type_tok, "unknown type \"%s\" (expected double, float, int, uint, ll, ull or bool)",
              a->type);
  if (a->info_ref < 0)
    return;
  const IRArg *r = &loop->args[a->info_ref];
  if (!r->tok)
    return; // malformed: already reported
  if (r->kind == ARG_GBL && !r->gbl_const && (r->acc == ACC_MIN || r->acc == ACC_MAX))
    return;
  error_tok(a->acc_tok, "op_arg_info ref %d names %s; it must name an op_arg_gbl with OP_MIN or OP_MAX "
                        "(the value it goes with)",
            a->info_ref, arg_what(r));
  if (r->tok)
    note_tok(r->tok, "argument %d of the op_par_loop", a->info_ref);
}

// The kernel parameter that receives arg i.
static void check_param(const IRLoop *loop, int i) {
  const IRArg *a = &loop->args[i];
  const IRParam *p = &loop->kernel->params[i];
  bool vector = a->kind == ARG_DAT && a->idx <= -2;
  int want = vector ? 2 : 1;
  if (p->indirection != want) {
    error_tok(a->tok, "kernel '%s' parameter %d ('%s') has type '%s', but arg %d passes %s",
              loop->kernel_name, i, p->name, p->type_text, i,
              vector ? "an array of pointers (a vector arg)" : "a pointer");
    note_tok(p->tok, "parameter declared here");
    return;
  }
  const char *type = a->type;
  if (type && type_lookup(type) && spells(p->base, type) == 0) {
    error_tok(a->type_tok ? a->type_tok : a->tok,
              "type \"%s\" does not match kernel '%s' parameter %d ('%s'), of type '%s'", type,
              loop->kernel_name, i, p->name, p->type_text);
    note_tok(p->tok, "parameter declared here");
  }
  if (p->is_const && a->acc != ACC_READ && a->kind != ARG_INFO) {
    error_tok(a->acc_tok, "kernel '%s' parameter %d ('%s') is const, but the arg's access is OP_%s",
              loop->kernel_name, i, p->name, access_name(a->acc));
    note_tok(p->tok, "parameter declared here");
  }
}

// An op_opt_arg_dat whose flag is the constant 0 is never used, and OP2
// does not check it (v1.1.0's aero_hdf5 passes dim 2 for a dim-4 dat): a
// warning, and the dat's own dim and type from then on.
static void relax_never_used(IRArg *a) {
  if (a->kind != ARG_DAT || !a->never || !a->dat)
    return;
  if (a->dim >= 0 && a->dat->dim >= 0 && a->dim != a->dat->dim) {
    warn_tok(a->dim_tok, "arg dim %d does not match dat '%s', declared with dim %d; the arg is never used "
                         "(its op_opt_arg_dat flag is 0), so its dim is taken as %d", a->dim, a->dat->var,
             a->dat->dim, a->dat->dim);
    a->dim = a->dat->dim;
  }
  if (a->type && a->dat->type && strcmp(a->type, a->dat->type) != 0) {
    warn_tok(a->type_tok, "type \"%s\" does not match dat '%s', declared as \"%s\"; the arg is never used "
                          "(its op_opt_arg_dat flag is 0), so its type is taken as \"%s\"", a->type, a->dat->var,
             a->dat->type, a->dat->type);
    a->type = a->dat->type;
  }
}

static void check_loop(IRLoop *loop) {
  for (int i = 0; i < loop->nargs; i++) {
    IRArg *a = &loop->args[i];
    if (!a->tok)
      continue; // malformed: already reported
    relax_never_used(a);
    int before = diag_errors;
    switch (a->kind) {
    case ARG_DAT: check_dat_arg(loop, a); break;
    case ARG_GBL: check_gbl_arg(a); break;
    case ARG_INFO: check_info_arg(loop, a); break;
    case ARG_IDX:
      check_map_idx(a, false);
      check_sets(loop, a);
      break;
    }
    if (diag_errors > before)
      a->tok = NULL; // one error per arg: skip the kernel parameter checks
  }
  if (!loop->kernel)
    return;
  if (loop->kernel->nparams != loop->nargs) {
    error_tok(loop->kernel_tok, "kernel '%s' takes %d parameter%s but op_par_loop passes %d arg%s",
              loop->kernel_name, loop->kernel->nparams, loop->kernel->nparams == 1 ? "" : "s",
              loop->nargs, loop->nargs == 1 ? "" : "s");
    note_tok(loop->kernel->tok, "kernel '%s' defined here", loop->kernel_name);
    return;
  }
  for (int i = 0; i < loop->nargs; i++)
    if (loop->args[i].tok)
      check_param(loop, i);
}

void check_program(Program *prog) {
  for (int i = 0; i < prog->nloops; i++)
    check_loop(prog->loops[i]);
}
