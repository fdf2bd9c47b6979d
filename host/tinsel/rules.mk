# host/tinsel/rules.mk: libop2_tinsel.a, the runtime op2c links into every
# --target tinsel executable (beside libop2_seq.a, whose declarations and
# data handling it reuses), and the headers those executables and their
# host-compiled device code need: op_tinsel.h, the softswitch contract and
# the board parameters it includes, and the thread-tree headers
# (firmware/softswitch/ss_tree.h, ss_counted.h) the functional engine shares
# with the softswitch.

TINSELRT_SRCS := $(wildcard host/tinsel/*.c)
TINSELRT_OBJS := $(TINSELRT_SRCS:%.c=$(OBJ)/%.o)
# The HostLink engines talk through libhostlink (host/hostlink/rules.mk builds
# these objects): they go into this library, so op2c links nothing more.
TINSELRT_HL_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard host/hostlink/*.c)) $(OBJ)/host/hostlink/elf32.o
TINSELRT_LIB  := $(LIB)/libop2_tinsel.a
TINSELRT_INC  := $(BUILD)/include/op_tinsel.h $(BUILD)/include/softswitch.h $(BUILD)/include/tinsel_config.h \
                 $(BUILD)/include/ss_tree.h $(BUILD)/include/ss_counted.h \
                 $(BUILD)/include/op2_soft_sqrt.inc $(BUILD)/include/op2_steps.inc

$(OBJ)/host/tinsel/%.o: host/tinsel/%.c $(wildcard host/tinsel/*.h) host/seq/op_seq.h \
                        firmware/softswitch/ss_tree.h firmware/softswitch/ss_counted.h host/place/place.h \
                        firmware/softswitch/softswitch.h $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_DEFS) -Ihost/seq -Ihost/place -Ihost/hostlink -Iboards -Isim -Ifirmware/softswitch -I$(GEN) -c $< -o $@

# The sim engine starts the tsim of this build unless OP2_TINSEL_TSIM says otherwise.
$(OBJ)/host/tinsel/tsim_spawn.o: EXTRA_DEFS := -DOP2T_TSIM_PATH='"$(abspath $(BIN)/tsim)"'

$(TINSELRT_LIB): $(TINSELRT_OBJS) $(TINSELRT_HL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/include/op_tinsel.h: host/tinsel/op_tinsel.h
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/include/softswitch.h: firmware/softswitch/softswitch.h
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/include/op2_soft_sqrt.inc: compiler/backends/tinsel/op2_soft_sqrt.inc
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/include/op2_steps.inc: compiler/backends/tinsel/op2_steps.inc
	@mkdir -p $(dir $@)
	cp $< $@
$(BUILD)/include/tinsel_config.h: $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	cp $< $@

TARGETS += $(TINSELRT_LIB) $(TINSELRT_INC)

# How op2c builds firmware images: firmware/'s flags and link line
# (firmware/rules.mk: FW_CFLAGS, FW_LDFLAGS, FW_LIBS, FW_LDLIBS) with
# absolute paths, one word per line; the softswitch's objects come first.
FW_OP2C_DIR := $(LIB)/firmware
FW_OP2C_SS  := $(FW)/softswitch/softswitch_steps.o $(FW)/softswitch/main.o
# op2c --count-events links this softswitch in place of softswitch_steps.o.
TARGETS     += $(FW)/softswitch/softswitch_steps_count.o
$(FW_OP2C_DIR)/cflags: firmware/rules.mk host/tinsel/rules.mk
	@mkdir -p $(@D)
	printf '%s\n' $(patsubst -I%,-I$(CURDIR)/%,$(FW_CFLAGS)) >$@
# libm.o is linked as an object: its overrides (sqrtf, powf, ...) must win over
# picolibc's own copies, which picolibc's objects would pull from their archive.
$(FW_OP2C_DIR)/ldflags: firmware/rules.mk host/tinsel/rules.mk $(FW_LIBS) $(FW_OP2C_SS) $(GEN)/tinsel.ld $(FW_PICOLIBC)
	@mkdir -p $(@D)
	printf '%s\n' $(patsubst -L%,-L$(CURDIR)/%,$(patsubst -T%,-T$(CURDIR)/%,$(FW_LDFLAGS))) \
	  $(abspath $(FW)/app_entry.o $(FW_OP2C_SS) $(FW)/lib/libm.o) >$@
	printf '%s\n' LIBS -Wl,--start-group $(abspath $(FW)/libfw.a) $(FW_PICOLIBC) -Wl,--end-group $(FW_LDLIBS) >>$@
TARGETS += $(FW_OP2C_DIR)/cflags $(FW_OP2C_DIR)/ldflags
$(BUILD)/include/ss_%.h: firmware/softswitch/ss_%.h
	@mkdir -p $(dir $@)
	cp $< $@

# Firmware for configurations whose thread layout differs from the board's
# (a tile: 4 cores and one DRAM per board, so another host id, DRAM
# partitions and routing-key bit): firmware/'s library, entry, softswitch
# and boot loader compiled against that configuration's tinsel_config.h and
# tinsel.ld, under $(FW)/boards/NAME/, and op2c's flags for it under
# $(LIB)/firmware/NAME/ (op2c --fw-config NAME builds EXE.fw/NAME/). Box and
# cluster share the board's layout and use the board's firmware. tsim-NAME
# boots $(FW)/boards/NAME/boot.elf (sim/rules.mk).
FW_LAYOUTS := tile core
define fw_layout
FWL_$(1) := $(FW)/boards/$(1)
FWL_$(1)_CFLAGS := $(subst -I$(GEN),-I$(GEN)/boards/$(1),$(FW_CFLAGS))
FWL_$(1)_HDRS := $(filter-out $(GEN)/tinsel_config.h,$(FW_HDRS)) $(GEN)/boards/$(1)/tinsel_config.h
$(FW)/boards/$(1)/lib/%.o: firmware/lib/%.c $$(FWL_$(1)_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) -c $$< -o $$@
$(FW)/boards/$(1)/libfw.a: $(FW_LIB_SRCS:%=$(FW)/boards/$(1)/lib/%.o)
	@rm -f $$@
	riscv64-unknown-elf-ar rcs $$@ $$^
$(FW)/boards/$(1)/app_entry.o: firmware/app/entry.S $(GEN)/boards/$(1)/tinsel_config.h
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) -c $$< -o $$@
$(FW)/boards/$(1)/softswitch/%.o: firmware/softswitch/%.c $$(FWL_$(1)_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) $(FW_SS_CFLAGS) -c $$< -o $$@
$(FW)/boards/$(1)/softswitch/softswitch_steps.o: firmware/softswitch/softswitch.c $$(FWL_$(1)_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) $(FW_SS_CFLAGS) -DSS_STEPS=1 -c $$< -o $$@
$(FW)/boards/$(1)/softswitch/softswitch_steps_count.o: firmware/softswitch/softswitch.c $$(FWL_$(1)_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) $(FW_SS_CFLAGS) -DSS_STEPS=1 -DSS_COUNT_EVENTS=1 -c $$< -o $$@
TARGETS += $(FW)/boards/$(1)/softswitch/softswitch_steps_count.o
$(FW)/boards/$(1)/boot/%.o: firmware/boot/% $$(FWL_$(1)_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $$(FWL_$(1)_CFLAGS) -fno-jump-tables -c $$< -o $$@
$(FW)/boards/$(1)/boot.elf: $(FW)/boards/$(1)/boot/entry.S.o $(FW)/boards/$(1)/boot/boot.c.o firmware/link/boot.ld \
                            $(GEN)/boards/$(1)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_ARCH) -nostdlib -nostartfiles -static -L$(GEN)/boards/$(1) -Tfirmware/link/boot.ld $$(filter %.o,$$^) -o $$@
	$(CHECKELF) --boot $$@
$(LIB)/firmware/$(1)/cflags: firmware/rules.mk host/tinsel/rules.mk
	@mkdir -p $$(@D)
	printf '%s\n' $$(patsubst -I%,-I$(CURDIR)/%,$$(FWL_$(1)_CFLAGS)) >$$@
$(LIB)/firmware/$(1)/ldflags: firmware/rules.mk host/tinsel/rules.mk $(FW)/boards/$(1)/libfw.a $(FW)/boards/$(1)/app_entry.o \
                              $(FW)/boards/$(1)/softswitch/softswitch_steps.o $(FW)/boards/$(1)/softswitch/main.o $(GEN)/boards/$(1)/tinsel.ld $(FW_PICOLIBC)
	@mkdir -p $$(@D)
	printf '%s\n' $$(patsubst -L%,-L$(CURDIR)/%,$$(patsubst -T%,-T$(CURDIR)/%,$$(subst -L$(GEN),-L$(GEN)/boards/$(1),$(FW_LDFLAGS)))) \
	  $$(abspath $(FW)/boards/$(1)/app_entry.o $(FW)/boards/$(1)/softswitch/softswitch_steps.o $(FW)/boards/$(1)/softswitch/main.o $(FW)/boards/$(1)/lib/libm.o) >$$@
	printf '%s\n' LIBS -Wl,--start-group $$(abspath $(FW)/boards/$(1)/libfw.a) $(FW_PICOLIBC) -Wl,--end-group $(FW_LDLIBS) >>$$@
TARGETS += $(FW)/boards/$(1)/boot.elf $(LIB)/firmware/$(1)/cflags $(LIB)/firmware/$(1)/ldflags
endef
$(foreach c,$(FW_LAYOUTS),$(eval $(call fw_layout,$(c))))
