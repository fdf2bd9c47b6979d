# tests/compat/heat/rules.mk (included from tests/compat/rules.mk): the
# POLite-style heat app (tests/compat/heat/run.sh). The device side is C++
# built with riscv64-unknown-elf-g++ without any C++ library (Debian ships
# none for it): the firmware flags less -std=c11, plus no exceptions, RTTI
# or thread-safe statics. With Tinsel's ABI, -mabi=ilp32, when libfw has
# an ilp32 build (firmware/rules.mk FW_ILP32_*), else with ours (ilp32f).
# heat.elf runs on a board and a box, tile/heat.elf on a tile (the tile's
# thread layout).
HEAT_T        := $(COMPAT_T)/heat
FW_CXX        := riscv64-unknown-elf-g++
ifdef FW_ILP32_LIBS
HEAT_FW_CFLAGS  = $(FW_ILP32_CFLAGS)
HEAT_FW_ARCH    = $(FW_ILP32_ARCH)
HEAT_FW_LDFLAGS = $(FW_ILP32_LDFLAGS)
HEAT_LIBFW      = $(FW)/ilp32/libfw.a
else
HEAT_FW_CFLAGS  = $(FW_CFLAGS)
HEAT_FW_ARCH    = $(FW_ARCH)
HEAT_FW_LDFLAGS = $(FW_LDFLAGS)
HEAT_LIBFW      = $(FW)/libfw.a
endif
# Tinsel's own compiler flags (tests/compat/rules.mk COMPAT_TINSEL_FLAGS)
# when they are there, else ours.
HEAT_CXXFLAGS  = $(if $(COMPAT_TINSEL_FLAGS),$(COMPAT_TINSEL_FLAGS) -I$(GEN),$(filter-out -std=c11,$(HEAT_FW_CFLAGS))) \
                 -std=c++17 -fno-exceptions -fno-rtti -fno-threadsafe-statics -fno-use-cxa-atexit -Itests/compat/heat
HEAT_DEV_HDRS := tests/compat/heat/Heat.h tests/compat/heat/heat_layout.h

$(HEAT_T)/heat_host: tests/compat/heat/heat_host.c tests/compat/heat/heat_layout.h $(HOSTLINK_HDRS) \
                     $(HOSTLINK_LIB) $(PLACE_HDRS) $(PLACE_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Ihost/place -Itests/compat/heat -I$(GEN) $< $(HOSTLINK_LIB) $(PLACE_LIB) \
	  $(LIB)/libboards.a -lmetis -lm $(LDFLAGS) -o $@

# heat_app DIR GEN: heat.elf for the thread layout in GEN.
define heat_app
$(HEAT_T)/$(1)heat.elf: tests/compat/heat/heat.cpp tests/compat/heat/rules.mk tests/compat/tinsel_entry.S $(HEAT_DEV_HDRS) $(FW_HDRS) \
                        $(2)/tinsel_config.h $(2)/tinsel.ld $(HEAT_LIBFW) firmware/link/app.ld $(CHECKELF)
	@mkdir -p $$(@D)
	$(FW_CXX) $$(subst -I$(GEN),-I$(2),$$(HEAT_CXXFLAGS)) -c tests/compat/heat/heat.cpp -o $$(@D)/heat.o
	$(FW_CC) $(HEAT_FW_ARCH) -c tests/compat/tinsel_entry.S -o $$(@D)/tinsel_entry.o
	$(FW_CC) $$(subst -L$(GEN),-L$(2),$$(HEAT_FW_LDFLAGS)) $$(@D)/tinsel_entry.o $$(@D)/heat.o $(HEAT_LIBFW) \
	  $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@ >/dev/null
endef
$(eval $(call heat_app,,$(GEN)))
$(eval $(call heat_app,tile/,$(GEN)/boards/tile))

TARGETS += $(HEAT_T)/heat_host $(HEAT_T)/heat.elf $(HEAT_T)/tile/heat.elf
SUITES  += tests/compat/heat/run.sh
