# host/hdf5/rules.mk: libop2_hdf5, OP2's op_*_hdf5 calls over libhdf5.
#
# op2c links it, and the libhdf5 flags in $(LIB)/op2_hdf5.libs, into the
# programs that call op_*_hdf5 (compiler/toolchain.c). The flags come from
# pkg-config when a recipe first needs them (HDF5_CFLAGS/HDF5_LIBS in the
# Makefile), never while the makefiles are parsed.

HDF5RT_SRCS := host/hdf5/op_hdf5.c
HDF5RT_OBJS := $(HDF5RT_SRCS:%.c=$(OBJ)/%.o)
HDF5RT_LIB  := $(LIB)/libop2_hdf5.a
HDF5RT_INC  := $(BUILD)/include/op_hdf5.h
HDF5RT_LIBS := $(LIB)/op2_hdf5.libs

$(OBJ)/host/hdf5/%.o: host/hdf5/%.c host/hdf5/op_hdf5.h host/seq/op_seq.h host/seq/op_internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HDF5_CFLAGS) -Ihost/seq -c $< -o $@

$(HDF5RT_LIB): $(HDF5RT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(HDF5RT_INC): host/hdf5/op_hdf5.h
	@mkdir -p $(dir $@)
	cp $< $@

$(HDF5RT_LIBS): Makefile host/hdf5/rules.mk
	@mkdir -p $(dir $@)
	printf '%s' '$(HDF5_LIBS)' >$@

TARGETS += $(HDF5RT_LIB) $(HDF5RT_INC) $(HDF5RT_LIBS)
