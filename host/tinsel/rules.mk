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
                 $(BUILD)/include/op2_soft_sqrt.inc

$(OBJ)/host/tinsel/%.o: host/tinsel/%.c $(wildcard host/tinsel/*.h) host/seq/op_seq.h \
                        firmware/softswitch/ss_tree.h firmware/softswitch/ss_counted.h host/place/place.h \
                        firmware/softswitch/softswitch.h $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(EXTRA_DEFS) -Ihost/seq -Ihost/place -Ihost/hostlink -Isim -Ifirmware/softswitch -I$(GEN) -c $< -o $@

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
$(BUILD)/include/tinsel_config.h: $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	cp $< $@

TARGETS += $(TINSELRT_LIB) $(TINSELRT_INC)

# How op2c builds firmware images: firmware/'s flags and link line
# (firmware/rules.mk: FW_CFLAGS, FW_LDFLAGS, FW_LIBS, FW_LDLIBS) with
# absolute paths, one word per line; the softswitch's objects come first.
FW_OP2C_DIR := $(LIB)/firmware
FW_OP2C_SS  := $(FW)/softswitch/softswitch.o $(FW)/softswitch/main.o
$(FW_OP2C_DIR)/cflags: firmware/rules.mk host/tinsel/rules.mk
	@mkdir -p $(@D)
	printf '%s\n' $(patsubst -I%,-I$(CURDIR)/%,$(FW_CFLAGS)) >$@
$(FW_OP2C_DIR)/ldflags: firmware/rules.mk host/tinsel/rules.mk $(FW_LIBS) $(FW_OP2C_SS) $(GEN)/tinsel.ld
	@mkdir -p $(@D)
	printf '%s\n' $(patsubst -L%,-L$(CURDIR)/%,$(patsubst -T%,-T$(CURDIR)/%,$(FW_LDFLAGS))) \
	  $(abspath $(FW)/app_entry.o $(FW_OP2C_SS)) >$@
	printf '%s\n' LIBS $(abspath $(FW)/libfw.a) $(FW_LDLIBS) >>$@
TARGETS += $(FW_OP2C_DIR)/cflags $(FW_OP2C_DIR)/ldflags
$(BUILD)/include/ss_%.h: firmware/softswitch/ss_%.h
	@mkdir -p $(dir $@)
	cp $< $@
