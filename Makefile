# op2-poets: OP2 programs compiled for POETS/Tinsel.
#
#   make sim APP=airfoil    the main job (see README.md)
#   make test               every test suite; ends with "N passed, N failed"
#   make bench              benchmarks (minutes; not part of make test)
#
# Each folder contributes a rules.mk fragment: it appends its products to
# TARGETS, its test suites (commands run by tests/run_suites.sh) to SUITES
# and its benchmarks to BENCHES. Build products go under $(BUILD).

# Two stages. The goals that need the packages of mk/packages.txt (DEPS_GOALS)
# first run mk/deps.sh, then make again in a new process with the same
# goals and variables: that second make parses the makefiles only after the
# packages are installed, so nothing worked out while parsing (a tool's path
# or flags) can see a machine without them. Under make -n the first stage
# runs mk/deps.sh --dry-run, which installs nothing. tests/build/fresh.sh
# checks both stages.
DEPS_GOALS  := deps sim test bench test-op2-model
DEPS_SCRIPT ?= mk/deps.sh
ifndef OP2_DEPS_DONE
ifneq ($(filter $(DEPS_GOALS),$(MAKECMDGOALS)),)
OP2_STAGE1 := 1
endif
endif

ifdef OP2_STAGE1
.PHONY: $(MAKECMDGOALS) op2-stage2
$(MAKECMDGOALS): op2-stage2
	@:
op2-stage2:
	@$(DEPS_SCRIPT) $(if $(findstring n,$(firstword -$(MAKEFLAGS))),--dry-run) \
	  $(if $(filter-out deps,$(MAKECMDGOALS)),&& $(MAKE) --no-print-directory OP2_DEPS_DONE=1 $(filter-out deps,$(MAKECMDGOALS)))
else

BUILD ?= build
SAN   ?= 0
BIN   := $(BUILD)/bin
LIB   := $(BUILD)/lib
OBJ   := $(BUILD)/obj
GEN   := $(BUILD)/gen
MESHES := $(BUILD)/meshes

CC       ?= cc
CXX      ?= c++
CFLAGS   := -std=c11 -Wall -Wextra -g -O2 $(EXTRA_CFLAGS)
CXXFLAGS := -std=c++17 -Wall -Wextra -g -O2 $(EXTRA_CFLAGS)
LDFLAGS  :=
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
ifeq ($(SAN),1)
  CFLAGS   += $(SANFLAGS)
  CXXFLAGS += $(SANFLAGS)
  LDFLAGS  += $(SANFLAGS)
endif
# Flags that come from installed tools are worked out when a recipe needs
# them (recursive =, cached on first use), never while the makefiles are
# parsed: see "Two stages" below and tests/build/fresh.sh.
PKG_CONFIG ?= pkg-config
XML_CFLAGS = $(eval XML_CFLAGS := $(shell $(PKG_CONFIG) --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2))$(XML_CFLAGS)
XML_LIBS   = $(eval XML_LIBS := $(shell $(PKG_CONFIG) --libs libxml-2.0 2>/dev/null || echo -lxml2))$(XML_LIBS)
HDF5_CFLAGS = $(eval HDF5_CFLAGS := $(shell $(PKG_CONFIG) --cflags hdf5 2>/dev/null || echo -I/usr/include/hdf5/serial))$(HDF5_CFLAGS)
HDF5_LIBS   = $(eval HDF5_LIBS := $(shell $(PKG_CONFIG) --libs hdf5 2>/dev/null || echo -lhdf5_serial))$(HDF5_LIBS)

TARGETS :=
SUITES  :=
BENCHES :=

# Application selection for run/sim/bench.
APP     ?= airfoil
TARGET  ?= seq
VARIANT ?= dp
ITERS   ?=
ARGS    ?=

.PHONY: all deps test sim run bench clean
.DEFAULT_GOAL := all

include boards/rules.mk
include compiler/rules.mk
include firmware/rules.mk
include stream/rules.mk
include rtl_models/rules.mk
include sim/rules.mk
include host/rules.mk
include apps/rules.mk
include apps/tree/rules.mk
include taskgraph/rules.mk
include tcl/rules.mk
include bench/rules.mk
include tests/rules.mk

all: $(TARGETS)

# (make deps is the first stage on its own: see the top.)
deps:
	@$(DEPS_SCRIPT)

# Tests run against a sanitizer build of all host code, kept apart in build/san.
# Both halves use TEST_JOBS jobs: make -jN's N, else the number of cores
# (a plain `make test`, as .ci/run runs it, builds and tests in parallel too);
# tests/run_suites.sh shows each suite's output in one piece as it ends.
# (Not under make -n: its commands would print in a varying order.)
SAN_BUILD ?= build/san
TEST_JOBS ?=
test_jobs = $(or $(TEST_JOBS),$(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS))),$$(nproc))
test:
	@$(MAKE) --no-print-directory $(if $(findstring jobserver,$(MAKEFLAGS))$(findstring n,$(firstword -$(MAKEFLAGS))),,-j$(test_jobs)) SAN=1 BUILD=$(SAN_BUILD) all
	@BUILD=$(SAN_BUILD) TEST_CFLAGS="$(SANFLAGS)" SUITE_JOBS=$(test_jobs) tests/run_suites.sh $(SUITES)

bench: all $(BENCHES)

clean:
	rm -rf build

endif # OP2_STAGE1
