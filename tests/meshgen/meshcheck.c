/*
 * meshcheck.c: `meshcheck FILE` checks an OP2 new_grid.dat airfoil mesh:
 * index ranges, counter-clockwise cells, every edge a side of both its
 * cells with its normal (dy, -dx) pointing from c1 to c2, every bedge a
 * side of its cell with an outward normal, wall bedges on the airfoil and
 * far-field ones far away, and every cell side covered exactly once.
  * Prints the first errors and exits 1 if there are any. The file is read by
 * apps/airfoil/airfoil_mesh.h, which refuses bad counts, rows, numbers and
 * indices itself.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "airfoil_mesh.h"

typedef struct {
  AirfoilMesh a;
  int nnode, ncell, nedge, nbedge;
  double *x;            /* 2 per node */
  unsigned char *sides; /* per cell: bit s set once side s is covered */
} Mesh;

static int nerrors;

static void error(const char *fmt, int a, int b) {
  if (++nerrors <= 10) {
    fprintf(stderr, "meshcheck: ");
    fprintf(stderr, fmt, a, b);
    fprintf(stderr, "\n");
  }
}

static void *xalloc(size_t n) {
  void *p = calloc(n ? n : 1, 1);
  if (!p) {
    fprintf(stderr, "meshcheck: out of memory\n");
    exit(1);
  }
  return p;
}

static void read_mesh(const char *path, Mesh *m) {
  char err[512];
  if (airfoil_mesh_read(path, &m->a, NULL, err, sizeof err)) {
    fprintf(stderr, "meshcheck: %s\n", err);
    exit(1);
  }
  m->nnode = m->a.nnode, m->ncell = m->a.ncell, m->nedge = m->a.nedge, m->nbedge = m->a.nbedge;
  m->x = m->a.x;
  m->sides = xalloc((size_t)m->ncell);
}

static const double *X(const Mesh *m, int n) { return &m->x[2 * n]; }

static void centroid(const Mesh *m, int c, double *cx, double *cy) {
  *cx = *cy = 0;
  for (int k = 0; k < 4; k++) {
    *cx += X(m, m->a.cell[4 * c + k])[0] / 4;
    *cy += X(m, m->a.cell[4 * c + k])[1] / 4;
  }
}

static int same_point(const double *a, const double *b) {
  return fabs(a[0] - b[0]) < 1e-9 && fabs(a[1] - b[1]) < 1e-9;
}

/* Marks the side of cell c between the points of nodes n1 and n2 (either way round). */
static void cover_side(Mesh *m, int c, int n1, int n2, const char *what, int line) {
  for (int s = 0; s < 4; s++) {
    const double *a = X(m, m->a.cell[4 * c + s]), *b = X(m, m->a.cell[4 * c + (s + 1) % 4]);
    if ((same_point(a, X(m, n1)) && same_point(b, X(m, n2))) ||
        (same_point(a, X(m, n2)) && same_point(b, X(m, n1)))) {
      if (m->sides[c] & (1u << s))
        error(what[0] == 'e' ? "edge %d covers a side of cell %d twice"
                             : "bedge %d covers a side of cell %d twice", line, c);
      m->sides[c] |= (unsigned char)(1u << s);
      return;
    }
  }
  error(what[0] == 'e' ? "edge %d is not a side of cell %d" : "bedge %d is not a side of cell %d",
        line, c);
}

static void check_cells(const Mesh *m) {
  for (int c = 0; c < m->ncell; c++) {
    double area = 0;
    for (int k = 0; k < 4; k++) {
      const double *a = X(m, m->a.cell[4 * c + k]), *b = X(m, m->a.cell[4 * c + (k + 1) % 4]);
      area += a[0] * b[1] - b[0] * a[1];
    }
    if (!(area > 0))
      error("cell %d is not counter-clockwise (area sign %d)", c, area < 0 ? -1 : 0);
  }
}

/* Normal (dy, -dx) of x[n1] - x[n2], dotted with (tx, ty). */
static double normal_dot(const Mesh *m, int n1, int n2, double tx, double ty) {
  double dx = X(m, n1)[0] - X(m, n2)[0], dy = X(m, n1)[1] - X(m, n2)[1];
  return dy * tx - dx * ty;
}

static void check_edges(Mesh *m) {
  for (int e = 0; e < m->nedge; e++) {
    const int v[4] = {m->a.edge[2 * e], m->a.edge[2 * e + 1], m->a.ecell[2 * e], m->a.ecell[2 * e + 1]};
    if (v[2] == v[3]) {
      error("edge %d has equal cells (c1 %d)", e, v[2]);
      continue;
    }
    cover_side(m, v[2], v[0], v[1], "edge", e);
    cover_side(m, v[3], v[0], v[1], "edge", e);
    double x1, y1, x2, y2;
    centroid(m, v[2], &x1, &y1);
    centroid(m, v[3], &x2, &y2);
    if (!(normal_dot(m, v[0], v[1], x2 - x1, y2 - y1) > 0))
      error("edge %d: normal does not point from cell %d to its c2", e, v[2]);
  }
}

static void check_bedges(Mesh *m) {
  for (int e = 0; e < m->nbedge; e++) {
    const int v[4] = {m->a.bedge[2 * e], m->a.bedge[2 * e + 1], m->a.becell[e], m->a.bound[e]};
    cover_side(m, v[2], v[0], v[1], "bedge", e);
    double cx, cy;
    centroid(m, v[2], &cx, &cy);
    double mx = (X(m, v[0])[0] + X(m, v[1])[0]) / 2, my = (X(m, v[0])[1] + X(m, v[1])[1]) / 2;
    if (!(normal_dot(m, v[0], v[1], mx - cx, my - cy) > 0))
      error("bedge %d: normal does not point out of cell %d", e, v[2]);
    int on_wall = mx > -0.01 && mx < 1.0 && fabs(my) < 0.07;
    int far = hypot(X(m, v[0])[0], X(m, v[0])[1]) > 8.99 &&
              hypot(X(m, v[1])[0], X(m, v[1])[1]) > 8.99; // |z|^2 >= 9 out there
    if (v[3] == 1 ? !on_wall : !far)
      error("bedge %d with bound %d is not on its boundary", e, v[3]);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: meshcheck FILE\n");
    return 2;
  }
  Mesh m = {0};
  read_mesh(argv[1], &m);
  check_cells(&m);
  if (nerrors == 0) { /* geometry needs valid cells */
    check_edges(&m);
    check_bedges(&m);
    for (int c = 0; c < m.ncell; c++)
      if (m.sides[c] != 0xF)
        error("cell %d has uncovered sides (mask %d)", c, m.sides[c]);
  }
  if (nerrors)
    fprintf(stderr, "meshcheck: %s: %d errors\n", argv[1], nerrors);
  else
    printf("meshcheck: %s: %d nodes, %d cells, %d edges, %d bedges: ok\n", argv[1], m.nnode,
           m.ncell, m.nedge, m.nbedge);
  airfoil_mesh_free(&m.a);
  free(m.sides);
  return nerrors != 0;
}
