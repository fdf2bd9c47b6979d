/*
 * op_hdf5.c: OP2's HDF5 declarations and dumps over libhdf5 (layout in
 * op_hdf5.h, with what OP2 accepts and refuses). Readers check every
 * dataset against what the program declares (present, a dataset, numbers,
 * shape, type) before reading it, so a wrong file is a warning or a fatal
 * error that names the file, the dataset and the difference, never a
 * crash. libhdf5's own error stack printing is switched off: our messages
 * say it instead.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hdf5.h>

#include "../seq/op_internal.h"
#include "op_hdf5.h"

/* OP2 type strings and the HDF5 types they are read into and written as. */
static hid_t mem_type(const char *type, const char *where) {
  op_type_size_or_die(type, where);
  if (strcmp(type, "double") == 0) return H5T_NATIVE_DOUBLE;
  if (strcmp(type, "float") == 0) return H5T_NATIVE_FLOAT;
  if (strcmp(type, "int") == 0) return H5T_NATIVE_INT;
  if (strcmp(type, "uint") == 0) return H5T_NATIVE_UINT;
  if (strcmp(type, "ll") == 0) return H5T_NATIVE_LLONG;
  if (strcmp(type, "ull") == 0) return H5T_NATIVE_ULLONG;
  return H5T_NATIVE_UCHAR; /* bool: one byte */
}

static bool is_float_type(const char *type) { return strcmp(type, "double") == 0 || strcmp(type, "float") == 0; }

static void quiet(void) { H5Eset_auto2(H5E_DEFAULT, NULL, NULL); }

static hid_t open_read(const char *file, const char *where) {
  quiet();
  FILE *f = fopen(file, "rb");
  if (!f)
    op_fatal("%s: cannot open \"%s\": %s", where, file, strerror(errno));
  fclose(f);
  if (H5Fis_hdf5(file) <= 0)
    op_fatal("%s: \"%s\" is not an HDF5 file", where, file);
  hid_t fid = H5Fopen(file, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (fid < 0)
    op_fatal("%s: \"%s\": libhdf5 cannot open it (truncated or damaged?)", where, file);
  return fid;
}

/* A readable file, or a new one when none is there (truncate: always new). */
static hid_t open_write(const char *file, bool truncate, const char *where) {
  quiet();
  hid_t fid = -1;
  FILE *f = truncate ? NULL : fopen(file, "rb");
  if (f) {
    fclose(f);
    if (H5Fis_hdf5(file) <= 0)
      op_fatal("%s: \"%s\" exists and is not an HDF5 file", where, file);
    fid = H5Fopen(file, H5F_ACC_RDWR, H5P_DEFAULT);
  } else {
    fid = H5Fcreate(file, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  }
  if (fid < 0)
    op_fatal("%s: cannot write \"%s\"", where, file);
  return fid;
}

typedef struct {
  hid_t id;
  int rank;
  hsize_t dims[2];     /* valid for rank <= 2 */
  long long count;     /* elements */
  H5T_class_t cls;
  size_t esize;       /* bytes per stored value */
} Dataset;

/* Opens dataset `name` and checks that it is one of numbers, rank <= 2.
 * what: NULL, and a missing dataset is fatal; else (a map, dat or const,
 * which OP2 lets a program probe for) a warning naming it, and id -1. */
static Dataset open_dataset(hid_t fid, const char *file, const char *name, const char *where, const char *what) {
  Dataset d = {.id = -1};
  if (!name || !*name)
    op_fatal("%s: \"%s\": no dataset name given", where, file);
  htri_t there = strchr(name, '/') ? 1 : H5Lexists(fid, name, H5P_DEFAULT);
  hid_t obj = there > 0 ? H5Oopen(fid, name, H5P_DEFAULT) : -1;
  if (obj < 0 && what) {
    fflush(stdout);
    fprintf(stderr, "op2 warning: %s: \"%s\": no dataset \"%s\" in the file: %s\n", where, file, name, what);
    return d;
  }
  if (obj < 0)
    op_fatal("%s: \"%s\": no dataset \"%s\" in the file", where, file, name);
  H5I_type_t kind = H5Iget_type(obj);
  H5Oclose(obj);
  if (kind != H5I_DATASET)
    op_fatal("%s: \"%s\": \"%s\" is not a dataset", where, file, name);
  d.id = H5Dopen2(fid, name, H5P_DEFAULT);
  if (d.id < 0)
    op_fatal("%s: \"%s\": cannot open dataset \"%s\"", where, file, name);
  hid_t space = H5Dget_space(d.id), ftype = H5Dget_type(d.id);
  if (space < 0 || ftype < 0)
    op_fatal("%s: \"%s\": dataset \"%s\" has no readable shape or type", where, file, name);
  d.cls = H5Tget_class(ftype);
  d.esize = H5Tget_size(ftype);
  H5Tclose(ftype);
  if (d.cls != H5T_INTEGER && d.cls != H5T_FLOAT)
    op_fatal("%s: \"%s\": dataset \"%s\" does not hold numbers (an HDF5 %s)", where, file, name,
             d.cls == H5T_STRING ? "string" : d.cls == H5T_COMPOUND ? "compound" : "non-numeric type");
  d.rank = H5Sget_simple_extent_ndims(space);
  if (d.rank < 0 || d.rank > 2)
    op_fatal("%s: \"%s\": dataset \"%s\" has rank %d, expected 1 or 2", where, file, name, d.rank);
  d.dims[0] = d.dims[1] = 1;
  if (d.rank > 0 && H5Sget_simple_extent_dims(space, d.dims, NULL) < 0)
    op_fatal("%s: \"%s\": dataset \"%s\" has no readable shape", where, file, name);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  H5Sclose(space);
  if (n < 0)
    op_fatal("%s: \"%s\": dataset \"%s\" has no readable shape", where, file, name);
  d.count = (long long)n;
  return d;
}

static char *shape_text(const Dataset *d, char *buf, size_t len) {
  if (d->rank == 0)
    snprintf(buf, len, "a scalar");
  else if (d->rank == 1)
    snprintf(buf, len, "shape [%llu]", (unsigned long long)d->dims[0]);
  else
    snprintf(buf, len, "shape [%llu][%llu]", (unsigned long long)d->dims[0], (unsigned long long)d->dims[1]);
  return buf;
}

/* The dataset must be [rows][cols] ([rows] when cols is 1). */
static void need_shape(const Dataset *d, long long rows, int cols, const char *file, const char *name,
                       const char *where, const char *why) {
  bool ok = d->rank == 2 ? (long long)d->dims[0] == rows && (long long)d->dims[1] == cols
            : d->rank == 1 ? cols == 1 && (long long)d->dims[0] == rows
                           : rows == 1 && cols == 1;
  if (!ok) {
    char buf[96];
    op_fatal("%s: \"%s\": dataset \"%s\" has %s, expected [%lld][%d] (%s)", where, file, name,
             shape_text(d, buf, sizeof buf), rows, cols, why);
  }
}

/* The values are read as `type`, converted by libhdf5 as OP2 converts them;
 * when the dataset holds another kind of number, or its string attribute
 * `type` names another type, a warning says so. */
static void warn_type(const char *where, const char *file, const char *name, const char *has, const char *type) {
  fflush(stdout);
  fprintf(stderr, "op2 warning: %s: \"%s\": dataset \"%s\" %s, but it is declared \"%s\": converting\n", where,
          file, name, has, type);
}

static void need_type(const Dataset *d, const char *type, const char *file, const char *name, const char *where) {
  bool want_float = is_float_type(type);
  if ((d->cls == H5T_FLOAT) != want_float) {
    warn_type(where, file, name, d->cls == H5T_FLOAT ? "holds floating-point values" : "holds integer values", type);
    return;
  }
  // The stored values' size, not the `type` attribute: libhdf5 1.10 can
  // read freed memory parsing a damaged file's attributes (the fuzz
  // harness's regress/libhdf5-attribute-use-after-free), so none is read.
  if (d->esize != (size_t)op_type_size(type)) {
    char has[96];
    snprintf(has, sizeof has, "holds %zu-byte %s", d->esize, d->cls == H5T_FLOAT ? "floats" : "integers");
    warn_type(where, file, name, has, type);
  }
}

static void read_all(Dataset *d, hid_t mtype, void *buf, const char *file, const char *name, const char *where) {
  if (d->count > 0 && H5Dread(d->id, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    op_fatal("%s: \"%s\": cannot read dataset \"%s\" (values out of range for its declared type?)", where,
             file, name);
  H5Dclose(d->id);
  d->id = -1;
}

op_set op_decl_set_hdf5(const char *file, const char *name) {
  const char *where = "op_decl_set_hdf5";
  hid_t fid = open_read(file, where);
  Dataset d = open_dataset(fid, file, name, where, NULL);
  if (d.cls != H5T_INTEGER)
    op_fatal("%s: \"%s\": dataset \"%s\" holds floating-point values, expected the set size (one int)", where,
             file, name);
  need_shape(&d, 1, 1, file, name, where, "one int: the set size");
  long long size = 0;
  read_all(&d, H5T_NATIVE_LLONG, &size, file, name, where);
  H5Fclose(fid);
  if (size < 0 || size > 0x7fffffff)
    op_fatal("%s: \"%s\": dataset \"%s\" gives the set size %lld, expected 0..2147483647", where, file, name,
             size);
  return op_decl_set((int)size, name);
}

op_set op_decl_set_hdf5_infer_size(const char *file, const char *name, const char *set_dataset_name) {
  const char *where = "op_decl_set_hdf5_infer_size";
  hid_t fid = open_read(file, where);
  Dataset d = open_dataset(fid, file, set_dataset_name, where, NULL);
  long long size = d.rank == 0 ? 1 : (long long)d.dims[0];
  H5Dclose(d.id);
  H5Fclose(fid);
  if (size > 0x7fffffff)
    op_fatal("%s: \"%s\": dataset \"%s\" has %lld rows, more than a set can hold", where, file,
             set_dataset_name, size);
  return op_decl_set((int)size, name);
}

op_map op_decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name) {
  const char *where = "op_decl_map_hdf5";
  if (!from || !to)
    op_fatal("%s: map \"%s\" has a NULL %s set", where, name ? name : "(unnamed)", from ? "to" : "from");
  if (dim < 1)
    op_fatal("%s: map \"%s\" has dim %d (must be at least 1)", where, name ? name : "(unnamed)", dim);
  hid_t fid = open_read(file, where);
  Dataset d = open_dataset(fid, file, name, where, "the map is NULL, as in OP2");
  if (d.id < 0) {
    H5Fclose(fid);
    return NULL;
  }
  if (d.cls != H5T_INTEGER)
    op_fatal("%s: \"%s\": dataset \"%s\" holds floating-point values, expected map indices (int)", where,
             file, name);
  char why[160];
  snprintf(why, sizeof why, "set \"%s\" size %d, map dim %d", from->name, from->size, dim);
  need_shape(&d, from->size, dim, file, name, where, why);
  int *buf = op_xcalloc((size_t)from->size * (size_t)dim, sizeof(int), "an HDF5 map");
  read_all(&d, H5T_NATIVE_INT, buf, file, name, where);
  H5Fclose(fid);
  op_map m = op_decl_map(from, to, dim, buf, name); /* copies, and checks every index */
  free(buf);
  return m;
}

op_dat op_decl_dat_hdf5(op_set set, int dim, const char *type, const char *file, const char *name) {
  const char *where = "op_decl_dat_hdf5";
  if (!set)
    op_fatal("%s: dat \"%s\" has a NULL set", where, name ? name : "(unnamed)");
  if (dim < 1)
    op_fatal("%s: dat \"%s\" has dim %d (must be at least 1)", where, name ? name : "(unnamed)", dim);
  int esize = op_type_size_or_die(type, where);
  hid_t mtype = mem_type(type, where);
  hid_t fid = open_read(file, where);
  Dataset d = open_dataset(fid, file, name, where, "the dat is NULL, as in OP2");
  if (d.id < 0) {
    H5Fclose(fid);
    return NULL;
  }
  char why[160];
  snprintf(why, sizeof why, "set \"%s\" size %d, dat dim %d", set->name, set->size, dim);
  need_shape(&d, set->size, dim, file, name, where, why);
  need_type(&d, type, file, name, where);
  char *buf = op_xcalloc((size_t)set->size * (size_t)dim, (size_t)esize, "an HDF5 dat");
  read_all(&d, mtype, buf, file, name, where);
  H5Fclose(fid);
  op_dat dat = op_decl_dat(set, dim, type, buf, name);
  free(buf);
  return dat;
}

void op_get_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name) {
  const char *where = "op_get_const_hdf5";
  if (dim < 1)
    op_fatal("%s: const \"%s\" has dim %d (must be at least 1)", where, name ? name : "(unnamed)", dim);
  if (!const_data)
    op_fatal("%s: const \"%s\" has a NULL data pointer", where, name ? name : "(unnamed)");
  hid_t mtype = mem_type(type, where);
  hid_t fid = open_read(file_name, where);
  Dataset d = open_dataset(fid, file_name, name, where, "the const keeps its value, as in OP2");
  if (d.id < 0) {
    H5Fclose(fid);
    return;
  }
  if (d.count != dim) {
    char buf[96];
    op_fatal("%s: \"%s\": dataset \"%s\" has %s (%lld values), expected %d (the const's dim)", where,
             file_name, name, shape_text(&d, buf, sizeof buf), d.count, dim);
  }
  need_type(&d, type, file_name, name, where);
  read_all(&d, mtype, const_data, file_name, name, where);
  H5Fclose(fid);
}

//
// Writing
//

static void attr_int(hid_t obj, const char *name, int v) {
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, H5T_NATIVE_INT, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, H5T_NATIVE_INT, &v);
    H5Aclose(a);
  }
  H5Sclose(sp);
}

static void attr_str(hid_t obj, const char *name, const char *v) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) ? strlen(v) : 1);
  hid_t sp = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, t, sp, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, t, v);
    H5Aclose(a);
  }
  H5Sclose(sp);
  H5Tclose(t);
}

/* Writes `rows` x `cols` values (rank 1 when rows < 0: cols values) as dataset `name` under loc,
 * replacing one of that name. size < 0: no size attribute. */
static void write_dataset(hid_t loc, const char *file, const char *name, long long rows, int cols,
                          const char *type, const void *data, int size_attr, bool attrs, const char *where) {
  hid_t mtype = mem_type(type, where);
  if (H5Lexists(loc, name, H5P_DEFAULT) > 0 && H5Ldelete(loc, name, H5P_DEFAULT) < 0)
    op_fatal("%s: \"%s\": cannot replace dataset \"%s\"", where, file, name);
  hsize_t dims[2] = {(hsize_t)(rows < 0 ? cols : rows), (hsize_t)cols};
  hid_t sp = H5Screate_simple(rows < 0 ? 1 : 2, dims, NULL);
  hid_t ds = sp < 0 ? -1 : H5Dcreate2(loc, name, mtype, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (ds < 0 || ((rows < 0 ? cols : rows * cols) > 0 && H5Dwrite(ds, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0))
    op_fatal("%s: \"%s\": cannot write dataset \"%s\"", where, file, name);
  if (attrs) {
    if (size_attr >= 0)
      attr_int(ds, "size", size_attr);
    attr_int(ds, "dim", cols);
    attr_str(ds, "type", type);
  }
  H5Dclose(ds);
  H5Sclose(sp);
}

static void close_written(hid_t fid, const char *file, const char *where) {
  if (H5Fclose(fid) < 0)
    op_fatal("%s: error writing \"%s\"", where, file);
}

void op_write_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name) {
  const char *where = "op_write_const_hdf5";
  if (dim < 1 || !const_data || !name)
    op_fatal("%s: const \"%s\" needs a name, dim >= 1 (got %d) and data", where, name ? name : "(unnamed)", dim);
  hid_t fid = open_write(file_name, false, where);
  write_dataset(fid, file_name, name, -1, dim, type, const_data, -1, true, where);
  close_written(fid, file_name, where);
}

static void write_dat(hid_t loc, op_dat dat, const char *file, const char *where) {
  op_hook_host_read(dat);
  write_dataset(loc, file, dat->name, dat->set->size, dat->dim, dat->type, dat->data, dat->set->size, true, where);
}

void op_dump_to_hdf5(const char *file_name) {
  const char *where = "op_dump_to_hdf5";
  hid_t fid = open_write(file_name, true, where);
  for (int i = 0; i < op_state.nsets; i++) {
    op_set s = op_state.sets[i];
    int size = s->size;
    write_dataset(fid, file_name, s->name, -1, 1, "int", &size, -1, false, where);
  }
  for (int i = 0; i < op_state.nmaps; i++) {
    op_map m = op_state.maps[i];
    write_dataset(fid, file_name, m->name, m->from->size, m->dim, "int", m->map, m->from->size, true, where);
  }
  for (int i = 0; i < op_state.ndats; i++)
    if (op_state.dats[i] && !op_state.dats[i]->overlay_of) /* an overlay is its base dat's data */
      write_dat(fid, op_state.dats[i], file_name, where);
  close_written(fid, file_name, where);
}

static void check_dat(op_dat dat, const char *where) {
  if (!dat)
    op_fatal("%s: NULL dat", where);
}

void op_fetch_data_hdf5_file(op_dat dat, const char *file_name) {
  const char *where = "op_fetch_data_hdf5_file";
  check_dat(dat, where);
  hid_t fid = open_write(file_name, false, where);
  write_dat(fid, dat, file_name, where);
  close_written(fid, file_name, where);
}

void op_fetch_data_hdf5_file_path(op_dat dat, const char *file_name, const char *path_name) {
  const char *where = "op_fetch_data_hdf5_file_path";
  check_dat(dat, where);
  hid_t fid = open_write(file_name, false, where);
  hid_t grp = fid;
  if (path_name && *path_name && strcmp(path_name, "/") != 0) {
    if (H5Lexists(fid, path_name, H5P_DEFAULT) > 0) {
      grp = H5Gopen2(fid, path_name, H5P_DEFAULT);
    } else {
      hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
      H5Pset_create_intermediate_group(lcpl, 1);
      grp = H5Gcreate2(fid, path_name, lcpl, H5P_DEFAULT, H5P_DEFAULT);
      H5Pclose(lcpl);
    }
    if (grp < 0)
      op_fatal("%s: \"%s\": cannot make or open the group \"%s\"", where, file_name, path_name);
  }
  write_dat(grp, dat, file_name, where);
  if (grp != fid)
    H5Gclose(grp);
  close_written(fid, file_name, where);
}
