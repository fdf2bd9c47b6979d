# tests/op2/rules.mk: self-checking OP2 programs built by op2c, and the
# plain C++ airfoil oracle (included from apps/rules.mk).

OP2_TEST_SRCS := $(filter-out tests/op2/airfoil_direct.cpp,$(wildcard tests/op2/*.cpp tests/op2/*.c))
OP2_TESTS     := $(patsubst tests/op2/%,$(BIN)/tests/op2/%,$(basename $(OP2_TEST_SRCS)))

$(BIN)/tests/op2/%: tests/op2/%.cpp $(wildcard tests/op2/*.h) $(OP2_DEPS)
	@mkdir -p $(@D)
	$(OP2C_RUN) --target seq $(OP2C_FLAGS) -o $@ $<

$(BIN)/tests/op2/%: tests/op2/%.c $(wildcard tests/op2/*.h) $(OP2_DEPS)
	@mkdir -p $(@D)
	$(OP2C_RUN) --target seq $(OP2C_FLAGS) -o $@ $<

# airfoil_direct_<variant>: the oracle, compiled like the app (same -O, no FMA).
$(BIN)/tests/airfoil_direct_%: tests/op2/airfoil_direct.cpp apps/airfoil/airfoil_io.h apps/airfoil/airfoil_mesh.h $(wildcard apps/airfoil/*/*.h)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) -DREAL=$(if $(filter sp,$*),float,double) -Iapps/airfoil/$* -Iapps/airfoil $< $(LDFLAGS) -lm -o $@

TARGETS += $(OP2_TESTS) $(BIN)/tests/airfoil_direct_dp $(BIN)/tests/airfoil_direct_sp
SUITES  += tests/op2/run.sh tests/op2/print/run.sh

# Every OP2 test program on the tile, board and box models (tests/op2/model.sh;
# make test runs them on tile and board and a few on the box): a suite of its
# own, with make test's sanitizer build.
.PHONY: test-op2-model
test-op2-model:
	@$(MAKE) --no-print-directory SAN=1 BUILD=$(SAN_BUILD) all
	@BUILD=$(SAN_BUILD) TEST_CFLAGS="$(SANFLAGS)" tests/run_suites.sh tests/op2/model.sh
