# stream/rules.mk: MERCATOR's scheduling protocol (seed 001) for streaming
# graphs (stream/) and its app, the pipeline (apps/pipeline/): the host
# oracle, the unit tests, the softswitch engine on the host (pipeline_ss)
# and the firmware images for the cycle models. docs/stream.md.
#
#   make sim APP=pipeline [CONFIG=tile|board|box] [SEED=S] [ITEMS=N]   (apps/pipeline/sim.sh)

STREAM_HDRS   := $(wildcard stream/*.h apps/pipeline/*.h)
STREAM_CORE   := stream/stream.c apps/pipeline/pipeline.c
STREAM_IFLAGS := -Istream -Iapps/pipeline

$(BIN)/test_stream: stream/test_stream.c stream/stream_func.c $(STREAM_CORE) $(STREAM_HDRS) tests/firmware/unit.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(STREAM_IFLAGS) $(filter %.c,$^) $(LDFLAGS) -o $@

$(BIN)/pipeline_oracle: apps/pipeline/pipeline_oracle.c apps/pipeline/pipeline_args.c stream/stream_report.c \
                        $(STREAM_CORE) $(STREAM_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(STREAM_IFLAGS) $(filter %.c,$^) $(LDFLAGS) -o $@

# The real softswitch compiled for the host, with simulated mailboxes.
$(BIN)/pipeline_ss: apps/pipeline/pipeline_ss.c apps/pipeline/pipeline_args.c stream/stream_report.c \
                    stream/ss_stream.c stream/stream_func.c firmware/softswitch/softswitch.c $(STREAM_CORE) $(STREAM_HDRS) $(FW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(STREAM_IFLAGS) -Ifirmware/softswitch -I$(GEN) $(filter %.c,$^) $(LDFLAGS) -o $@

TARGETS += $(BIN)/test_stream $(BIN)/pipeline_oracle $(BIN)/pipeline_ss

# Firmware: one thread program for every node kind (apps/pipeline/pipeline_fw.c),
# within real Tinsel's instruction memory (checkelf's 7616 bytes): the host
# builds the graph and loads it as data, the threads report raw words the
# host formats, and the softswitch is built with SS_OP2=0 (no OP2
# invocations or system messages: docs/stream.md "Firmware size").
# $(FW)/pipeline.elf for a board or a box, $(FW)/boards/tile/pipeline.elf for
# a tile's layout. The stream objects and that softswitch at -Os
# -msave-restore, linked with -flto: -O2 does not fit (sizes and cycles:
# docs/stream.md "Firmware size").
STREAM_FW_OPT := -Os -msave-restore -flto
PL_SS_FLAGS   := -DSS_OP2=0 -msave-restore -flto
PL_FW_OBJS    := stream ss_stream pipeline pipeline_fw
# PL_IMEM=enlarged: checked against the enlarged model's budget
# (TinselEnlargedAppInstrBytes) and run with tsim --imem enlarged.
PL_IMEM       := standard
PL_CHECKELF   := $(if $(filter enlarged,$(PL_IMEM)),--budget 64960)
PL_TILE_CFLAGS = $(subst -I$(GEN),-I$(GEN)/boards/tile,$(FW_CFLAGS))
# $(1): the image's folder, $(2): the name of its compile flags, $(3): its gen folder
define pl_fw_layout
$(1)/stream/pl_%.o: stream/%.c $(STREAM_HDRS) $(FW_HDRS) $(3)/tinsel_config.h stream/rules.mk
	@mkdir -p $$(@D)
	$(FW_CC) $$($(2)) $(STREAM_FW_OPT) $(STREAM_IFLAGS) -Itaskgraph -c $$< -o $$@
$(1)/stream/pl_%.o: apps/pipeline/%.c $(STREAM_HDRS) $(FW_HDRS) $(3)/tinsel_config.h taskgraph/ssrun_fw.h stream/rules.mk
	@mkdir -p $$(@D)
	$(FW_CC) $$($(2)) $(STREAM_FW_OPT) $(STREAM_IFLAGS) -Itaskgraph -c $$< -o $$@
$(1)/stream/pl_softswitch.o: firmware/softswitch/softswitch.c $(FW_HDRS) $(3)/tinsel_config.h stream/rules.mk
	@mkdir -p $$(@D)
	$(FW_CC) $$($(2)) $(PL_SS_FLAGS) -c $$< -o $$@
$(1)/pipeline.elf: $(PL_FW_OBJS:%=$(1)/stream/pl_%.o) $(1)/stream/pl_softswitch.o $(1)/app_entry.o $(1)/libfw.a \
                   firmware/link/app.ld $(3)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(filter-out -I%,$($(2))) $(STREAM_FW_OPT) $(subst -L$(GEN),-L$(3),$(FW_LDFLAGS)) \
	  $(1)/app_entry.o $(PL_FW_OBJS:%=$(1)/stream/pl_%.o) \
	  $(1)/stream/pl_softswitch.o $(1)/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $(PL_CHECKELF) $$@
TARGETS += $(1)/pipeline.elf
endef
$(eval $(call pl_fw_layout,$(FW),FW_CFLAGS,$(GEN)))
$(eval $(call pl_fw_layout,$(FW)/boards/tile,PL_TILE_CFLAGS,$(GEN)/boards/tile))

# The host side of a model run: images, preload, tsim, the reports formatted and judged.
$(BIN)/pipeline_tinsel: apps/pipeline/pipeline_tinsel.c apps/pipeline/pipeline_args.c stream/stream_report.c \
                        stream/ss_stream.c taskgraph/ssrun.c host/tinsel/tsim_preload_write.c $(STREAM_CORE) $(STREAM_HDRS) \
                        $(FW_HDRS) taskgraph/ssrun.h host/place/place.h $(LIB)/libop2_place.a $(LIB)/libboards.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(STREAM_IFLAGS) -Itaskgraph -Ihost/place -Ihost/tinsel -Isim -Ifirmware/softswitch -I$(GEN) \
	  $(filter %.c,$^) $(LDFLAGS) $(PLACE_LIBS) -o $@
TARGETS += $(BIN)/pipeline_tinsel

.PHONY: pipeline-sim
PIPELINE_ITEMS := $(or $(ITEMS),300)
PIPELINE_FW = $(if $(filter tile,$(CONFIG)),$(FW)/boards/tile,$(FW))/pipeline.elf
# (the model: tsim-tile, or tsim-board for a board and for the six boards of a box)
pipeline-sim: $(BIN)/pipeline_oracle $(BIN)/pipeline_ss $(BIN)/pipeline_tinsel $(BIN)/tsim \
              $(BIN)/tsim-$(if $(filter tile,$(CONFIG)),tile,board) $(PIPELINE_FW)
	@BUILD=$(BUILD) CONFIG=$(or $(CONFIG),board) SEED=$(SEED) ITEMS=$(PIPELINE_ITEMS) ELF=$(PIPELINE_FW) IMEM=$(PL_IMEM) \
	  apps/pipeline/sim.sh

SUITES += tests/stream/run.sh

# make sim APP=pipeline (apps/rules.mk's sim serves the OP2 apps only)
ifeq ($(APP),pipeline)
sim: pipeline-sim
endif

# Benchmark (not a test): the pipeline on the tile model, 300 items, three
# queue configurations side by side (bench/pipeline.sh).
.PHONY: bench-pipeline
bench-pipeline: $(BIN)/pipeline_oracle $(BIN)/pipeline_tinsel $(BIN)/tsim $(BIN)/tsim-tile $(FW)/boards/tile/pipeline.elf
	BUILD=$(BUILD) bench/pipeline.sh
BENCHES += bench-pipeline
