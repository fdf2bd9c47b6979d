# tests/sim/rules.mk: the firmware unit tests of the Tinsel core model, built
# as bare-metal RV32IMF ELFs under $(BUILD)/tests/sim and run through tsim by
# tests/sim/run.sh. Expected results come from gen_vectors, a host program.
# `make sim-qemu-test` cross-checks the single-thread tests under qemu-riscv32.

SIM_T       := $(BUILD)/tests/sim
RV_CC       := riscv64-unknown-elf-gcc
RV_ARCH     := -march=rv32imf -mabi=ilp32f
RV_CFLAGS   := $(RV_ARCH) -std=c11 -Wall -Wextra -Werror -Os -g -ffreestanding -nostdlib -fno-builtin \
               -ffp-contract=off -fno-asynchronous-unwind-tables -Itests/sim -I$(SIM_T)/vec
SIM_HEADERS := tests/sim/test.h tests/sim/ops.h tests/sim/thread_work.h

# ELF name -> configuration, from tests.list; the profile tests use core.
SIM_LIST    := $(shell awk '!/^\#/ && NF { print $$1 ":" $$2 }' tests/sim/tests.list)
sim_cfg      = $(word 2,$(subst :, ,$(filter $(1):%,$(SIM_LIST))))
SIM_TABLES  := int_rr int_imm branch mul fp_arith fp_arith_rm fp_bits fp_f2i fp_i2f fp_minmax
# Tables also run by every thread at once (ELF NAME_mt).
SIM_TABLES_MT := mul fp_arith
SIM_REJECTS := $(shell awk '!/^\#/ && NF { print $$1 }' tests/sim/reject.list)
# Thread tests: NAME:INT_ITERS:FP_ITERS (per-thread work; keep board runs short).
SIM_THREADS := threads_core:64:16 fpu_tile:4:48 threads_board:24:6

$(BIN)/gen_vectors: tests/sim/gen_vectors.c tests/sim/ops.h tests/sim/thread_work.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -ffp-contract=off -frounding-math -Itests/sim $< $(LDFLAGS) -lm -o $@

$(SIM_T)/vec/%.vec.h: $(BIN)/gen_vectors
	@mkdir -p $(dir $@)
	$< $* > $@.tmp && mv $@.tmp $@

$(SIM_T)/%/crt0.o: tests/sim/crt0.S $(GEN)/boards/%/tinsel_config.h
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_ARCH) -I$(GEN)/boards/$* -c $< -o $@

$(SIM_T)/check.o: tests/sim/check.c $(SIM_HEADERS)
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) -c $< -o $@

# sim_elf NAME, SOURCE, CONFIG, EXTRA PREREQUISITES, EXTRA CFLAGS
define sim_elf
$(SIM_T)/$(1).elf: tests/sim/$(2) $(SIM_T)/$(3)/crt0.o $(SIM_T)/check.o tests/sim/join.c tests/sim/sim.ld \
                   $(GEN)/boards/$(3)/tinsel.ld $(GEN)/boards/$(3)/tinsel_config.h $(SIM_HEADERS) $(4)
	$(RV_CC) $(RV_CFLAGS) -I$(GEN)/boards/$(3) $(5) -L$(GEN)/boards/$(3) -T tests/sim/sim.ld \
	  $(SIM_T)/$(3)/crt0.o tests/sim/$(2) tests/sim/join.c $(SIM_T)/check.o -lgcc -o $$@
endef

$(foreach t,$(SIM_TABLES),$(eval $(call sim_elf,$(t),table_test.c,$(call sim_cfg,$(t)),$(SIM_T)/vec/$(t).vec.h,\
  -DTEST_OPS=$(shell echo $(t) | tr a-z A-Z)_OPS -DTEST_VECTORS='"$(t).vec.h"')))
$(eval $(call sim_elf,mem,t_mem.c,$(call sim_cfg,mem),$(SIM_T)/vec/mem.vec.h,))
$(eval $(call sim_elf,csr,t_csr.c,$(call sim_cfg,csr),,))
$(foreach t,memmap memmap_tile,$(eval $(call sim_elf,$(t),t_memmap.c,$(call sim_cfg,$(t)),,)))
$(eval $(call sim_elf,spawn_core,t_threads.c,core,$(SIM_T)/vec/threads_core.vec.h,-DSPAWN -DWORK_VECTORS='"threads_core.vec.h"'))
$(foreach t,$(SIM_TABLES_MT),$(eval $(call sim_elf,$(t)_mt,table_test.c,$(call sim_cfg,$(t)_mt),$(SIM_T)/vec/$(t).vec.h,\
  -DALL_THREADS -DTEST_OPS=$(shell echo $(t) | tr a-z A-Z)_OPS -DTEST_VECTORS='"$(t).vec.h"')))
$(foreach r,$(SIM_REJECTS),$(eval $(call sim_elf,reject_$(r),reject.c,core,,-DREJECT=$(r))))
# div on one thread of a tile (core 2, thread 5): the halt names it.
$(eval $(call sim_elf,reject_DIV_c2t5,reject.c,tile,,-DREJECT=DIV -DONLY_CORE=2 -DONLY_THREAD=5))

# Thread tests: expected results for every thread of the configuration.
define sim_threads
$(SIM_T)/vec/$(1).vec.h: $(BIN)/gen_vectors $(GEN)/boards/$(4)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$$< threads $(2) $(3) $$$$(awk '$$$$2 == "TinselNumThreads" { print $$$$3 }' $(GEN)/boards/$(4)/tinsel_config.h) > $$@.tmp && mv $$@.tmp $$@
$(call sim_elf,$(1),t_threads.c,$(4),$(SIM_T)/vec/$(1).vec.h,-DWORK_VECTORS='"$(1).vec.h"')
endef
$(foreach t,$(SIM_THREADS),$(eval $(call sim_threads,$(word 1,$(subst :, ,$(t))),$(word 2,$(subst :, ,$(t))),\
  $(word 3,$(subst :, ,$(t))),$(call sim_cfg,$(word 1,$(subst :, ,$(t)))))))

SIM_ELFS := $(foreach t,$(SIM_TABLES) $(SIM_TABLES_MT:%=%_mt) mem csr memmap memmap_tile spawn_core $(foreach t,$(SIM_THREADS),$(word 1,$(subst :, ,$(t)))) \
              $(addprefix reject_,$(SIM_REJECTS)) reject_DIV_c2t5,$(SIM_T)/$(t).elf)
TARGETS  += $(BIN)/gen_vectors $(SIM_ELFS)

.PHONY: sim-tests
sim-tests: $(SIM_ELFS)

# The single-thread bodies under qemu-riscv32 user mode (package qemu-user):
# Linux start code, the toolchain's default layout. A cross-check of the
# expected values, independent of our model.
SIM_QEMU_ELFS := $(foreach t,$(SIM_TABLES) mem,$(SIM_T)/qemu/$(t).elf)
$(SIM_T)/qemu/%.elf: $(SIM_T)/%.elf tests/sim/crt0_qemu.S
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) -nostartfiles $(if $(filter mem,$*),tests/sim/t_mem.c,tests/sim/table_test.c \
	  -DTEST_OPS=$(shell echo $* | tr a-z A-Z)_OPS -DTEST_VECTORS='"$*.vec.h"') \
	  tests/sim/check.c tests/sim/crt0_qemu.S -lgcc -o $@

.PHONY: sim-qemu-test
sim-qemu-test: $(SIM_QEMU_ELFS)
	tests/sim/qemu.sh $(SIM_QEMU_ELFS)

TARGETS += $(SIM_QEMU_ELFS)
SUITES  += tests/sim/qemu.sh tests/sim/run.sh
