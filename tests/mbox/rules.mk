# tests/mbox/rules.mk: the mailbox and NoC firmware tests, built against
# firmware/include/tinsel.h with tests/sim's start code and layout (crt0.S,
# sim.ld: tohost, sim_cycle) and run through tsim by tests/mbox/run.sh.
MBOX_T     := $(BUILD)/tests/mbox
MBOX_LIST  := $(shell awk '!/^\#/ && NF { print $$1 "-" $$2 }' tests/mbox/tests.list)
MBOX_ELFS  := $(MBOX_LIST:%=$(MBOX_T)/%.elf)
MBOX_CFLAGS = $(RV_CFLAGS) -mno-div -Ifirmware/include -Itests/mbox
# mbox_field NAME CONFIG FROM TO: columns FROM..TO (a number or NF) of the test's line.
mbox_field = $(shell awk '$$1 == "$(1)" && $$2 == "$(2)" { for (i = $(3); i <= $(4); i++) printf "%s ", $$i }' tests/mbox/tests.list)

# mbox_elf NAME CONFIG SOURCE CFLAGS
define mbox_elf
$(MBOX_T)/$(1)-$(2).elf: tests/mbox/$(3).c tests/mbox/mbox_lib.c tests/mbox/mbox_test.h tests/mbox/tests.list \
                         firmware/include/tinsel.h $(SIM_T)/$(2)/crt0.o tests/sim/sim.ld \
                         $(GEN)/boards/$(2)/tinsel.ld $(GEN)/boards/$(2)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$(RV_CC) $(MBOX_CFLAGS) -I$(GEN)/boards/$(2) $(4) -L$(GEN)/boards/$(2) -T tests/sim/sim.ld \
	  $(SIM_T)/$(2)/crt0.o tests/mbox/$(3).c tests/mbox/mbox_lib.c -lgcc -o $$@
endef
$(foreach t,$(MBOX_LIST),$(eval $(call mbox_elf,$(word 1,$(subst -, ,$(t))),$(word 2,$(subst -, ,$(t))),$(strip \
  $(call mbox_field,$(word 1,$(subst -, ,$(t))),$(word 2,$(subst -, ,$(t))),4,4)),$(call mbox_field,$(word 1,$(subst -, ,$(t))),$(word 2,$(subst -, ,$(t))),5,NF))))

.PHONY: mbox-tests
mbox-tests: $(MBOX_ELFS)

TARGETS += $(MBOX_ELFS)
SUITES  += tests/mbox/run.sh

# Message-bound model speed (not a test): tests/mbox/bench.sh.
.PHONY: bench-mbox
bench-mbox: $(BIN)/tsim $(BIN)/tsim-tile $(BIN)/tsim-board $(MBOX_ELFS)
	BUILD=$(BUILD) tests/mbox/bench.sh
BENCHES += bench-mbox
