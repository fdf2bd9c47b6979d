# tests/hostlink/rules.mk: the host-link suite (tests/hostlink/run.sh): the
# library's unit test against a fake server, the boot test (a host program
# on libhostlink) and the application it boots on tsim.
HL_T      := $(BUILD)/tests/hostlink
HL_TEST_CFLAGS := -Ihost/hostlink -Isim -I$(GEN) -Itests/hostlink -Itests/firmware

$(HL_T)/%.o: tests/hostlink/%.c $(HOSTLINK_HDRS) tests/hostlink/wire.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HL_TEST_CFLAGS) -c $< -o $@

$(HL_T)/test_hostlink: $(HL_T)/test_hostlink.o $(HOSTLINK_LIB) $(LIB)/libboards.a
	$(CC) $(LDFLAGS) $^ -o $@

$(HL_T)/boot_test: $(HL_T)/boot_test.o $(HOSTLINK_LIB) $(LIB)/libboards.a
	$(CC) $(LDFLAGS) $^ -o $@

# The application, built as firmware is (firmware/rules.mk) and checked.
$(HL_T)/app.fw.o: tests/hostlink/app.c tests/hostlink/wire.h $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -Itests/hostlink -c $< -o $@

$(HL_T)/app.elf: $(HL_T)/app.fw.o $(FW_LIBS) firmware/link/app.ld $(GEN)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_LDFLAGS) $(FW)/app_entry.o $< $(FW)/libfw.a $(FW_LDLIBS) -o $@
	$(CHECKELF) $@ >/dev/null

TARGETS += $(HL_T)/test_hostlink $(HL_T)/boot_test $(HL_T)/app.elf
SUITES  += tests/hostlink/run.sh

# Messages off the board with nothing behind the link (tests/sim's start code and layout).
$(HL_T)/off_board_%.elf: tests/hostlink/off_board.c firmware/include/tinsel.h $(SIM_T)/tile/crt0.o tests/sim/sim.ld \
                         $(GEN)/boards/tile/tinsel.ld $(GEN)/boards/tile/tinsel_config.h
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) -mno-div -Ifirmware/include -I$(GEN)/boards/tile $(if $(filter host,$*),-DTO_HOST) \
	  -L$(GEN)/boards/tile -T tests/sim/sim.ld $(SIM_T)/tile/crt0.o $< -lgcc -o $@
TARGETS += $(HL_T)/off_board_host.elf $(HL_T)/off_board_board.elf

# The app for the tile configuration (its own host id and thread layout);
# boot_test --config tile gets the tile's geometry at run time.
HL_TILE := $(HL_T)/tile
$(HL_TILE)/app.elf: tests/hostlink/app.c tests/hostlink/wire.h $(FW_LIBS) firmware/link/app.ld $(GEN)/boards/tile/tinsel.ld
	@mkdir -p $(dir $@)
	$(FW_CC) $(subst -I$(GEN),-I$(GEN)/boards/tile,$(FW_CFLAGS)) -Itests/hostlink -c $< -o $(HL_TILE)/app.o
	$(FW_CC) $(subst -L$(GEN),-L$(GEN)/boards/tile,$(FW_LDFLAGS)) $(FW)/app_entry.o $(HL_TILE)/app.o $(FW)/libfw.a $(FW_LDLIBS) -o $@
TARGETS += $(HL_TILE)/app.elf

# The echo for boot_test --echo (a host message at every point of tsim's quiet count).
$(HL_T)/echo.elf: tests/hostlink/echo.c firmware/include/tinsel.h $(SIM_T)/tile/crt0.o tests/sim/sim.ld \
                  $(GEN)/boards/tile/tinsel.ld $(GEN)/boards/tile/tinsel_config.h
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) -mno-div -Ifirmware/include -I$(GEN)/boards/tile \
	  -L$(GEN)/boards/tile -T tests/sim/sim.ld $(SIM_T)/tile/crt0.o $< -lgcc -o $@
TARGETS += $(HL_T)/echo.elf
