/* airfoil_graph.c: the graph instance of OP2 airfoil on a mesh file, for
 * op2place and the tests: each set a device type, each map a pin from its
 * source set and one back (OP2 indirect reads go one way, writes and
 * increments the other). The file format is apps/meshgen's new_grid.dat
 * (op2_airfoil.md §2), read by apps/airfoil/airfoil_mesh.h, the reader the
 * airfoil apps use: counts, node coordinates, then cells, edges and
 * boundary edges, 0-based, every value checked. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_mesh.h"
#include "place_internal.h"

enum { NODES, EDGES, BEDGES, CELLS, NSETS };
static const char *const set_names[NSETS] = {"nodes", "edges", "bedges", "cells"};

/* Each map: its sets and arity (its values: map_values below, in this order). */
typedef struct {
  const char *name;
  int from, to, arity;
} MapSpec;
static const MapSpec maps[] = {
    {"pcell", CELLS, NODES, 4},
    {"pedge", EDGES, NODES, 2},
    {"pecell", EDGES, CELLS, 2},
    {"pbedge", BEDGES, NODES, 2},
    {"pbecell", BEDGES, CELLS, 1},
};
enum { NMAPS = sizeof maps / sizeof maps[0] };

/* Payload of the messages along each map (sp airfoil: up to 4 floats). */
#define MSG_BYTES 16

PlaceGraph *place_airfoil_graph(const char *path, PlaceAirfoilGroups groups, uint32_t state_bytes, FILE *warn,
                                char *err, size_t errlen) {
  AirfoilMesh mesh;
  if (airfoil_mesh_read(path, &mesh, warn, err, errlen)) return NULL;
  int count[NSETS];
  count[NODES] = mesh.nnode, count[CELLS] = mesh.ncell, count[EDGES] = mesh.nedge,
  count[BEDGES] = mesh.nbedge;

  PlaceGraph *g = place_graph_new();
  int type[NSETS], npins[NSETS] = {0}, pin_of[NMAPS][2];
  for (int mi = 0; mi < NMAPS; mi++) { /* output pin numbers: one per map end */
    pin_of[mi][0] = npins[maps[mi].from]++;
    pin_of[mi][1] = npins[maps[mi].to]++;
  }
  for (int s = 0; s < NSETS; s++)
    type[s] = place_add_type(g, set_names[s], (uint32_t)count[s], state_bytes, 0, npins[s],
                             groups == PLACE_AIRFOIL_ONE_GROUP    ? 0
                             : groups == PLACE_AIRFOIL_OP2_GROUPS ? (s == NODES || s == CELLS ? 0 : 1)
                                                                  : s);
  place_add_dat(g, type[NODES], "p_x", 8);
  place_add_dat(g, type[CELLS], "p_q", 16);
  const int *map_values[NMAPS] = {mesh.cell, mesh.edge, mesh.ecell, mesh.bedge, mesh.becell};
  int rc = 0;
  for (int mi = 0; mi < NMAPS && !rc; mi++) {
    const MapSpec *ms = &maps[mi];
    int fwd = place_add_pin(g, type[ms->from], pin_of[mi][0], type[ms->to], mi, MSG_BYTES, 1);
    int rev = place_add_pin(g, type[ms->to], pin_of[mi][1], type[ms->from], mi, MSG_BYTES, 1);
    rc = fwd < 0 || rev < 0 ||
         place_add_map_edges(g, ms->name, type[ms->from], type[ms->to], ms->arity, map_values[mi], fwd, rev);
  }
  airfoil_mesh_free(&mesh);
  if (rc) {
    snprintf(err, errlen, "%s: %s", path, place_error(g));
    place_graph_free(g);
    return NULL;
  }
  return g;
}
