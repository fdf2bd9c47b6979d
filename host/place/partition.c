/* partition.c: METIS over a subset of the devices, and the mesh order that
 * keeps METIS's neighbouring parts on neighbouring boards or mailboxes. */
#include <metis.h>
#include <stdlib.h>
#include <string.h>

#include "place_internal.h"

int place_partition(PlaceGraph *g, const uint32_t *verts, uint32_t n, int nparts,
                    const int *con, int ncon, uint32_t seed, int32_t *local, int *part) {
  if (nparts <= 1 || n == 0) {
    for (uint32_t i = 0; i < n; i++) part[i] = 0;
    return 0;
  }
  if (n <= (uint32_t)nparts) { /* METIS needs more vertices than parts: spread them */
    for (uint32_t i = 0; i < n; i++) part[i] = (int)((uint64_t)i * (uint64_t)nparts / n);
    return 0;
  }
  for (uint32_t i = 0; i < n; i++) local[verts[i]] = (int32_t)i;
  idx_t *xadj = place_xalloc((size_t)n + 1, sizeof *xadj);
  size_t nedges = 0;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t e = g->adj_first[verts[i]]; e < g->adj_first[verts[i] + 1]; e++)
      nedges += local[g->adj[e]] >= 0;
  idx_t *adjncy = place_xalloc(nedges, sizeof *adjncy);
  nedges = 0;
  for (uint32_t i = 0; i < n; i++) {
    xadj[i] = (idx_t)nedges;
    for (uint32_t e = g->adj_first[verts[i]]; e < g->adj_first[verts[i] + 1]; e++)
      if (local[g->adj[e]] >= 0) adjncy[nedges++] = local[g->adj[e]];
  }
  xadj[n] = (idx_t)nedges;
  for (uint32_t i = 0; i < n; i++) local[verts[i]] = -1;

  idx_t nv = (idx_t)n, np = nparts, nc = ncon > 1 ? ncon : 1, objval = 0;
  idx_t *vwgt = NULL;
  if (nc > 1) {
    vwgt = place_xalloc((size_t)n * (size_t)nc, sizeof *vwgt);
    for (uint32_t i = 0; i < n; i++) vwgt[(size_t)i * nc + con[i]] = 1;
  }
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = (idx_t)(seed & 0x7fffffff);
  options[METIS_OPTION_NUMBERING] = 0;
  idx_t *ipart = place_xalloc(n, sizeof *ipart);
  /* Recursive bisection, as POLite: Kway does poorly when parts are few vertices. */
  int rc = METIS_PartGraphRecursive(&nv, &nc, xadj, adjncy, vwgt, NULL, NULL, &np, NULL, NULL,
                                    options, &objval, ipart);
  if (rc != METIS_OK && nc > 1) { /* balance every group failed: balance the count only */
    nc = 1;
    rc = METIS_PartGraphRecursive(&nv, &nc, xadj, adjncy, NULL, NULL, NULL, &np, NULL, NULL,
                                  options, &objval, ipart);
  }
  for (uint32_t i = 0; i < n; i++) part[i] = (int)ipart[i];
  free(ipart), free(vwgt), free(xadj), free(adjncy);
  if (rc != METIS_OK)
    return place_fail(g, "METIS failed (code %d) partitioning %u devices into %d parts", rc, n, nparts);
  return 0;
}

typedef struct {
  int x, y;
} Cell;

static int by_x;
static int cmp_cell(const void *a, const void *b) {
  const Cell *p = a, *q = b;
  int d = by_x ? p->x - q->x : p->y - q->y;
  if (d == 0) d = by_x ? p->y - q->y : p->x - q->x;
  return d;
}

/* Split along the longer side of the bounding box; the first floor(n/2)
 * cells go first, as METIS gives the first nparts/2 parts to one side. */
static void order_cells(Cell *c, int n) {
  if (n <= 1) return;
  int x0 = c[0].x, x1 = c[0].x, y0 = c[0].y, y1 = c[0].y;
  for (int i = 1; i < n; i++) {
    if (c[i].x < x0) x0 = c[i].x;
    if (c[i].x > x1) x1 = c[i].x;
    if (c[i].y < y0) y0 = c[i].y;
    if (c[i].y > y1) y1 = c[i].y;
  }
  by_x = x1 - x0 >= y1 - y0;
  qsort(c, (size_t)n, sizeof *c, cmp_cell);
  order_cells(c, n / 2);
  order_cells(c + n / 2, n - n / 2);
}

void place_mesh_order(int w, int h, int *order) {
  Cell *c = place_xalloc((size_t)w * h, sizeof *c);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) c[y * w + x] = (Cell){x, y};
  order_cells(c, w * h);
  for (int i = 0; i < w * h; i++) order[i] = c[i].y * w + c[i].x;
  free(c);
}
