# taskgraph/rules.mk: tg.h, the task-graph API (issue 20 item 1; docs/taskgraph.md).
#   $(LIB)/libtg.a    the API and its host reference scheduler (the oracle)
#   $(BIN)/tg_demo    checkpoint and resume of the worked example
TG_HDRS := taskgraph/tg.h taskgraph/tg_example.h taskgraph/tg_merge.h firmware/softswitch/ss_counted.h

$(OBJ)/taskgraph/%.o: taskgraph/%.c $(TG_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itaskgraph -Ifirmware/softswitch -c $< -o $@

$(LIB)/libtg.a: $(OBJ)/taskgraph/tg.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/tg_demo: $(OBJ)/taskgraph/tg_demo.o $(LIB)/libtg.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@

TARGETS += $(LIB)/libtg.a $(BIN)/tg_demo

# The POETS back end (tg_poets.h): the host program (placement, the host
# softswitch engine, the tsim runner, the check against the oracle) and the
# firmware of the worked example's kernels, for a board or box and a tile.
TGP_HDRS := $(TG_HDRS) taskgraph/tg_poets.h taskgraph/ssrun.h taskgraph/ssrun_fw.h taskgraph/tgp_example.c taskgraph/tgp_tree.c \
            apps/tree/tree.h apps/tree/tree_tg.h firmware/softswitch/softswitch.h
TGP_HOST_SRCS := taskgraph/tg_poets.c taskgraph/tgp_dev.c taskgraph/ssrun.c taskgraph/ssrun_hl.c \
                 host/tinsel/tsim_preload_write.c
$(BIN)/tg_poets: $(TGP_HOST_SRCS) $(TGP_HDRS) firmware/softswitch/softswitch.c $(GEN)/tinsel_config.h $(LIB)/libtg.a \
                 $(PLACE_LIB) $(LIB)/libboards.a $(HOSTLINK_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DTGP_HOST -Itaskgraph -Iapps/tree -Ihost/place -Ihost/tinsel -Ihost/hostlink -Isim -Ifirmware/softswitch -I$(GEN) \
	  $(TGP_HOST_SRCS) $(LIB)/libtg.a $(HOSTLINK_LIB) $(LDFLAGS) $(PLACE_LIBS) -o $@

# One image per kernel table: tgp_example.elf (the worked example) and
# tgp_tree.elf (the multifrontal tree's graph, apps/tree/tree_tg.h).
TGP_KERNELS := example tree
TGP_FW_OBJS = tgp_fw.o tgp_dev.o tgp_$(1).o softswitch.o
# -msave-restore: prologues and epilogues call libgcc's shared register
# save and restore routines instead of inlining the stores and loads (a few
# cycles a call); 572 bytes less in the example's image, which the sequence
# numbers need (docs/taskgraph.md, "Message order"). The softswitch is
# compiled again with it for these images; other images keep theirs.
TGP_FW_FLAGS := -msave-restore -Itaskgraph -Iapps/tree
$(FW)/taskgraph/%.o: taskgraph/%.c $(TGP_HDRS) $(FW_HDRS) taskgraph/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(TGP_FW_FLAGS) -c $< -o $@
$(FW)/taskgraph/softswitch.o: firmware/softswitch/softswitch.c $(FW_HDRS) taskgraph/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(TGP_FW_FLAGS) -c $< -o $@
$(FW)/boards/tile/taskgraph/%.o: taskgraph/%.c $(TGP_HDRS) $(FWL_tile_HDRS) taskgraph/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FWL_tile_CFLAGS) $(TGP_FW_FLAGS) -c $< -o $@
$(FW)/boards/tile/taskgraph/softswitch.o: firmware/softswitch/softswitch.c $(FWL_tile_HDRS) taskgraph/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FWL_tile_CFLAGS) $(TGP_FW_FLAGS) -c $< -o $@
define tgp_image
$(FW)/tgp_$(1).elf: $(addprefix $(FW)/taskgraph/,$(call TGP_FW_OBJS,$(1))) $(FW_LIBS) \
                    firmware/link/app.ld $(GEN)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_LDFLAGS) $(FW)/app_entry.o $(addprefix $(FW)/taskgraph/,$(call TGP_FW_OBJS,$(1))) \
	  $(FW)/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@
$(FW)/boards/tile/tgp_$(1).elf: $(addprefix $(FW)/boards/tile/taskgraph/,$(call TGP_FW_OBJS,$(1))) \
                                $(FW)/boards/tile/app_entry.o $(FW)/boards/tile/libfw.a firmware/link/app.ld \
                                $(GEN)/boards/tile/tinsel.ld $(CHECKELF)
	$(FW_CC) $(subst -L$(GEN),-L$(GEN)/boards/tile,$(FW_LDFLAGS)) $(FW)/boards/tile/app_entry.o \
	  $(addprefix $(FW)/boards/tile/taskgraph/,$(call TGP_FW_OBJS,$(1))) $(FW)/boards/tile/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@
TARGETS += $(FW)/tgp_$(1).elf $(FW)/boards/tile/tgp_$(1).elf
endef
$(foreach k,$(TGP_KERNELS),$(eval $(call tgp_image,$(k))))
TARGETS += $(BIN)/tg_poets
