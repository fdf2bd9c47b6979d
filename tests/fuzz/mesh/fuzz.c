/* tests/fuzz/mesh: the airfoil mesh reader (apps/airfoil/airfoil_mesh.h),
 * the one that airfoil dp/sp, their oracle, meshcheck and op2place use,
 * through its entry points: airfoil_mesh_read on a file holding the input,
 * then op2place's place_airfoil_graph on the same file. A mesh it accepts
 * must keep its promises (every index inside its set, finite coordinates,
 * codes 1 or 2); a refusal must name the file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "airfoil_mesh.h"
#include "place.h"

static char path[64];
static FILE *devnull;

static void check_mesh(const AirfoilMesh *m) {
  for (long i = 0; i < 2L * m->nnode; i++)
    if (!isfinite(m->x[i])) abort();
  for (long i = 0; i < 4L * m->ncell; i++)
    if (m->cell[i] < 0 || m->cell[i] >= m->nnode) abort();
  for (long i = 0; i < 2L * m->nedge; i++)
    if (m->edge[i] < 0 || m->edge[i] >= m->nnode || m->ecell[i] < 0 || m->ecell[i] >= m->ncell) abort();
  for (long i = 0; i < m->nbedge; i++)
    if (m->bedge[2 * i] < 0 || m->bedge[2 * i] >= m->nnode || m->bedge[2 * i + 1] < 0 ||
        m->bedge[2 * i + 1] >= m->nnode || m->becell[i] < 0 || m->becell[i] >= m->ncell ||
        (m->bound[i] != 1 && m->bound[i] != 2))
      abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull) {
    snprintf(path, sizeof path, "/tmp/fuzz-mesh-%ld.dat", (long)getpid());
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
  }
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f)) abort();

  char err[1024];
  AirfoilMesh m;
  if (airfoil_mesh_read(path, &m, devnull, err, sizeof err) == 0) {
    check_mesh(&m);
    airfoil_mesh_free(&m);
  } else if (strncmp(err, path, strlen(path)) != 0) {
    abort();  /* every refusal names the file */
  }
  PlaceGraph *g = place_airfoil_graph(path, size & 1 ? PLACE_AIRFOIL_ONE_GROUP : PLACE_AIRFOIL_GROUP_PER_SET, 64,
                                      devnull, err, sizeof err);
  if (g) place_graph_free(g);
  else if (strncmp(err, path, strlen(path)) != 0) abort();
  unlink(path);
  return 0;
}
