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
