# sim/fast/rules.mk: the fast engine, $(BIN)/tsim-fast-NAME per configuration
# NAME (core, tile, board; a box runs tsim-fast-board), run by
# `tsim --engine fast` (sim/README.md "Fast engine"). Like the cycle
# models it is compiled per configuration against that configuration's
# tinsel_config.h, and it links the same C files the models call through
# DPI (TSIM_DPI_SRCS), compiled against sim/fast/Vtsim_top__Dpi.h (their
# prototypes; no Verilator) and the models' common objects.
FAST_SRCS := fast_main fast_engine fast_decode fast_mbox fast_link fast_mpi fast_pcprof
FAST_HDRS := $(wildcard sim/fast/*.h)

# Open MPI (mk/packages.txt: libopenmpi-dev, openmpi-bin): started by mpirun,
# the fast engine splits a box or cluster over the ranks (fast_mpi.h). Without
# mpicc the binary is built without it (TSIM_NO_MPI: one process; started by
# mpirun with more than one rank it says so and exits 64).
FAST_MPICC := $(shell command -v mpicc 2>/dev/null)
ifneq ($(FAST_MPICC),)
FAST_MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(FAST_MPICC) --showme:compile))
FAST_MPI_LIBS   := $(shell $(FAST_MPICC) --showme:link)
else
FAST_MPI_CFLAGS := -DTSIM_NO_MPI
FAST_MPI_LIBS   :=
endif

# fast_config NAME: objects in $(OBJ)/sim/fast/NAME, binary $(BIN)/tsim-fast-NAME.
define fast_config
$(OBJ)/sim/fast/$(1)/%.o: sim/fast/%.c $(FAST_HDRS) $(TSIM_HDRS) $(GEN)/boards/$(1)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) -Isim/fast -I$(GEN)/boards/$(1) -I$(GEN) -Isim -Ihost/hostlink -c $$< -o $$@
$(OBJ)/sim/fast/$(1)/%.o: sim/%.c $(FAST_HDRS) $(TSIM_HDRS) $(GEN)/boards/$(1)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) -Isim/fast -I$(GEN)/boards/$(1) -I$(GEN) -Isim -Ihost/hostlink \
	  -DTSIM_BOOT_ELF=\"$(call tsim_boot_elf,$(1))\" -c $$< -o $$@
$(OBJ)/sim/fast/$(1)/fast_mpi.o: CFLAGS += $(FAST_MPI_CFLAGS)
$(BIN)/tsim-fast-$(1): $(FAST_SRCS:%=$(OBJ)/sim/fast/$(1)/%.o) \
                       $(patsubst sim/%.c,$(OBJ)/sim/fast/$(1)/%.o,$(TSIM_DPI_SRCS)) $(TSIM_COMMON_OBJS) \
                       | $(call tsim_boot_target,$(1))
	@mkdir -p $$(dir $$@)
	$$(CC) $$(LDFLAGS) $$^ -lm $(FAST_MPI_LIBS) -o $$@
endef
$(foreach c,$(TSIM_CONFIGS),$(eval $(call fast_config,$(c))))

TARGETS += $(TSIM_CONFIGS:%=$(BIN)/tsim-fast-%)
SUITES  += tests/fast/run.sh

# make bench-sim runs the fast engine beside the cycle models (bench/sim.sh),
# also on airfoil sp (apps/sim.sh's run of `make sim APP=airfoil ITERS=3`).
bench-sim: $(TSIM_CONFIGS:%=$(BIN)/tsim-fast-%) $(BIN)/airfoil_sp_tinsel $(BIN)/airfoil_sp $(airfoil_SIM_MESH)
