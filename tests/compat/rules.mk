# tests/compat/rules.mk: programs written the way Tinsel's own are
# (tinsel.md §11), run on the models through libhostlink
# (tests/compat/run.sh). hello: entry `j main`, main returns.
COMPAT_T := $(BUILD)/tests/compat

$(COMPAT_T)/compat_host: tests/compat/compat_host.c $(HOSTLINK_HDRS) $(HOSTLINK_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Isim -I$(GEN) $< $(HOSTLINK_LIB) $(LIB)/libboards.a $(LDFLAGS) -o $@

# compat_app DIR GEN: hello.elf for the thread layout in GEN (board: $(GEN), tile: $(GEN)/boards/tile).
define compat_app
$(COMPAT_T)/$(1)hello.elf: tests/compat/hello.c tests/compat/tinsel_entry.S $(FW_HDRS) $(FW_LIBS) firmware/link/app.ld $(CHECKELF)
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

# The host-link socket names as Tinsel's pciestreamd and HostLink use them.
$(COMPAT_T)/sockname: tests/compat/sockname.c $(HOSTLINK_HDRS) sim/tsim_socket.h $(OBJ)/sim/tsim_socket.o \
                      $(HOSTLINK_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Isim -I$(GEN) $< $(OBJ)/sim/tsim_socket.o $(HOSTLINK_LIB) $(LIB)/libboards.a \
	  $(LDFLAGS) -o $@
TARGETS += $(COMPAT_T)/sockname

# The POLite-style heat app: tests/compat/heat/rules.mk.
include tests/compat/heat/rules.mk
