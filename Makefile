# op2-poets: OP2 programs compiled for POETS/Tinsel.
#
#   make sim APP=airfoil    the main job (see README.md)
#   make test               every test suite; ends with "N passed, N failed"
#   make bench              benchmarks (minutes; not part of make test)
#
# Each folder contributes a rules.mk fragment: it appends its products to
# TARGETS, its test suites (commands run by tests/run_suites.sh) to SUITES
# and its benchmarks to BENCHES. Build products go under $(BUILD).

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
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)
XML_LIBS   := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)

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
include rtl_models/rules.mk
include sim/rules.mk
include host/rules.mk
include apps/rules.mk
include tcl/rules.mk
include bench/rules.mk
include tests/rules.mk

all: $(TARGETS)

deps:
	@mk/deps.sh

# Tests run against a sanitizer build of all host code, kept apart in build/san.
test: deps
	@$(MAKE) --no-print-directory SAN=1 BUILD=build/san all
	@BUILD=build/san TEST_CFLAGS="$(SANFLAGS)" tests/run_suites.sh $(SUITES)

bench: deps all $(BENCHES)

clean:
	rm -rf build
