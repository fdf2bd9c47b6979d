# apps/rules.mk: build rules for apps/ (see the top-level Makefile).
#
# An OP2 app NAME lives in apps/NAME/<variant>/NAME.cpp (kernels in headers
# beside it, shared host code in apps/NAME/*.h); op2c builds each variant
# into $(BIN)/NAME_<variant>. Apps take --mesh FILE and --iters N.
#
#   make run APP=airfoil [TARGET=seq|tinsel] [VARIANT=dp|sp] [MESH=FILE] [ITERS=N] [ARGS=...]
#     TARGET=tinsel: op2c --target tinsel's executable on the functional
#     engine (the generated handlers run natively, begin per thread and
#     ends up a tree of threads placed on OP2_TINSEL_CONFIG, default board),
#     until a HostLink engine runs it on the cycle model
#   make sim APP=airfoil [VARIANT=sp|dp] [MESH=FILE] [ITERS=20] [PRINT_EVERY=1] [CONFIG=board] [SEED=S]
#     the tinsel executable on the cycle model (engine sim), its summary, and
#     PASSED or FAILED against seq on the same inputs (apps/sim.sh)

# --- mesh generator and generated meshes: $(MESHES)/naca_IxJ.dat = meshgen I J
MESHGEN      := $(BIN)/meshgen
MESHGEN_SRCS := $(wildcard apps/meshgen/*.c)

$(MESHGEN): $(MESHGEN_SRCS) apps/meshgen/meshgen.h apps/airfoil/airfoil_mesh.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(HDF5_CFLAGS) $(MESHGEN_SRCS) $(LDFLAGS) $(HDF5_LIBS) -lm -o $@

$(MESHES)/naca_%.dat: $(MESHGEN)
	@mkdir -p $(@D)
	$(MESHGEN) $(subst x, ,$*) -o $@

TEST_MESHES := $(MESHES)/naca_20x30.dat $(MESHES)/naca_40x60.dat
STD_MESH    := $(MESHES)/naca_400x600.dat
TARGETS += $(MESHGEN) $(TEST_MESHES)

# --- OP2 apps through op2c
OP2C       := $(BIN)/op2c
# op2c never frees (a short-lived compiler); keep LeakSanitizer quiet in SAN builds.
OP2C_RUN   := ASAN_OPTIONS=detect_leaks=0 $(OP2C)
OP2C_FLAGS := -g -O2
ifeq ($(SAN),1)
  OP2C_FLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined
endif
OP2_DEPS := $(OP2C) $(SEQRT_LIB) $(SEQRT_INC)

APPS := airfoil
airfoil_VARIANTS := dp sp
airfoil_MESH     := $(STD_MESH)
airfoil_SIM_MESH := $(MESHES)/naca_20x30.dat
airfoil_SIM_ITERS := 20

# op2_app NAME VARIANT
define op2_app
$(BIN)/$(1)_$(2): $(wildcard apps/$(1)/$(2)/*.cpp apps/$(1)/$(2)/*.h apps/$(1)/*.h) $(OP2_DEPS)
	@mkdir -p $$(@D)
	$(OP2C_RUN) --target seq $(OP2C_FLAGS) -o $$@ apps/$(1)/$(2)/$(1).cpp
TARGETS += $(BIN)/$(1)_$(2)
endef
$(foreach a,$(APPS),$(foreach v,$($(a)_VARIANTS),$(eval $(call op2_app,$(a),$(v)))))

# op2_tinsel_app NAME VARIANT: $(BIN)/NAME_VARIANT_tinsel (built for make run
# only; dp images need the enlarged instruction memory, which op2c says;
# op2c runs checkelf on every image).
TINSEL_APP_DEPS := $(OP2_DEPS) $(TINSELRT_LIB) $(TINSELRT_INC) $(PLACE_LIB) $(LIB)/libboards.a $(BIN)/checkelf \
                   $(FW_OP2C_DIR)/cflags $(FW_OP2C_DIR)/ldflags $(FW_OP2C_DIR)/tile/cflags $(FW_OP2C_DIR)/tile/ldflags
# (--fw-config tile: also the tile's firmware, for make sim CONFIG=tile)
define op2_tinsel_app
$(BIN)/$(1)_$(2)_tinsel: $(wildcard apps/$(1)/$(2)/*.cpp apps/$(1)/$(2)/*.h apps/$(1)/*.h) $(TINSEL_APP_DEPS)
	@mkdir -p $$(@D) $(BUILD)/apps
	$(OP2C_RUN) --target tinsel $(OP2C_FLAGS) $(if $(filter dp,$(2)),--imem enlarged) --fw-config tile \
	  --gen-dir $(BUILD)/apps/$(1)_$(2)_tinsel.gen -o $$@ apps/$(1)/$(2)/$(1).cpp
endef
$(foreach a,$(APPS),$(foreach v,$($(a)_VARIANTS),$(eval $(call op2_tinsel_app,$(a),$(v)))))

MESH ?=
RUN_MESH := $(or $(MESH),$($(APP)_MESH))
RUN_EXE  := $(BIN)/$(APP)_$(VARIANT)$(if $(filter tinsel,$(TARGET)),_tinsel)

run: $(RUN_EXE) $(if $(MESH),,$(RUN_MESH))
	@case "$(TARGET)" in seq) ;; \
	  tinsel) echo "run: $(APP) $(VARIANT) on the tinsel target's functional engine (handlers run natively on the host, threads placed on $${OP2_TINSEL_CONFIG:-board}; no cycle model yet)" ;; \
	  *) echo "make run: TARGET=$(TARGET) is not available (seq or tinsel)" >&2; exit 2 ;; esac
	$(RUN_EXE) --mesh $(RUN_MESH) $(if $(ITERS),--iters $(ITERS)) $(ARGS)

# make sim: the app's tinsel executable on the cycle model, checked against
# seq (apps/sim.sh). Defaults: sp (VARIANT on the command line overrides the
# Makefile's dp default for run), the 1800-cell mesh, 20 iterations printed
# every one, one board.
SIM_VARIANT := $(if $(filter file,$(origin VARIANT)),sp,$(VARIANT))
SIM_MESH    := $(or $(MESH),$($(APP)_SIM_MESH))
PRINT_EVERY ?= 1
CONFIG      ?= board
# (Only for the OP2 apps of APPS: other apps, e.g. apps/tree, define their own sim.)
# It builds everything first (the models, their boot loaders, the firmware).
ifneq ($(filter $(APP),$(APPS)),)
sim: all $(BIN)/$(APP)_$(SIM_VARIANT)_tinsel $(BIN)/$(APP)_$(SIM_VARIANT) $(if $(MESH),,$(SIM_MESH))
	@APP=$(APP) VARIANT=$(SIM_VARIANT) EXE=$(BIN)/$(APP)_$(SIM_VARIANT)_tinsel SEQ=$(BIN)/$(APP)_$(SIM_VARIANT) \
	  MESH=$(SIM_MESH) ITERS=$(or $(ITERS),$($(APP)_SIM_ITERS)) PRINT_EVERY=$(PRINT_EVERY) CONFIG=$(CONFIG) \
	  SEED=$(SEED) ARGS="$(ARGS)" apps/sim.sh
endif

# --- benchmark: airfoil dp and sp, 1000 iterations on the standard mesh
.PHONY: bench-airfoil-seq
bench-airfoil-seq: $(OP2C) $(SEQRT_LIB) $(SEQRT_INC) $(MESHGEN)
	BUILD=$(BUILD) bench/airfoil_seq.sh
BENCHES += bench-airfoil-seq

# --- benchmark: airfoil sp on the cycle model (1800 and 7200 cells, 100
# iterations, one board) and the 720000-cell mesh on the cluster (bench/airfoil_sim.sh)
.PHONY: bench-airfoil-sim
bench-airfoil-sim: all $(BIN)/airfoil_sp_tinsel
	BUILD=$(BUILD) bench/airfoil_sim.sh
BENCHES += bench-airfoil-sim

include tests/meshgen/rules.mk
include tests/hdf5/rules.mk
include tests/op2/rules.mk
