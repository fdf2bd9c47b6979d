/*
 * airfoil_io.h: command line and mesh reading shared by airfoil dp, sp and
 * the plain-C++ oracle in tests/op2. Host code only: no OP2 calls here.
 *
 *   airfoil [--mesh FILE] [--iters N] [--print-every K] [--digits D] [--output FILE]
 *
 * --digits D prints the rms with D significant digits instead of OP2's %10.5e;
 * --output FILE writes the final q with op_print_dat_to_txtfile (OP2's
 * airfoil always writes out_grid_seq.dat; ours writes nothing by default).
 */
#ifndef AIRFOIL_IO_H
#define AIRFOIL_IO_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *mesh;
  int iters;
  int print_every;
  int digits;          // 0: OP2's %10.5e
  const char *output;  // NULL: no output file
} AirfoilOptions;

static void airfoil_usage(const char *msg, const char *arg) {
  fprintf(stderr, "airfoil: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "usage: airfoil [--mesh FILE] [--iters N] [--print-every K] [--digits D] "
                  "[--output FILE]\n");
  exit(2);
}

static int airfoil_int_arg(const char *opt, const char *s, int lo, int hi) {
  char *end;
  errno = 0;
  long v = s ? strtol(s, &end, 10) : 0;
  if (!s || errno || end == s || *end || v < lo || v > hi) {
    fprintf(stderr, "airfoil: %s needs an integer from %d to %d, got \"%s\"\n", opt, lo, hi,
            s ? s : "");
    exit(2);
  }
  return (int)v;
}

static AirfoilOptions airfoil_options(int argc, char **argv) {
  AirfoilOptions o = {"./new_grid.dat", 1000, 100, 0, NULL};
  for (int a = 1; a < argc; a++) {
    const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    if (strcmp(opt, "--mesh") == 0 && val)
      o.mesh = val;
    else if (strcmp(opt, "--output") == 0 && val)
      o.output = val;
    else if (strcmp(opt, "--iters") == 0)
      o.iters = airfoil_int_arg(opt, val, 1, 100000000);
    else if (strcmp(opt, "--print-every") == 0)
      o.print_every = airfoil_int_arg(opt, val, 1, 100000000);
    else if (strcmp(opt, "--digits") == 0)
      o.digits = airfoil_int_arg(opt, val, 1, 40);
    else if (strcmp(opt, "--mesh") == 0 || strcmp(opt, "--output") == 0)
      airfoil_usage("missing file name after", opt);
    else
      airfoil_usage("unknown argument", opt);
    a++;
  }
  return o;
}

// The mesh as new_grid.dat holds it (see apps/meshgen); 0-based indices.
typedef struct {
  int nnode, ncell, nedge, nbedge;
  int *cell;            // 4 nodes per cell
  int *edge, *ecell;    // 2 nodes, 2 cells per edge
  int *bedge, *becell;  // 2 nodes, 1 cell per boundary edge
  int *bound;           // 1 wall, 2 far field
  double *x;            // 2 coordinates per node
} AirfoilMesh;

static void *airfoil_alloc(size_t n, size_t size) {
  void *p = malloc(n * size + 1);
  if (!p) {
    fprintf(stderr, "airfoil: out of memory\n");
    exit(1);
  }
  return p;
}

static void airfoil_bad_mesh(const char *path, const char *what, int line) {
  fprintf(stderr, "airfoil: mesh %s: cannot read %s %d\n", path, what, line);
  exit(1);
}

static void airfoil_read_mesh(const char *path, AirfoilMesh *m) {
  FILE *fp = fopen(path, "r");
  if (!fp) {
    fprintf(stderr, "airfoil: cannot open mesh %s: %s\n", path, strerror(errno));
    exit(1);
  }
  if (fscanf(fp, "%d %d %d %d \n", &m->nnode, &m->ncell, &m->nedge, &m->nbedge) != 4 ||
      m->nnode < 0 || m->ncell < 1 || m->nedge < 0 || m->nbedge < 0 || m->ncell > 100000000 ||
      m->nnode > 100000000 || m->nedge > 100000000 || m->nbedge > 100000000)
    airfoil_bad_mesh(path, "the header, line", 1);
  m->cell = (int *)airfoil_alloc(4 * (size_t)m->ncell, sizeof(int));
  m->edge = (int *)airfoil_alloc(2 * (size_t)m->nedge, sizeof(int));
  m->ecell = (int *)airfoil_alloc(2 * (size_t)m->nedge, sizeof(int));
  m->bedge = (int *)airfoil_alloc(2 * (size_t)m->nbedge, sizeof(int));
  m->becell = (int *)airfoil_alloc((size_t)m->nbedge, sizeof(int));
  m->bound = (int *)airfoil_alloc((size_t)m->nbedge, sizeof(int));
  m->x = (double *)airfoil_alloc(2 * (size_t)m->nnode, sizeof(double));
  for (int n = 0; n < m->nnode; n++)
    if (fscanf(fp, "%lf %lf \n", &m->x[2 * n], &m->x[2 * n + 1]) != 2)
      airfoil_bad_mesh(path, "node", n);
  for (int n = 0; n < m->ncell; n++)
    if (fscanf(fp, "%d %d %d %d \n", &m->cell[4 * n], &m->cell[4 * n + 1], &m->cell[4 * n + 2],
               &m->cell[4 * n + 3]) != 4)
      airfoil_bad_mesh(path, "cell", n);
  for (int n = 0; n < m->nedge; n++)
    if (fscanf(fp, "%d %d %d %d \n", &m->edge[2 * n], &m->edge[2 * n + 1], &m->ecell[2 * n],
               &m->ecell[2 * n + 1]) != 4)
      airfoil_bad_mesh(path, "edge", n);
  for (int n = 0; n < m->nbedge; n++)
    if (fscanf(fp, "%d %d %d %d \n", &m->bedge[2 * n], &m->bedge[2 * n + 1], &m->becell[n],
               &m->bound[n]) != 4)
      airfoil_bad_mesh(path, "bedge", n);
  fclose(fp);
}

static void airfoil_free_mesh(AirfoilMesh *m) {
  free(m->cell);
  free(m->edge);
  free(m->ecell);
  free(m->bedge);
  free(m->becell);
  free(m->bound);
  free(m->x);
}

// OP2's classic line " %d  %10.5e \n", or the rms to D significant digits.
static void airfoil_print_rms(int iter, double rms, int digits) {
  if (digits)
    printf(" %d  %.*e \n", iter, digits - 1, rms);
  else
    printf(" %d  %10.5e \n", iter, rms);
}

#endif
