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

# tsim_model NAME CONFIG EXTRA_VERILATOR_FLAGS: generate the C++ into
# $(VL_DIR)/NAME, compile the configuration's DPI functions against its
# header, then let Verilator's makefile build and link $(BIN)/tsim-NAME.
define tsim_model
$(BIN)/tsim-$(1): $(RTL_MODELS_SRCS) $(GEN)/boards/$(2)/tinsel_pkg.sv $(GEN)/boards/$(2)/tinsel_config.h \
                  sim/tsim_main.cpp sim/tsim_dpi.c $(TSIM_HDRS) $(TSIM_COMMON_OBJS)
	@rm -rf $(VL_DIR)/$(1); mkdir -p $(VL_DIR)/$(1) $$(dir $$@)
	$(VERILATOR) $(VL_FLAGS) $(3) --Mdir $(VL_DIR)/$(1) -o $$(abspath $$@) \
	  $(GEN)/boards/$(2)/tinsel_pkg.sv $(RTL_MODELS_SRCS) $(abspath sim/tsim_main.cpp)
	$(CC) $(CFLAGS) -I$(GEN)/boards/$(2) -I$(VL_DIR)/$(1) -I$(VL_INCLUDE) -I$(VL_INCLUDE)/vltstd -Isim \
	  -c sim/tsim_dpi.c -o $(VL_DIR)/$(1)/tsim_dpi.o
	$(MAKE) --no-print-directory -C $(VL_DIR)/$(1) -f Vtsim_top.mk \
	  USER_CPPFLAGS="-I$(abspath sim)" USER_LDFLAGS="$(LDFLAGS)" \
	  USER_LDLIBS="$(abspath $(VL_DIR)/$(1)/tsim_dpi.o $(TSIM_COMMON_OBJS)) -lm" >$(VL_DIR)/$(1)/build.log 2>&1 \
	  || { tail -n 40 $(VL_DIR)/$(1)/build.log; exit 1; }
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
