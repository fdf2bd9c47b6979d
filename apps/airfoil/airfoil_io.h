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

#include "airfoil_mesh.h"

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

// The mesh: airfoil_mesh.h reads it, or says why not (FILE:LINE: error: ...) and airfoil
// exits 1; degenerate cells are warned about on stderr.
static void airfoil_read_mesh(const char *path, AirfoilMesh *m) {
  char err[512];
  if (airfoil_mesh_read(path, m, stderr, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    exit(1);
  }
}

static void airfoil_free_mesh(AirfoilMesh *m) { airfoil_mesh_free(m); }

// OP2's classic line " %d  %10.5e \n", or the rms to D significant digits.
static void airfoil_print_rms(int iter, double rms, int digits) {
  if (digits)
    printf(" %d  %.*e \n", iter, digits - 1, rms);
  else
    printf(" %d  %10.5e \n", iter, rms);
}

#endif
