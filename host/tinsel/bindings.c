/*
 * bindings.c: what each invocation is bound to, and the resident instance.
 *
 * An invocation's edges and per-device props follow from the sets, maps,
 * dats and op_opt_arg flags of its call. They are built at the first call
 * and kept while later calls bind the same (airfoil binds each loop once),
 * so the loaded instance (seed 000; decision 1 of issue 6) holds the edges
 * of every invocation bound so far. A call with another binding, a type
 * bound to another set or new constants change the instance: its
 * generation number moves, and engines that load the instance onto
 * hardware reload it before the next run.
 */
#include <stdlib.h>
#include <string.h>

#include "images.h"
#include "op2t_internal.h"

typedef struct {
  op_dat dat;
  op_map map;
  int opt;
} ArgKey;

typedef struct {
  int valid;
  int stale;               /* an invocation wrote a dat whose reads it lands: bind again */
  op_set set;
  ArgKey *key;             /* [nargs] */
  op2t_fanouts fs;
} Binding;

static struct {
  Binding *b;              /* [ninvocations] */
  unsigned generation;
  unsigned rebinds;        /* a valid binding replaced by another */
  unsigned builds;         /* op2t_fanouts.built */
} bs;

static Binding *binding(int k) {
  if (!bs.b)
    bs.b = op2t_calloc((size_t)op2t_graph_info.ninvocations + 1, sizeof(Binding));
  return &bs.b[k];
}

static int same(const Binding *b, const op2t_invocation *inv, op_set set, const op_arg *args) {
  if (!b->valid || b->stale || b->set != set)
    return 0;
  for (int i = 0; i < inv->nargs; i++)
    if (b->key[i].dat != args[i].dat || b->key[i].map != args[i].map || b->key[i].opt != (args[i].opt != 0))
      return 0;
  return 1;
}

const op2t_fanouts *op2t_bind_call(int k, op_set set, op_arg *args, op2t_devs *devs) {
  const op2t_invocation *inv = op2t_graph_info.invocations[k];
  Binding *b = binding(k);
  if (same(b, inv, set, args))
    return &b->fs;
  bs.rebinds += b->valid != 0;
  op2t_set_props(inv, args, devs);
  op2t_build_edges(&b->fs, inv, args, devs, op2t_land_bits(inv, args));
  b->fs.built = ++bs.builds;
  free(b->key);
  b->key = op2t_calloc((size_t)inv->nargs + 1, sizeof(ArgKey));
  for (int i = 0; i < inv->nargs; i++)
    b->key[i] = (ArgKey){args[i].dat, args[i].map, args[i].opt != 0};
  b->set = set;
  b->valid = 1;
  b->stale = 0;
  bs.generation++;
  return &b->fs;
}

void op2t_bindings_drop_type(int type) {
  const op2t_graph *g = &op2t_graph_info;
  for (int k = 0; bs.b && k < g->ninvocations; k++)
    for (int j = 0; j < g->invocations[k]->ninvolved; j++)
      if (g->invocations[k]->involved[j].type == type && bs.b[k].valid) {
        bs.b[k].valid = 0;
        bs.rebinds++;
        op2t_free_edges(&bs.b[k].fs);
      }
  bs.generation++;
}

void op2t_instance_changed(void) { bs.generation++; }

unsigned op2t_rebinds(void) { return bs.rebinds; }

unsigned op2t_instance_generation(void) { return bs.generation; }

op2t_bound_inv *op2t_bound_invs(int *n) {
  int ninv = op2t_graph_info.ninvocations;
  op2t_bound_inv *out = op2t_calloc((size_t)ninv + 1, sizeof(op2t_bound_inv));
  *n = 0;
  for (int k = 0; k < ninv; k++) {
    const op2t_fanouts *fs = &binding(k)->fs;
    if (binding(k)->valid)
      out[(*n)++] = (op2t_bound_inv){k, fs->f, fs->n, (const uint8_t *const *)fs->part};
  }
  return out;
}

void op2t_bindings_free(void) {
  for (int k = 0; bs.b && k < op2t_graph_info.ninvocations; k++) {
    op2t_free_edges(&bs.b[k].fs);
    free(bs.b[k].key);
  }
  free(bs.b);
  bs.b = NULL;
}

void op2t_bindings_unland(op_dat dat) {
  const op2t_graph *g = &op2t_graph_info;
  for (int k = 0; bs.b && k < g->ninvocations; k++) {
    Binding *b = &bs.b[k];
    for (int i = 0; b->valid && b->fs.landed && i < g->invocations[k]->nargs; i++) {
      int bit = g->invocations[k]->args[i].fresh_bit;
      if (bit >= 0 && b->fs.landed >> bit & 1 && b->key[i].dat == dat)
        b->stale = 1;
    }
  }
}
