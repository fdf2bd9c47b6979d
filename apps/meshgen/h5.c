/*
 * h5.c: `meshgen I J -o FILE.h5`, the mesh in OP2's HDF5 layout (as OP2's
 * HDF5 airfoil reads new_grid.h5; host/hdf5/op_hdf5.h): the sets nodes,
 * edges, bedges and cells as one-int datasets holding their sizes; the maps
 * pedge, pecell, pbedge, pbecell and pcell and the dats p_bound, p_x, p_q,
 * p_qold, p_adt and p_res as [size][dim] datasets with attributes size, dim
 * and type; and airfoil's constants gam, gm1, cfl, eps, mach, alpha and
 * qinf as datasets with attributes dim and type.
 *
 * The mesh goes through the .dat text and its one reader first, so the .h5
 * holds exactly what a program reading the .dat gets (coordinates rounded
 * to the six decimals of the text): the two runs agree bit for bit.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "../airfoil/airfoil_mesh.h"
#include "meshgen.h"

typedef struct {
  hid_t file;
  int failed;
} H5Out;

static void attr_int(hid_t obj, const char *name, int v) {
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0 || H5Awrite(a, H5T_NATIVE_INT, &v) < 0)
    v = -1;
  if (a >= 0)
    H5Aclose(a);
  H5Sclose(sp);
}

static void attr_type(hid_t obj, const char *type) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(type));
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, "type", t, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, t, type);
    H5Aclose(a);
  }
  H5Sclose(sp);
  H5Tclose(t);
}

/* rows < 0: a 1-D dataset of `cols` values (sets and constants); else [rows][cols].
 * attrs: 0 none (a set), 1 dim and type (a constant), 2 size, dim and type. */
static void put(H5Out *o, const char *name, long rows, int cols, int is_double, const void *data, int attrs) {
  hid_t mt = is_double ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT;
  hsize_t dims[2] = {(hsize_t)(rows < 0 ? cols : rows), (hsize_t)cols};
  hid_t sp = H5Screate_simple(rows < 0 ? 1 : 2, dims, NULL);
  hid_t ds = H5Dcreate2(o->file, name, mt, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (ds < 0 || H5Dwrite(ds, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0) {
    o->failed = 1;
  } else if (attrs) {
    if (attrs == 2)
      attr_int(ds, "size", (int)rows);
    attr_int(ds, "dim", cols);
    attr_type(ds, is_double ? "double" : "int");
  }
  if (ds >= 0)
    H5Dclose(ds);
  H5Sclose(sp);
}

int write_mesh_h5(const char *path, int I, int J, const double *X, const double *Y) {
  FILE *tmp = tmpfile();
  if (!tmp) {
    fprintf(stderr, "meshgen: cannot make a temporary file for %s\n", path);
    return 1;
  }
  write_mesh(tmp, I, J, X, Y);
  AirfoilMesh m;
  char err[512];
  if (fflush(tmp) != 0 || fseek(tmp, 0, SEEK_SET) != 0 ||
      airfoil_mesh_read_file(tmp, "(meshgen's mesh)", &m, NULL, err, sizeof err) != 0) {
    fprintf(stderr, "meshgen: cannot read back the mesh for %s: %s\n", path, err);
    fclose(tmp);
    return 1;
  }
  fclose(tmp);

  /* airfoil's constants, from float literals as its main program sets them */
  double gam = 1.4f, gm1 = gam - 1.0f, cfl = 0.9f, eps = 0.05f;
  double mach = 0.4f, alpha = 3.0f * atan(1.0f) / 45.0f;
  double p = 1.0f, r = 1.0f, u = sqrt(gam * p / r) * mach, e = p / (r * gm1) + 0.5f * u * u;
  double qinf[4] = {r, r * u, 0.0f, r * e};

  size_t nc = (size_t)m.ncell;
  double *q = malloc(4 * nc * sizeof(double)), *zero = calloc(4 * nc, sizeof(double));
  if (!q || !zero) {
    fprintf(stderr, "meshgen: out of memory for %s\n", path);
    return 1;
  }
  for (size_t c = 0; c < nc; c++)
    memcpy(q + 4 * c, qinf, sizeof qinf);

  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  H5Out o = {H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), 0};
  if (o.file < 0) {
    fprintf(stderr, "meshgen: cannot create %s\n", path);
    return 1;
  }
  put(&o, "nodes", -1, 1, 0, &m.nnode, 0);
  put(&o, "edges", -1, 1, 0, &m.nedge, 0);
  put(&o, "bedges", -1, 1, 0, &m.nbedge, 0);
  put(&o, "cells", -1, 1, 0, &m.ncell, 0);
  put(&o, "pedge", m.nedge, 2, 0, m.edge, 2);
  put(&o, "pecell", m.nedge, 2, 0, m.ecell, 2);
  put(&o, "pbedge", m.nbedge, 2, 0, m.bedge, 2);
  put(&o, "pbecell", m.nbedge, 1, 0, m.becell, 2);
  put(&o, "pcell", m.ncell, 4, 0, m.cell, 2);
  put(&o, "p_bound", m.nbedge, 1, 0, m.bound, 2);
  put(&o, "p_x", m.nnode, 2, 1, m.x, 2);
  put(&o, "p_q", m.ncell, 4, 1, q, 2);
  put(&o, "p_qold", m.ncell, 4, 1, zero, 2);
  put(&o, "p_adt", m.ncell, 1, 1, zero, 2);
  put(&o, "p_res", m.ncell, 4, 1, zero, 2);
  put(&o, "gam", -1, 1, 1, &gam, 1);
  put(&o, "gm1", -1, 1, 1, &gm1, 1);
  put(&o, "cfl", -1, 1, 1, &cfl, 1);
  put(&o, "eps", -1, 1, 1, &eps, 1);
  put(&o, "mach", -1, 1, 1, &mach, 1);
  put(&o, "alpha", -1, 1, 1, &alpha, 1);
  put(&o, "qinf", -1, 4, 1, qinf, 1);
  int failed = o.failed | (H5Fclose(o.file) < 0);
  free(q);
  free(zero);
  airfoil_mesh_free(&m);
  if (failed)
    fprintf(stderr, "meshgen: error writing %s\n", path);
  return failed;
}
