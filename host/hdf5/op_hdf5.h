/*
 * op_hdf5.h: OP2's HDF5 calls (libop2_hdf5, host/hdf5/op_hdf5.c).
 *
 * Programs include it after op_seq.h, as OP2's HDF5 programs do. The file
 * layout is OP2's (new_grid.h5): every object is a dataset at the top of
 * the file named after it. A set is a one-element int dataset holding its
 * size; a map is an int dataset [from size][dim] and a dat a dataset
 * [set size][dim], each with attributes size, dim and type; a constant is a
 * dataset of dim values with attributes dim and type. A file that does not
 * match what the program declares is a fatal error naming the file, the
 * dataset and what differs. op2c links libop2_hdf5 and libhdf5 into
 * programs that call any of these.
 */
#ifndef OP_HDF5_H
#define OP_HDF5_H

#include "op_seq.h"

#ifdef __cplusplus
extern "C" {
#endif

op_set op_decl_set_hdf5(const char *file, const char *name);
/* The set's size is the first extent of the dataset set_dataset_name. */
op_set op_decl_set_hdf5_infer_size(const char *file, const char *name, const char *set_dataset_name);
op_map op_decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name);
op_dat op_decl_dat_hdf5(op_set set, int dim, const char *type, const char *file, const char *name);

/* Reads the constant `name` (dim values of type) into const_data. */
void op_get_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name);
/* Writes a constant into file_name (created if missing, the dataset replaced if present). */
void op_write_const_hdf5(const char *name, int dim, const char *type, char *const_data, const char *file_name);

/* Every declared set, map and dat, in a new file (an existing one is replaced). */
void op_dump_to_hdf5(const char *file_name);
/* One dat into file_name (created if missing; a dataset of the same name is replaced). */
void op_fetch_data_hdf5_file(op_dat dat, const char *file_name);
/* The same, inside the group path_name ("/a/b"), made if missing. */
void op_fetch_data_hdf5_file_path(op_dat dat, const char *file_name, const char *path_name);

#ifdef __cplusplus
}
#endif

#endif /* OP_HDF5_H */
