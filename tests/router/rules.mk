# tests/router/rules.mk: the board router and box tests. gen_router_tables
# (linked with the placer's record encoder) writes each scenario's routing
# tables as a header; the firmware tests are built against
# firmware/include/tinsel.h with tests/sim's start code and layout plus
# tests/router/router.ld (the tables at POLiteProgRouterBase), and run
# through tsim by tests/router/run.sh.
RT_T      := $(BUILD)/tests/router
RT_CFLAGS  = $(RV_CFLAGS) -mno-div -Ifirmware/include -Itests/mbox -Itests/router

$(BIN)/gen_router_tables: tests/router/gen_tables.c $(PLACE_LIB) $(LIB)/libboards.a $(PLACE_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PLACE_CFLAGS) $< $(PLACE_LIBS) $(LDFLAGS) -o $@

# SCENARIO CONFIG: $(RT_T)/SCENARIO/tables.h
$(RT_T)/%/tables.h: $(BIN)/gen_router_tables
	@mkdir -p $(dir $@)
	$(BIN)/gen_router_tables $* $* > $@.tmp && mv $@.tmp $@

# router_elf NAME SOURCE CONFIG CFLAGS: $(RT_T)/NAME.elf
define router_elf
$(RT_T)/$(1).elf: tests/router/$(2).c tests/mbox/mbox_test.h tests/router/router.ld $(RT_T)/$(3)/tables.h \
                  firmware/include/tinsel.h $(SIM_T)/$(3)/crt0.o tests/sim/sim.ld $(GEN)/boards/$(3)/tinsel.ld \
                  $(GEN)/boards/$(3)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$(RV_CC) $(RT_CFLAGS) -I$(RT_T)/$(3) -I$(GEN)/boards/$(3) $(4) -L$(GEN)/boards/$(3) -Ltests/sim \
	  -T tests/router/router.ld $(SIM_T)/$(3)/crt0.o tests/router/$(2).c tests/mbox/mbox_lib.c -lgcc -o $$@
endef
$(eval $(call router_elf,keys-board,keys,board,))
$(eval $(call router_elf,bad-board,keys,board,-DSEND_BAD))
$(eval $(call router_elf,bad_rr-board,keys,board,-DSEND_BAD_RR))
$(eval $(call router_elf,keys-box,keys,box,))
$(eval $(call router_elf,all_to_all-box,all_to_all_box,box,))
$(eval $(call router_elf,idle-box,idle_box,box,))
RT_ELFS := $(addprefix $(RT_T)/,keys-board.elf bad-board.elf bad_rr-board.elf keys-box.elf all_to_all-box.elf idle-box.elf)

.PHONY: router-tests
router-tests: $(RT_ELFS)

TARGETS += $(BIN)/gen_router_tables $(RT_ELFS)
SUITES  += tests/router/run.sh

# A program beyond InstrBytesPerCore for tsim --imem enlarged (its own layout).
$(RT_T)/big_imem-tile.elf: tests/router/big_imem.c tests/router/big_imem.ld $(SIM_T)/tile/crt0.o $(GEN)/boards/tile/tinsel.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(RT_CFLAGS) -I$(GEN)/boards/tile -L$(GEN)/boards/tile -T tests/router/big_imem.ld \
	  $(SIM_T)/tile/crt0.o $< -lgcc -o $@
TARGETS += $(RT_T)/big_imem-tile.elf

# Message-bound firmware for bench/sim.sh (make bench-sim): all-to-all and
# nearest-neighbour on a board and a box.
$(eval $(call router_elf,bench_all-board,msgbench,board,-DSTRIDE=16 -DROUNDS=4))
$(eval $(call router_elf,bench_all-box,msgbench,box,-DSTRIDE=64 -DROUNDS=1))
$(eval $(call router_elf,bench_nn-board,msgbench,board,-DNEIGHBOURS -DROUNDS=8))
$(eval $(call router_elf,bench_nn-box,msgbench,box,-DNEIGHBOURS -DROUNDS=2))
RT_BENCH_ELFS := $(addprefix $(RT_T)/,bench_all-board.elf bench_all-box.elf bench_nn-board.elf bench_nn-box.elf)
TARGETS += $(RT_BENCH_ELFS)
