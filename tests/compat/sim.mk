# tests/compat/sim.mk: programs for tests/compat/sim.sh (tsim --elf without
# tohost; the DebugLink's QueryIn config), built as tests/compat/rules.mk
# builds hello.
# compat_prog NAME SOURCE DIR GEN CFLAGS: $(COMPAT_T)/DIR/NAME.elf from SOURCE
# with the entry `j main`, for the thread layout in GEN (as compat_app).
# slots (extra send slot, disabled links: over the DebugLink) and
# idle (threads that wait forever: tsim --elf without tohost ends idle).
define compat_prog
$(COMPAT_T)/$(3)$(1).elf: $(2) tests/compat/tinsel_entry.S $(FW_HDRS) $(FW_LIBS) firmware/link/app.ld $(4)/tinsel.ld $(CHECKELF)
	@mkdir -p $$(@D)
	$(FW_CC) $(subst -I$(GEN),-I$(4),$(FW_CFLAGS)) $(5) -c $(2) -o $$(@D)/$(1).o
	$(FW_CC) $(FW_ARCH) -c tests/compat/tinsel_entry.S -o $$(@D)/$(1)_entry.o
	$(FW_CC) $(subst -L$(GEN),-L$(4),$(FW_LDFLAGS)) $$(@D)/$(1)_entry.o $$(@D)/$(1).o $(FW)/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@ >/dev/null
TARGETS += $(COMPAT_T)/$(3)$(1).elf
endef
$(eval $(call compat_prog,slots,tests/compat/slots.c,,$(GEN),))
$(eval $(call compat_prog,slots_east,tests/compat/slots.c,,$(GEN),-DEAST))
$(eval $(call compat_prog,idle,tests/compat/idle.c,tile/,$(GEN)/boards/tile,))
SUITES  += tests/compat/sim.sh
