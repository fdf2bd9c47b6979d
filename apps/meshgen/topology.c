/*
 * topology.c: numbering and connectivity, written in OP2's new_grid.dat
 * format. With 1-based (i, j): node(i,j) = i + (j-1)(3I+1) and
 * cell(i,j) = i + (j-1)3I; the file is 0-based. Edge (n1, n2, c1, c2) has
 * normal (dy, -dx) of x[n1] - x[n2] pointing from c1 into c2; a bedge's
 * normal points out of its cell.
 */
#include "meshgen.h"

typedef struct {
  FILE *f;
  int I, J;
} Mesh;

static int node(const Mesh *m, int i, int j) { return i + (j - 1) * (3 * m->I + 1) - 1; }
static int cell(const Mesh *m, int i, int j) { return i + (j - 1) * 3 * m->I - 1; }

static void line4(const Mesh *m, int a, int b, int c, int d) {
  fprintf(m->f, " %d %d %d %d \n", a, b, c, d);
}

static void write_cells(const Mesh *m) {
  for (int j = 1; j <= m->J; j++)
    for (int i = 1; i <= 3 * m->I; i++)
      line4(m, node(m, i, j), node(m, i + 1, j), node(m, i + 1, j + 1), node(m, i, j + 1));
}

static void write_edges(const Mesh *m) {
  int I = m->I, J = m->J;
  for (int j = 1; j <= J; j++) {
    for (int i = 1; i <= 3 * I; i++) {
      if (j == 1 && i <= I) /* the wake cut joins cell i to its mirror */
        line4(m, node(m, i, 1), node(m, i + 1, 1), cell(m, 3 * I + 1 - i, 1), cell(m, i, 1));
      if (j < J)
        line4(m, node(m, i, j + 1), node(m, i + 1, j + 1), cell(m, i, j), cell(m, i, j + 1));
      if (i < 3 * I)
        line4(m, node(m, i + 1, j), node(m, i + 1, j + 1), cell(m, i + 1, j), cell(m, i, j));
    }
  }
}

/* The airfoil wall (bound 1), then the far field (bound 2) clockwise from the outflow. */
static void write_bedges(const Mesh *m) {
  int I = m->I, J = m->J;
  for (int i = I + 1; i <= 2 * I; i++)
    line4(m, node(m, i + 1, 1), node(m, i, 1), cell(m, i, 1), 1);
  for (int j = 1; j <= J; j++)
    line4(m, node(m, 3 * I + 1, j + 1), node(m, 3 * I + 1, j), cell(m, 3 * I, j), 2);
  for (int i = 3 * I; i >= 1; i--)
    line4(m, node(m, i, J + 1), node(m, i + 1, J + 1), cell(m, i, J), 2);
  for (int j = J; j >= 1; j--)
    line4(m, node(m, 1, j), node(m, 1, j + 1), cell(m, 1, j), 2);
}

void write_mesh(FILE *f, int I, int J, const double *X, const double *Y) {
  Mesh m = {f, I, J};
  long nnode = (long)(3 * I + 1) * (J + 1);
  fprintf(f, " %ld %d %d %d \n", nnode, 3 * I * J, 6 * I * J - 2 * I - J, 4 * I + 2 * J);
  for (long n = 0; n < nnode; n++)
    fprintf(f, " %f %f \n", X[n], Y[n]);
  write_cells(&m);
  write_edges(&m);
  write_bedges(&m);
}
