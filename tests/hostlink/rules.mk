# tests/hostlink/rules.mk: the host-link suite (tests/hostlink/run.sh): the
# library's unit test against a fake server, the boot test (a host program
# on libhostlink) and the application it boots on tsim.
HL_T      := $(BUILD)/tests/hostlink
HL_TEST_CFLAGS := -Ihost/hostlink -Isim -I$(GEN) -Itests/hostlink -Itests/firmware

$(HL_T)/%.o: tests/hostlink/%.c $(HOSTLINK_HDRS) tests/hostlink/wire.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(HL_TEST_CFLAGS) -c $< -o $@

$(HL_T)/test_hostlink: $(HL_T)/test_hostlink.o $(HOSTLINK_LIB)
	$(CC) $(LDFLAGS) $^ -o $@

$(HL_T)/boot_test: $(HL_T)/boot_test.o $(HOSTLINK_LIB)
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

# The same library, boot test and app for the tile configuration (its own
# thread-address layout), to boot a tile through the host link.
HL_TILE := $(HL_T)/tile
$(HL_TILE)/obj/%.o: host/hostlink/%.c $(HOSTLINK_HDRS) $(GEN)/boards/tile/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(GEN)/boards/tile -Isim -c $< -o $@
$(HL_TILE)/obj/elf32.o: sim/elf32.c sim/elf32.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isim -c $< -o $@
$(HL_TILE)/libhostlink.a: $(HOSTLINK_SRCS:host/hostlink/%.c=$(HL_TILE)/obj/%.o) $(HL_TILE)/obj/elf32.o
	rm -f $@
	ar rcs $@ $^
$(HL_TILE)/boot_test: tests/hostlink/boot_test.c tests/hostlink/wire.h $(HL_TILE)/libhostlink.a
	$(CC) $(CFLAGS) -Ihost/hostlink -Isim -I$(GEN)/boards/tile -Itests/hostlink $< $(HL_TILE)/libhostlink.a $(LDFLAGS) -o $@
$(HL_TILE)/app.elf: tests/hostlink/app.c tests/hostlink/wire.h $(FW_LIBS) firmware/link/app.ld $(GEN)/boards/tile/tinsel.ld
	@mkdir -p $(dir $@)
	$(FW_CC) $(subst -I$(GEN),-I$(GEN)/boards/tile,$(FW_CFLAGS)) -Itests/hostlink -c $< -o $(HL_TILE)/app.o
	$(FW_CC) $(subst -L$(GEN),-L$(GEN)/boards/tile,$(FW_LDFLAGS)) $(FW)/app_entry.o $(HL_TILE)/app.o $(FW)/libfw.a $(FW_LDLIBS) -o $@
TARGETS += $(HL_TILE)/boot_test $(HL_TILE)/app.elf
# The boot loader for the tile (tsim --boot): its HostId and stacks differ from the board's.
$(HL_TILE)/boot.elf: firmware/boot/entry.S firmware/boot/boot.c firmware/link/boot.ld $(GEN)/boards/tile/tinsel.ld $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(subst -I$(GEN),-I$(GEN)/boards/tile,$(FW_CFLAGS)) -fno-jump-tables -c firmware/boot/entry.S -o $(HL_TILE)/boot_entry.o
	$(FW_CC) $(subst -I$(GEN),-I$(GEN)/boards/tile,$(FW_CFLAGS)) -fno-jump-tables -c firmware/boot/boot.c -o $(HL_TILE)/boot.o
	$(FW_CC) $(FW_ARCH) -nostdlib -nostartfiles -static -L$(GEN)/boards/tile -Tfirmware/link/boot.ld \
	  $(HL_TILE)/boot_entry.o $(HL_TILE)/boot.o -o $@
TARGETS += $(HL_TILE)/boot.elf
