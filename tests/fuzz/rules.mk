# tests/fuzz/rules.mk: fuzz harnesses for every parser of outside input
# (tests/fuzz/README.md). Each harness NAME is tests/fuzz/NAME/fuzz.c, which
# defines LLVMFuzzerTestOneInput, built with clang's libFuzzer, ASan and
# UBSan together with the project sources it exercises (FUZZ_SRCS_NAME,
# compiled into the harness, so coverage reaches them) into
# $(BUILD)/fuzz/NAME. Its seed corpus is tests/fuzz/NAME/corpus/ and its
# saved reproducers (every crash, hang or leak ever found, replayed by make
# test) tests/fuzz/NAME/regress/.
#
# A harness adds itself in its own fragment, tests/fuzz/NAME/harness.mk:
#   FUZZ_NAMES += NAME
#   FUZZ_SRCS_NAME  := tests/fuzz/NAME/fuzz.c the/parser.c ...
#   FUZZ_FLAGS_NAME := -Isome/dir          (optional; expanded in the recipe,
#                                          so tool-derived flags stay lazy)
#   FUZZ_DEPS_NAME  := $(GEN)/some.h        (optional: generated prerequisites)
#   FUZZ_LIBS_NAME  := -lsome               (optional: libraries, linked after the sources;
#                                          expanded in the recipe, likewise)
FUZZ_CC      ?= clang
FUZZ_CFLAGS  := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer -D_GNU_SOURCE -DFUZZING
FUZZ_SECONDS ?= 60
FUZZ_NAMES   :=
include $(wildcard tests/fuzz/*/harness.mk)

define fuzz_harness
$(BUILD)/fuzz/$(1): $(FUZZ_SRCS_$(1)) $(FUZZ_DEPS_$(1)) $$(wildcard tests/fuzz/$(1)/*.h) tests/fuzz/input_file.h tests/fuzz/rules.mk
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $$(FUZZ_FLAGS_$(1)) $(FUZZ_SRCS_$(1)) $$(FUZZ_LIBS_$(1)) -lm -o $$@
endef
$(foreach f,$(FUZZ_NAMES),$(eval $(call fuzz_harness,$(f))))

TARGETS += $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
SUITES  += tests/fuzz/run.sh

# make fuzz FUZZ_SECONDS=N [FUZZ=NAME...]: each harness for N seconds
# (tests/fuzz/fuzz.sh); new inputs go to $(BUILD)/fuzz/NAME.corpus, crashes
# to $(BUILD)/fuzz/NAME.artifacts.
FUZZ ?= $(FUZZ_NAMES)
.PHONY: fuzz
fuzz: $(FUZZ:%=$(BUILD)/fuzz/%)
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/fuzz.sh $(FUZZ)
