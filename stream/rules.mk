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

# Firmware: one image per model configuration (the placement differs),
# booted by tests/firmware's stub on every thread (tsim --all-threads).
# The harness with printf exceeds a core pair's 7616 bytes: run with
# tsim --imem enlarged (the sizes: docs/stream.md "Measured").
STREAM_FW := $(FW)/stream
# -O2 rather than the firmware's -Os: about 25 % fewer cycles on the tile model (docs/stream.md
# "Measured"); the images exceed real Tinsel's instruction memory either way.
STREAM_FW_OPT := -O2
$(STREAM_FW)/%.o: stream/%.c $(STREAM_HDRS) $(FW_HDRS) stream/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(STREAM_FW_OPT) $(STREAM_IFLAGS) -c $< -o $@
$(STREAM_FW)/pipeline.o: apps/pipeline/pipeline.c $(STREAM_HDRS) $(FW_HDRS) stream/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(STREAM_FW_OPT) $(STREAM_IFLAGS) -c $< -o $@
STREAM_FW_OBJS := $(addprefix $(STREAM_FW)/,stream.o ss_stream.o stream_report.o pipeline.o)
PIPELINE_ITEMS := $(or $(ITEMS),300)
# pipeline_CONFIG_ITEMS[_VARIANT].elf: the placement for CONFIG, ITEMS source
# items; _flood: every queue at its minimum, parent buffers of 1; _roomy:
# queues of 64 items and 16 signals, parent buffers of 50.
PL_VARIANT_flood := -DPL_QCAP=0 -DPL_SCAP=0 -DPL_PB1=1 -DPL_PB2=1
PL_VARIANT_roomy := -DPL_QCAP=64 -DPL_SCAP=16 -DPL_PB1=50 -DPL_PB2=50
PL_PLACE_tile  := 0
PL_PLACE_board := 1
PL_PLACE_box   := 2
$(STREAM_FW)/pipeline_%.o: apps/pipeline/pipeline_fw.c $(STREAM_HDRS) $(FW_HDRS) stream/rules.mk
	@mkdir -p $(@D)
	$(FW_CC) $(FW_CFLAGS) $(STREAM_FW_OPT) $(STREAM_IFLAGS) -DPL_PLACE=$(PL_PLACE_$(word 1,$(subst _, ,$*))) \
	  -DPL_ITEMS=$(word 2,$(subst _, ,$*)) $(PL_VARIANT_$(word 3,$(subst _, ,$*))) -c $< -o $@
$(STREAM_FW)/pipeline_%.elf: $(STREAM_FW)/pipeline_%.o $(STREAM_FW_OBJS) $(FW)/boot/entry.S.o \
                              $(FW)/sim/sim_boot_all.o $(FW)/softswitch/softswitch.o $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW)/boot/entry.S.o $(FW)/sim/sim_boot_all.o $(FW)/softswitch/softswitch.o \
	  $< $(STREAM_FW_OBJS) $(FW_LIBS) $(FW_LDLIBS) -o $@
.SECONDARY: $(STREAM_FW)/pipeline_tile_100_flood.o $(STREAM_FW)/pipeline_tile_100.o $(STREAM_FW)/pipeline_tile_300.o $(STREAM_FW)/pipeline_board_300.o $(STREAM_FW)/pipeline_box_300.o
TARGETS += $(STREAM_FW)/pipeline_tile_100_flood.elf $(STREAM_FW)/pipeline_tile_100.elf $(STREAM_FW)/pipeline_tile_300.elf $(STREAM_FW)/pipeline_board_300.elf $(STREAM_FW)/pipeline_box_300.elf

.PHONY: pipeline-sim
PIPELINE_ELF = $(STREAM_FW)/pipeline_$(or $(CONFIG),board)_$(PIPELINE_ITEMS).elf
# (the model: tsim-tile, or tsim-board for a board and for the six boards of a box)
pipeline-sim: $(BIN)/pipeline_oracle $(BIN)/pipeline_ss $(BIN)/tsim $(BIN)/tsim-$(if $(filter tile,$(CONFIG)),tile,board) $(PIPELINE_ELF)
	@BUILD=$(BUILD) CONFIG=$(or $(CONFIG),board) SEED=$(SEED) ITEMS=$(PIPELINE_ITEMS) ELF=$(PIPELINE_ELF) apps/pipeline/sim.sh

SUITES += tests/stream/run.sh

# make sim APP=pipeline (apps/rules.mk's sim serves the OP2 apps only)
ifeq ($(APP),pipeline)
sim: pipeline-sim
endif

# Benchmark (not a test): the pipeline on the tile model, 300 items, three
# queue configurations side by side (bench/pipeline.sh).
.PHONY: bench-pipeline
bench-pipeline: $(BIN)/pipeline_oracle $(BIN)/tsim $(BIN)/tsim-tile \
                $(addprefix $(STREAM_FW)/pipeline_tile_300,.elf _flood.elf _roomy.elf)
	BUILD=$(BUILD) bench/pipeline.sh
BENCHES += bench-pipeline
