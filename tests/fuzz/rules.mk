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

# A harness's sources are compiled one object each, under
# $(BUILD)/fuzz/obj/KEY/, where KEY is the first harness (in FUZZ_NAMES'
# order) whose FUZZ_FLAGS_ text is the same as this one's: harnesses with the
# same flags share objects (op2c and transform compile the same 16 files of
# op2c's front end, once), and the objects compile in parallel under make -j
# (one clang command per harness took the longest single step of make test's
# build). -MMD: an object is rebuilt when a header it includes changes.
fuzz_same = $(if $(subst x$(value FUZZ_FLAGS_$(1)),,x$(value FUZZ_FLAGS_$(2)))$(subst x$(value FUZZ_FLAGS_$(2)),,x$(value FUZZ_FLAGS_$(1))),,$(2))
fuzz_key  = $(firstword $(foreach g,$(FUZZ_NAMES),$(call fuzz_same,$(1),$(g))))
fuzz_obj  = $(BUILD)/fuzz/obj/$(call fuzz_key,$(1))/$(basename $(2)).o
# The generated headers any harness of KEY needs, for each of KEY's objects.
fuzz_key_deps = $(foreach g,$(FUZZ_NAMES),$(if $(filter $(call fuzz_key,$(1)),$(call fuzz_key,$(g))),$(FUZZ_DEPS_$(g))))
FUZZ_OBJS :=

# fuzz_object NAME SOURCE: the rule for SOURCE's object in NAME's key (once per key).
define fuzz_object
ifndef FUZZ_OBJ_RULE_$(call fuzz_obj,$(1),$(2))
FUZZ_OBJ_RULE_$(call fuzz_obj,$(1),$(2)) := 1
FUZZ_OBJS += $(call fuzz_obj,$(1),$(2))
$(call fuzz_obj,$(1),$(2)): $(2) $(call fuzz_key_deps,$(1)) $$(wildcard tests/fuzz/$(1)/*.h) tests/fuzz/input_file.h tests/fuzz/rules.mk
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $$(FUZZ_FLAGS_$(1)) -MMD -MP -c $$< -o $$@
endif
endef

define fuzz_harness
$(foreach s,$(FUZZ_SRCS_$(1)),$(eval $(call fuzz_object,$(1),$(s))))
$(BUILD)/fuzz/$(1): $(foreach s,$(FUZZ_SRCS_$(1)),$(call fuzz_obj,$(1),$(s)))
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $$^ $$(FUZZ_LIBS_$(1)) -lm -o $$@
endef
$(foreach f,$(FUZZ_NAMES),$(eval $(call fuzz_harness,$(f))))
-include $(FUZZ_OBJS:.o=.d)

TARGETS += $(FUZZ_NAMES:%=$(BUILD)/fuzz/%)
SUITES  += tests/fuzz/run.sh

# make fuzz FUZZ_SECONDS=N [FUZZ=NAME...]: each harness for N seconds
# (tests/fuzz/fuzz.sh); new inputs go to $(BUILD)/fuzz/NAME.corpus, crashes
# to $(BUILD)/fuzz/NAME.artifacts.
FUZZ ?= $(FUZZ_NAMES)
.PHONY: fuzz
fuzz: $(FUZZ:%=$(BUILD)/fuzz/%)
	@BUILD=$(BUILD) FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/fuzz.sh $(FUZZ)
