/*
 * threads.c: the thread each device runs on, as host/place would put it on
 * the machine (OP2_TINSEL_CONFIG: a boards/ configuration, default board).
 * The functional engine needs it for thread-granularity begin and end: one
 * begin per thread, ends folded per thread and up a tree of threads.
 *
 * Every bound type is a device type of the placement graph and every
 * op_decl_map between bound sets an edge both ways, so METIS keeps mesh
 * neighbours on the same thread and mailbox as the hardware run would. All
 * types form one code group: the functional engine runs img_all, which
 * holds every type's handlers. Placement is redone only when a type is
 * bound to a new set (devices do not move between invocations).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board_config.h"
#include "images.h"
#include "op2t_internal.h"
#include "op_internal.h"
#include "place.h"

static struct {
  PlaceMachine m;
  int loaded;
  uint32_t **thread;      /* [ntypes][n] */
  int ntypes;
} pl;

/* OP2_TINSEL_BOXES=XxY: the machine is the first X x Y boxes of CFG (tcl's
 * `run --boxes`), so the placement and the boards the engine loads are
 * those boxes' boards only. */
static int restrict_boxes(PlaceMachine *m, const char *cfg, const char *boxes, char *err, size_t errlen) {
  int nx, ny;
  char end;
  if (sscanf(boxes, "%dx%d%c", &nx, &ny, &end) != 2 || nx < 1 || ny < 1) {
    snprintf(err, errlen, "OP2_TINSEL_BOXES=%s: expected XxY, such as 2x1", boxes);
    return -1;
  }
  BoardConfig *bc = board_config_load(cfg, err, errlen);
  long long bx, by;
  if (!bc)
    return -1;
  int rc = board_config_get_int(bc, "MeshXLenWithinBox", &bx, err, errlen) ||
           board_config_get_int(bc, "MeshYLenWithinBox", &by, err, errlen);
  board_config_free(bc);
  if (rc)
    return -1;
  if (nx * bx > m->boards_x || ny * by > m->boards_y) {
    snprintf(err, errlen, "OP2_TINSEL_BOXES=%s: %s has %lldx%lld boxes of %lldx%lld boards", boxes, m->name,
             m->boards_x / bx, m->boards_y / by, bx, by);
    return -1;
  }
  m->boards_x = nx * (int)bx;
  m->boards_y = ny * (int)by;
  m->nboards = m->boards_x * m->boards_y;
  m->nthreads = m->threads_per_board * m->nboards;
  m->nunits = m->units_per_mbox * m->mboxes_per_board * m->nboards;
  return 0;
}

int op2t_machine_load(PlaceMachine *m, const char *cfg, char *err, size_t errlen) {
  if (place_machine_load(m, cfg, err, errlen) != 0)
    return -1;
  const char *boxes = getenv("OP2_TINSEL_BOXES");
  return boxes && *boxes ? restrict_boxes(m, cfg, boxes, err, errlen) : 0;
}

static void load_machine(void) {
  const char *cfg = getenv("OP2_TINSEL_CONFIG");
  if (!cfg || !*cfg)
    cfg = OP2T_DEFAULT_CONFIG;
  char err[512];
  if (op2t_machine_load(&pl.m, cfg, err, sizeof(err)) != 0)
    op2t_fatal("OP2_TINSEL_CONFIG=%s: %s", cfg, err);
  pl.loaded = 1;
}

const char *op2t_config_name(void) {
  if (!pl.loaded)
    load_machine();
  return pl.m.name;
}

const PlaceMachine *op2t_machine(void) {
  if (!pl.loaded)
    load_machine();
  return &pl.m;
}

int op2t_threads_per_mbox(void) {
  if (!pl.loaded)
    load_machine();
  return pl.m.threads_per_mbox;
}

static int type_of_set(const op2t_devs *devs, int ntypes, op_set s) {
  for (int t = 0; t < ntypes; t++)
    if (devs[t].n > 0 && devs[t].set == s)
      return t;
  return -1;
}

void op2t_place(const op2t_devs *devs, int ntypes) {
  if (!pl.loaded)
    load_machine();
  PlaceGraph *g = place_graph_new();
  int *ptype = op2t_calloc((size_t)ntypes, sizeof(int)), *nout = op2t_calloc((size_t)ntypes, sizeof(int));
  /* Output pins: one per map end on a bound type. */
  for (int i = 0; i < op_state.nmaps; i++) {
    op_map m = op_state.maps[i];
    int from = type_of_set(devs, ntypes, m->from), to = type_of_set(devs, ntypes, m->to);
    if (from >= 0 && to >= 0)
      nout[from]++, nout[to]++;
  }
  for (int t = 0; t < ntypes; t++) {
    ptype[t] = -1;
    if (devs[t].n > 0 && (ptype[t] = place_add_type(g, op2t_graph_info.types[t].name, (uint32_t)devs[t].n,
                                                      (uint32_t)devs[t].state_bytes, (uint32_t)devs[t].props_bytes,
                                                      nout[t], 0)) < 0)
      op2t_fatal("placement: %s", place_error(g));
  }
  memset(nout, 0, sizeof(int) * (size_t)ntypes);
  for (int i = 0; i < op_state.nmaps; i++) {
    op_map m = op_state.maps[i];
    int from = type_of_set(devs, ntypes, m->from), to = type_of_set(devs, ntypes, m->to);
    if (from < 0 || to < 0)
      continue;
    uint32_t label_bytes = m->dim < 256 ? 1 : 4;
    int fwd = place_add_pin(g, ptype[from], nout[from]++, ptype[to], 0, 8, label_bytes);
    int rev = place_add_pin(g, ptype[to], nout[to]++, ptype[from], 0, 8, label_bytes);
    if (fwd < 0 || rev < 0 ||
        place_add_map_edges(g, m->name, ptype[from], ptype[to], m->dim, m->map, fwd, rev) < 0)
      op2t_fatal("placement: %s", place_error(g));
  }
  PlaceOptions opt = {.seed = op2t_place_seed()};
  PlacePlacement p;
  if (place_run(g, &pl.m, &opt, &p) != 0)
    op2t_fatal("placement on '%s': %s", pl.m.name, place_error(g));
  for (int t = 0; t < pl.ntypes; t++)
    free(pl.thread[t]);
  free(pl.thread);
  pl.ntypes = ntypes;
  pl.thread = op2t_calloc((size_t)ntypes, sizeof(uint32_t *));
  for (int t = 0; t < ntypes; t++) {
    pl.thread[t] = op2t_calloc((size_t)devs[t].n + 1, sizeof(uint32_t));
    for (int d = 0; ptype[t] >= 0 && d < devs[t].n; d++)
      pl.thread[t][d] = p.thread[place_device(g, ptype[t], (uint32_t)d)];
  }
  place_placement_free(&p);
  place_graph_free(g);
  free(ptype);
  free(nout);
}

const uint32_t *const *op2t_threads(void) { return (const uint32_t *const *)pl.thread; }
