# apps/tree/rules.mk: the multifrontal tree app (seeds/002; apps/tree/tree.c).
#
#   $(BIN)/tree                 host: random tree, oracle, METIS placement,
#                               the softswitch engine, the tsim runner
#   $(FW)/tree.elf              the thread program for a board or a box
#   $(FW)/boards/tile/tree.elf  the same for a tile's layout
#   make sim APP=tree [NODES=N] [TREE_SEED=S] [CONFIG=tile|board|box] [SEED=D]
#     the tree on the cycle model (tsim --delay-seed D), checked against
#     the oracle: PASSED or FAILED (apps/sim.sh dispatches here)
TREE_HDRS := apps/tree/tree.h apps/tree/tree_tg.h taskgraph/ssrun_fw.h firmware/softswitch/ss_counted.h firmware/softswitch/softswitch.h
TREE_HOST_SRCS := apps/tree/tree.c apps/tree/tree_dev.c taskgraph/ssrun.c host/tinsel/tsim_preload_write.c

$(BIN)/tree: $(TREE_HOST_SRCS) $(TREE_HDRS) firmware/softswitch/softswitch.c host/place/place.h taskgraph/ssrun.h \
             host/tinsel/tsim_preload_write.h sim/tsim_preload.h $(GEN)/tinsel_config.h $(PLACE_LIB) $(LIB)/libboards.a \
             taskgraph/tg.h $(LIB)/libtg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iapps/tree -Itaskgraph -Ihost/place -Ihost/tinsel -Isim -Ifirmware/softswitch -I$(GEN) $(TREE_HOST_SRCS) \
	  $(LIB)/libtg.a $(LDFLAGS) $(PLACE_LIBS) -o $@

$(FW)/apps/tree/%.o: apps/tree/%.c $(TREE_HDRS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) -Iapps/tree -Itaskgraph -c $< -o $@
$(FW)/tree.elf: $(FW)/apps/tree/tree_fw.o $(FW)/apps/tree/tree_dev.o $(FW)/softswitch/softswitch.o $(FW_LIBS) \
                firmware/link/app.ld $(GEN)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_LDFLAGS) $(FW)/app_entry.o $(filter %/tree_fw.o %/tree_dev.o %/softswitch.o,$^) $(FW)/libfw.a \
	  $(FW_LDLIBS) -o $@
	$(CHECKELF) $@

$(FW)/boards/tile/apps/tree/%.o: apps/tree/%.c $(TREE_HDRS) $(FWL_tile_HDRS)
	@mkdir -p $(@D)
	$(FW_CC) $(FWL_tile_CFLAGS) -Iapps/tree -Itaskgraph -c $< -o $@
$(FW)/boards/tile/tree.elf: $(FW)/boards/tile/apps/tree/tree_fw.o $(FW)/boards/tile/apps/tree/tree_dev.o \
                            $(FW)/boards/tile/softswitch/softswitch.o $(FW)/boards/tile/app_entry.o \
                            $(FW)/boards/tile/libfw.a firmware/link/app.ld $(GEN)/boards/tile/tinsel.ld $(CHECKELF)
	$(FW_CC) $(subst -L$(GEN),-L$(GEN)/boards/tile,$(FW_LDFLAGS)) $(FW)/boards/tile/app_entry.o \
	  $(filter %/tree_fw.o %/tree_dev.o %/softswitch.o,$^) $(FW)/boards/tile/libfw.a $(FW_LDLIBS) -o $@
	$(CHECKELF) $@

TREE_ALL := $(BIN)/tree $(FW)/tree.elf $(FW)/boards/tile/tree.elf
TARGETS += $(TREE_ALL)

# make sim APP=tree: the tree on the cycle model of CONFIG, checked against the oracle.
ifeq ($(APP),tree)
NODES     ?= 100000
TREE_SEED ?= 1
TREE_FW    = $(if $(filter tile,$(CONFIG)),$(FW)/boards/tile/tree.elf,$(FW)/tree.elf)
sim: all $(TREE_ALL)
	$(if $(ENGINE),TSIM_ENGINE=$(ENGINE)) $(BIN)/tree --nodes $(NODES) --seed $(TREE_SEED) --engine sim \
	  --config $(CONFIG) --fw $(TREE_FW) --tsim $(BIN)/tsim $(if $(SEED),--delay-seed $(SEED))
endif

# make bench-tree: the tree at 10^4 and 10^5 nodes on the board and box models (bench/tree.sh; minutes).
.PHONY: bench-tree
bench-tree: $(TREE_ALL) $(BIN)/tsim $(BIN)/tg_poets $(FW)/tgp_tree.elf
	BUILD=$(BUILD) bench/tree.sh
BENCHES += bench-tree
