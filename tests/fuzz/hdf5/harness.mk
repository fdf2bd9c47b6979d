# OP2's HDF5 readers (host/hdf5/op_hdf5.c) on libhdf5. The flags are
# recursive (=): pkg-config runs when the harness is built, not at parse.
FUZZ_NAMES += hdf5
FUZZ_SRCS_hdf5  := tests/fuzz/hdf5/fuzz.c host/hdf5/op_hdf5.c
FUZZ_FLAGS_hdf5  = $(HDF5_CFLAGS) -Ihost/seq -Ihost/hdf5
FUZZ_DEPS_hdf5  := host/hdf5/op_hdf5.h host/seq/op_internal.h host/seq/op_seq.h
FUZZ_LIBS_hdf5   = $(HDF5_LIBS)
