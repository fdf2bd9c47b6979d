# sim/rules.mk: build rules for sim/ (see the top-level Makefile).
#
# $(BIN)/tsim is the dispatcher; $(BIN)/tsim-NAME is the Verilator model of
# configuration NAME with its harness, and $(BIN)/tsim-NAME-trace the same
# with FST tracing (slower to build and run; only core's is built by
# default, `make tsim-traces` builds all). The generated model is compiled
# with Verilator's own flags (-Os; never sanitized: ASan makes it several
# times slower); the harness's C files with ours, so under SAN=1 the C code
# (ELF reader, memory, FPU, DPI) is checked by ASan/UBSan.
TSIM_CONFIGS  := core tile board
VERILATOR     ?= verilator
VL_DIR        := $(BUILD)/verilator
VL_INCLUDE    := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)/include
VL_FLAGS      := --cc --exe --x-assign fast --x-initial fast --noassert --threads 1 \
                 -Wall -Wno-DECLFILENAME -Wno-UNUSEDSIGNAL -Wno-UNUSEDPARAM \
                 --prefix Vtsim_top --top-module tsim_top
TSIM_COMMON   := tsim_args elf32 tsim_mem tsim_fpu tsim_decode
TSIM_COMMON_OBJS := $(TSIM_COMMON:%=$(OBJ)/sim/%.o)
TSIM_HDRS     := $(wildcard sim/*.h)

$(OBJ)/sim/%.o: sim/%.c $(TSIM_HDRS) $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(GEN) -frounding-math -c $< -o $@

$(BIN)/tsim: $(OBJ)/sim/tsim.o $(OBJ)/sim/tsim_args.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

# tsim_model NAME CONFIG EXTRA_VERILATOR_FLAGS: $(BIN)/tsim-NAME, built by
# sim/build_model.sh (Verilator, the configuration's DPI functions against
# its header, Verilator's makefile); generated code kept in $(VL_DIR)/NAME.
define tsim_model
$(BIN)/tsim-$(1): $(RTL_MODELS_SRCS) $(GEN)/boards/$(2)/tinsel_pkg.sv $(GEN)/boards/$(2)/tinsel_config.h \
                  sim/tsim_main.cpp sim/tsim_dpi.c sim/tsim_mbox.c sim/tsim_threads.c sim/build_model.sh $(TSIM_HDRS) $(TSIM_COMMON_OBJS)
	@echo "sim/build_model.sh $$@  (Verilator; log in $(VL_DIR)/$(1)/build.log)"
	@VERILATOR="$(VERILATOR)" VL_FLAGS="$(VL_FLAGS) $(3)" RTL_SRCS="$(RTL_MODELS_SRCS)" MAIN_CPP="$(abspath sim/tsim_main.cpp)" \
	  CC="$(CC)" CFLAGS="$(CFLAGS)" LDFLAGS="$(LDFLAGS)" MAKE="$(MAKE)" COMMON_OBJS="$(abspath $(TSIM_COMMON_OBJS))" \
	  DPI_CFLAGS="-I$(GEN)/boards/$(2) -I$(VL_INCLUDE) -I$(VL_INCLUDE)/vltstd -Isim" \
	  sim/build_model.sh $$@ $(VL_DIR)/$(1) $(GEN)/boards/$(2)/tinsel_pkg.sv
endef
$(foreach c,$(TSIM_CONFIGS),$(eval $(call tsim_model,$(c),$(c),)))
$(foreach c,$(TSIM_CONFIGS),$(eval $(call tsim_model,$(c)-trace,$(c),--trace-fst)))

.PHONY: tsim-traces
tsim-traces: $(TSIM_CONFIGS:%=$(BIN)/tsim-%-trace)

TARGETS += $(BIN)/tsim $(TSIM_CONFIGS:%=$(BIN)/tsim-%) $(BIN)/tsim-core-trace
SUITES  += tests/tsim/run.sh

# The models' speed (not a test): bench/sim.sh.
.PHONY: bench-sim
bench-sim: $(BIN)/tsim $(TSIM_CONFIGS:%=$(BIN)/tsim-%)
	BUILD=$(BUILD) bench/sim.sh
BENCHES += bench-sim
