# tests/compat/rules.mk: programs written the way Tinsel's own are
# (tinsel.md §11), run on the models through libhostlink
# (tests/compat/run.sh). hello: entry `j main`, main returns; ring.cpp: the
# same in POLite-style C++. And parity.sh, Tinsel's names in our headers.
COMPAT_T := $(BUILD)/tests/compat

$(COMPAT_T)/compat_host: tests/compat/compat_host.c $(HOSTLINK_HDRS) $(HOSTLINK_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Isim -I$(GEN) $< $(HOSTLINK_LIB) $(LIB)/libboards.a $(LDFLAGS) -o $@

# compat_app DIR GEN: hello.elf for the thread layout in GEN (board: $(GEN), tile: $(GEN)/boards/tile).
define compat_app
$(COMPAT_T)/$(1)hello.elf: tests/compat/hello.c tests/compat/tinsel_entry.S $(FW_HDRS) $(FW_LIBS) firmware/link/app.ld $(CHECKELF) \
                           $(2)/tinsel.ld $(2)/tinsel_config.h
	@mkdir -p $$(@D)
	$(FW_CC) $(subst -I$(GEN),-I$(2),$(FW_CFLAGS)) -c tests/compat/hello.c -o $$(@D)/hello.o
	$(FW_CC) $(FW_ARCH) -c tests/compat/tinsel_entry.S -o $$(@D)/tinsel_entry.o
	$(FW_CC) $(subst -L$(GEN),-L$(2),$(FW_LDFLAGS)) $$(@D)/tinsel_entry.o $$(@D)/hello.o $(FW)/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@ >/dev/null
endef
$(eval $(call compat_app,,$(GEN)))
$(eval $(call compat_app,tile/,$(GEN)/boards/tile))

TARGETS += $(COMPAT_T)/compat_host $(COMPAT_T)/hello.elf $(COMPAT_T)/tile/hello.elf
SUITES  += tests/compat/run.sh
# Without a host link, and the DebugLink's QueryIn config: tests/compat/sim.mk.
include tests/compat/sim.mk

# The host-link socket names as Tinsel's pciestreamd and HostLink use them.
$(COMPAT_T)/sockname: tests/compat/sockname.c $(HOSTLINK_HDRS) sim/tsim_socket.h $(OBJ)/sim/tsim_socket.o \
                      $(HOSTLINK_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Isim -I$(GEN) $< $(OBJ)/sim/tsim_socket.o $(HOSTLINK_LIB) $(LIB)/libboards.a \
	  $(LDFLAGS) -o $@
TARGETS += $(COMPAT_T)/sockname

# Tinsel's own flags (its globals.mk: ABI ilp32, tinsel.md §11) with our
# headers, linked with libfw's ilp32 build (firmware/rules.mk): hello again
# (C) and ring.cpp, a POLite-style C++ device program (g++).
COMPAT_TINSEL_FLAGS := -mabi=ilp32 -march=rv32imf -static -mcmodel=medany -fvisibility=hidden -nostdlib -nostartfiles \
                       -fsingle-precision-constant -fno-builtin-printf -ffp-contract=off -fno-builtin -ffreestanding \
                       -O2 -W -Wall -Ifirmware/include

# compat_tinsel_app DIR GEN NAME SOURCE COMPILER: DIR/NAME.elf for the thread layout in GEN.
define compat_tinsel_app
$(COMPAT_T)/$(1)$(3).elf: $(4) tests/compat/tinsel_entry.S $(FW_HDRS) $(FW_ILP32_LIBS) firmware/link/app.ld $(CHECKELF)
	@mkdir -p $$(@D)
	$(5) $(COMPAT_TINSEL_FLAGS) -I$(2) -c $(4) -o $$(@D)/$(3).o
	$(FW_CC) $(COMPAT_TINSEL_FLAGS) -I$(2) -c tests/compat/tinsel_entry.S -o $$(@D)/$(3)_entry.o
	$(FW_CC) $(subst -L$(GEN),-L$(2),$(FW_ILP32_LDFLAGS)) $$(@D)/$(3)_entry.o $$(@D)/$(3).o $(FW)/ilp32/libfw.a \
	  $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@ >/dev/null
TARGETS += $(COMPAT_T)/$(1)$(3).elf
endef
$(eval $(call compat_tinsel_app,,$(GEN),hello_ilp32,tests/compat/hello.c,$(FW_CC)))
$(eval $(call compat_tinsel_app,tile/,$(GEN)/boards/tile,hello_ilp32,tests/compat/hello.c,$(FW_CC)))
$(eval $(call compat_tinsel_app,,$(GEN),ring,tests/compat/ring.cpp,riscv64-unknown-elf-g++))
$(eval $(call compat_tinsel_app,tile/,$(GEN)/boards/tile,ring,tests/compat/ring.cpp,riscv64-unknown-elf-g++))

# The POLite-style heat app: tests/compat/heat/rules.mk.
include tests/compat/heat/rules.mk

# The same flags for tests/compat/parity.sh, which compiles outside make.
$(COMPAT_T)/tinsel_flags: tests/compat/rules.mk
	@mkdir -p $(dir $@)
	@echo '$(COMPAT_TINSEL_FLAGS)' > $@
TARGETS += $(COMPAT_T)/tinsel_flags
SUITES  += tests/compat/parity.sh
