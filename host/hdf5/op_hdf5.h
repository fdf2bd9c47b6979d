/*
 * op_hdf5.h: OP2's HDF5 calls (libop2_hdf5, host/hdf5/op_hdf5.c). As in
 * OP2, whose op_lib_c.h includes op_hdf5.h, op_seq.h declares them, so a
 * program may include either; op2c links libop2_hdf5 and libhdf5 into a
 * program that calls any of them.
 *
 * The file layout is OP2's (new_grid.h5): every object is a dataset at the
 * top of the file named after it. A set is a one-element int dataset
 * holding its size; a map is an int dataset [from size][dim] and a dat a
 * dataset [set size][dim], each with attributes size, dim and type; a
 * constant is a dataset of dim values with attributes dim and type.
 *
 * As OP2 does: a missing map or dat gives NULL and a missing constant
 * keeps its value (each with a warning), so a program can probe for
 * optional data; values of another type are converted (with a warning). A
 * missing file or set, a shape that does not match the declaration, or a
 * file libhdf5 cannot read is a fatal error naming the file, the dataset
 * and what differs.
 *
 *   op_decl_set_hdf5_infer_size(file, name, dataset): the set's size is
 *     the first extent of dataset
 *   op_write_const_hdf5: writes a constant (the file made if missing, the
 *     dataset replaced if present)
 *   op_dump_to_hdf5: every declared set, map and dat in a new file
 *   op_fetch_data_hdf5_file(dat, file), ..._path(dat, file, group): one
 *     dat into the file (the groups made if missing)
 */
#ifndef OP_HDF5_H
#define OP_HDF5_H

#include "op_seq.h"

#endif /* OP_HDF5_H */
