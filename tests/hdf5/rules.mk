# tests/hdf5/rules.mk: OP2's HDF5 calls (host/hdf5) on the seq target.
# (Included from apps/rules.mk, after OP2C_RUN and OP2_DEPS.)

HDF5_TESTS := $(BIN)/tests/hdf5/airfoil_hdf5 $(BIN)/tests/hdf5/hdf5_bad
HDF5_TEST_DEPS := $(OP2_DEPS) $(HDF5RT_LIB) $(HDF5RT_INC) $(HDF5RT_LIBS)

$(BIN)/tests/hdf5/airfoil_hdf5: tests/hdf5/airfoil_hdf5.cpp apps/airfoil/airfoil_io.h $(wildcard apps/airfoil/dp/*.h) $(HDF5_TEST_DEPS)
	@mkdir -p $(@D)
	$(OP2C_RUN) --target seq $(OP2C_FLAGS) -I apps/airfoil -I apps/airfoil/dp -o $@ $<

$(BIN)/tests/hdf5/hdf5_bad: tests/hdf5/hdf5_bad.cpp $(HDF5_TEST_DEPS)
	@mkdir -p $(@D)
	$(OP2C_RUN) --target seq $(OP2C_FLAGS) -o $@ $<

TARGETS += $(HDF5_TESTS)
SUITES  += tests/hdf5/run.sh
