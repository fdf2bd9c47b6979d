/* airfoil_graph.c: the graph instance of OP2 airfoil on a mesh file, for
 * op2place and the tests: each set a device type, each map a pin from its
 * source set and one back (OP2 indirect reads go one way, writes and
 * increments the other). The file format is apps/meshgen's new_grid.dat
 * (op2_airfoil.md §2): counts, node coordinates, then cells, edges and
 * boundary edges, 0-based. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

enum { NODES, EDGES, BEDGES, CELLS, NSETS };
static const char *const set_names[NSETS] = {"nodes", "edges", "bedges", "cells"};

/* Columns of each row: how many belong to which map (rows of "nodes" are coordinates). */
typedef struct {
  const char *name;
  int from, to, arity, column; /* column: first column of the row holding it */
} MapSpec;
static const MapSpec maps[] = {
    {"pcell", CELLS, NODES, 4, 0},   {"pedge", EDGES, NODES, 2, 0},
    {"pecell", EDGES, CELLS, 2, 2},  {"pbedge", BEDGES, NODES, 2, 0},
    {"pbecell", BEDGES, CELLS, 1, 2},
};
enum { NMAPS = sizeof maps / sizeof maps[0] };

/* Payload of the messages along each map (sp airfoil: up to 4 floats). */
#define MSG_BYTES 16

static int read_ints(FILE *f, int *v, int n) {
  for (int i = 0; i < n; i++)
    if (fscanf(f, "%d", &v[i]) != 1) return -1;
  return 0;
}

PlaceGraph *place_airfoil_graph(const char *path, int one_group, uint32_t state_bytes, char *err,
                                size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  int count[NSETS] = {0}, hdr[4];
  if (read_ints(f, hdr, 4) || hdr[0] < 1 || hdr[1] < 1 || hdr[2] < 0 || hdr[3] < 0) {
    snprintf(err, errlen, "%s:1: error: expected 'nnode ncell nedge nbedge', all positive", path);
    fclose(f);
    return NULL;
  }
  count[NODES] = hdr[0], count[CELLS] = hdr[1], count[EDGES] = hdr[2], count[BEDGES] = hdr[3];
  for (int n = 0; n < count[NODES]; n++) {
    double x, y;
    if (fscanf(f, "%lf %lf", &x, &y) != 2) {
      snprintf(err, errlen, "%s:%d: error: expected the coordinates of node %d", path, n + 2, n);
      fclose(f);
      return NULL;
    }
  }
  /* rows: cells (4 nodes), edges (2 nodes, 2 cells), bedges (2 nodes, cell, bound) */
  static const int row_sets[3] = {CELLS, EDGES, BEDGES}, row_width[3] = {4, 4, 4};
  int *rows[3] = {NULL, NULL, NULL};
  int line = 2 + count[NODES];
  for (int r = 0; r < 3; r++) {
    int s = row_sets[r];
    rows[r] = place_xalloc((size_t)count[s] * row_width[r], sizeof(int));
    for (int i = 0; i < count[s]; i++, line++)
      if (read_ints(f, rows[r] + (size_t)i * row_width[r], row_width[r])) {
        snprintf(err, errlen, "%s:%d: error: expected %d integers for %s %d", path, line,
                 row_width[r], set_names[s], i);
        fclose(f);
        for (int k = 0; k <= r; k++) free(rows[k]);
        return NULL;
      }
  }
  fclose(f);

  PlaceGraph *g = place_graph_new();
  int type[NSETS], npins[NSETS] = {0}, pin_of[NMAPS][2];
  for (int mi = 0; mi < NMAPS; mi++) { /* output pin numbers: one per map end */
    pin_of[mi][0] = npins[maps[mi].from]++;
    pin_of[mi][1] = npins[maps[mi].to]++;
  }
  for (int s = 0; s < NSETS; s++)
    type[s] = place_add_type(g, set_names[s], (uint32_t)count[s], state_bytes, 0, npins[s],
                             one_group ? 0 : s);
  place_add_dat(g, type[NODES], "p_x", 8);
  place_add_dat(g, type[CELLS], "p_q", 16);
  int rc = 0;
  for (int mi = 0; mi < NMAPS && !rc; mi++) {
    const MapSpec *ms = &maps[mi];
    int r = ms->from == CELLS ? 0 : ms->from == EDGES ? 1 : 2;
    int *vals = place_xalloc((size_t)count[ms->from] * ms->arity, sizeof *vals);
    for (int i = 0; i < count[ms->from]; i++)
      for (int k = 0; k < ms->arity; k++)
        vals[(size_t)i * ms->arity + k] = rows[r][(size_t)i * row_width[r] + ms->column + k];
    int fwd = place_add_pin(g, type[ms->from], pin_of[mi][0], type[ms->to], mi, MSG_BYTES, 1);
    int rev = place_add_pin(g, type[ms->to], pin_of[mi][1], type[ms->from], mi, MSG_BYTES, 1);
    rc = fwd < 0 || rev < 0 ||
         place_add_map_edges(g, ms->name, type[ms->from], type[ms->to], ms->arity, vals, fwd, rev);
    free(vals);
  }
  for (int r = 0; r < 3; r++) free(rows[r]);
  if (rc) {
    snprintf(err, errlen, "%s: %s", path, place_error(g));
    place_graph_free(g);
    return NULL;
  }
  return g;
}
