/*
^ * meshgen.c: `meshgen I J [-o FILE]` writes OP2's NACA0012 airfoil mesh with
 * 3I x J cells (I cells around each of the wake and the two airfoil sides,
 * J from the airfoil to the far field). 400 600 is airfoil's standard mesh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "meshgen.h"

#define MAX_CELLS 100000000L /* keeps every count well inside an int */

static _Noreturn void usage(const char *msg, const char *arg) {
  if (msg)
    fprintf(stderr, "meshgen: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
  fprintf(stderr, "usage: meshgen I J [-o FILE]   (I >= 2, J >= 1; default FILE new_grid.dat; FILE.h5: OP2's HDF5 layout)\n");
  exit(2);
}

static int parse_count(const char *s, int min, const char *what) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < min || v > MAX_CELLS)
    usage(what, s);
  return (int)v;
}

int main(int argc, char **argv) {
  const char *out = "new_grid.dat";
  const char *pos[2];
  int npos = 0;
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-o") == 0) {
      if (++a == argc)
        usage("-o needs a file name", NULL);
      out = argv[a];
    } else if (argv[a][0] == '-' && argv[a][1] != '\0') {
      usage("unknown option", argv[a]);
    } else if (npos < 2) {
      pos[npos++] = argv[a];
    } else {
      usage("too many arguments", argv[a]);
    }
  }
  if (npos != 2)
    usage(npos == 0 ? NULL : "missing J", NULL);
  int I = parse_count(pos[0], 2, "I must be an integer >= 2");
  int J = parse_count(pos[1], 1, "J must be a positive integer");
  if (6L * I * J > MAX_CELLS)
    usage("mesh too large (6*I*J must not exceed 100000000)", NULL);

  size_t nnode = (size_t)(3 * I + 1) * (size_t)(J + 1);
  double *X = malloc(nnode * sizeof(double)), *Y = malloc(nnode * sizeof(double));
  if (!X || !Y) {
    fprintf(stderr, "meshgen: out of memory for %zu nodes\n", nnode);
    return 1;
  }
  naca_coords(I, J, X, Y);
  size_t len = strlen(out);
  if (len > 3 && strcmp(out + len - 3, ".h5") == 0) { /* OP2's HDF5 layout (h5.c) */
    int rc = write_mesh_h5(out, I, J, X, Y);
    free(X);
    free(Y);
    return rc;
  }
  FILE *f = fopen(out, "w");
  if (!f) {
    fprintf(stderr, "meshgen: cannot open %s: %s\n", out, strerror(errno));
    return 1;
  }
  write_mesh(f, I, J, X, Y);
  if (ferror(f) | fclose(f)) {
    fprintf(stderr, "meshgen: error writing %s\n", out);
    return 1;
  }
  free(X);
  free(Y);
  return 0;
}
