# firmware/rules.mk: build rules for firmware/ (see the top-level Makefile).
#
# Firmware is built with riscv64-unknown-elf-gcc for real Tinsel:
#   -march=rv32imf -mabi=ilp32f  Tinsel is RV32IMF minus some ops. rv32imf
#       implies zicsr (inline csrrw assembles), and Debian ships the
#       rv32imf/ilp32f multilib (rtl_sim.md §0). ilp32f only passes floats
#       in FP registers, which suits a core with an FPU; doubles stay
#       software either way. Our own images (OP2 firmware, softswitch,
#       tests) keep ilp32f.
#   Tinsel's own build uses -mabi=ilp32 (floats in integer registers), and
#       objects of the two ABIs do not link together, so libfw.a and the
#       app entry are built for ilp32 as well: $(FW)/ilp32/libfw.a and
#       $(FW)/ilp32/app_entry.o (FW_ILP32_*), for objects compiled with
#       Tinsel's flags (tests/compat: hello and ring). Debian has no
#       rv32imf/ilp32 multilib, so those images are linked with
#       -march=rv32im -mabi=ilp32 (FW_ILP32_LDFLAGS), which makes gcc pick
#       rv32im/ilp32's libgcc: the same ABI, and of it only the integer
#       helpers (64-bit shifts) are used; float is hardware and division
#       and double come from libfw as above. docs/tinsel-compat.md, "ABI".
#   -mno-div            Tinsel multiplies but cannot divide: gcc calls
#                       __divsi3 & co., which firmware/lib/libgcc_div.c provides.
#   -ffp-contract=off   no fused multiply-add (Tinsel has none).
#   -fno-builtin        sqrtf() stays a call to our software sqrtf, never fsqrt.s.
#   -ffreestanding -nostdlib: our own libc (firmware/lib). libgcc comes last,
#       for 64-bit shifts and the like; its division and soft-double routines
#       use div and csrrs (frrm), which Tinsel lacks, so libfw.a defines the
#       division and soft-double entry points (libgcc_div.c, libgcc_double.c
#       on softdouble.c) and libgcc's are never linked; checkelf would
#       reject them.
#   -msmall-data-limit=0  no gp-relative small data.
#   -ffunction-sections -fdata-sections, --gc-sections: only what is used
#       reaches the 7616-byte instruction memory.
# Every image is checked by checkelf (instruction subset and imem budget).
# Other folders (the tinsel back end) build their images with FW_CFLAGS,
# FW_LDFLAGS, FW_LIBS and FW_LDLIBS and check them with $(CHECKELF).

FW_CC      := riscv64-unknown-elf-gcc
FW_ARCH    := -march=rv32imf -mabi=ilp32f
FW_INC     := -Ifirmware/include -Ifirmware/lib -Ifirmware/softswitch -I$(GEN)
FW_CFLAGS  := $(FW_ARCH) -mno-div -mcmodel=medany -msmall-data-limit=0 -ffreestanding \
              -fno-builtin -ffp-contract=off -fno-common -ffunction-sections -fdata-sections -std=c11 -Wall -Wextra -Os -g $(FW_INC)
FW_LDFLAGS := $(FW_ARCH) -nostdlib -nostartfiles -static -Wl,--gc-sections -L$(GEN) -Tfirmware/link/app.ld
FW         := $(BUILD)/fw
FW_LIBS    := $(FW)/app_entry.o $(FW)/libfw.a
FW_LDLIBS  := -lgcc
# The libm of OP2 kernels (exp, log, pow, sin, cos, floor, ceil; op2c links
# it after libfw.a, whose sqrtf, sqrt, fmin and fmax win): picolibc, in its
# rv32if/ilp32f build, which has no M extension, so no divide instruction
# (Tinsel has none); what it uses that Tinsel lacks (fsqrt, fmin, fclass)
# libfw.a replaces, and op2c checks every image (docs/device-math.md).
FW_PICOLIBC := /usr/lib/picolibc/riscv64-unknown-elf/lib/rv32if/ilp32f/libc.a
$(FW_PICOLIBC):
	@echo "firmware: $@ is missing: install Debian's picolibc-riscv64-unknown-elf (make deps; mk/packages.txt)" >&2; exit 1
CHECKELF   := $(BIN)/checkelf
ELF2IMG    := $(BIN)/elf2img

FW_LIB_SRCS := format divide sqrtf softdouble string stdio assert libgcc_div libgcc_double libm
FW_HDRS     := $(wildcard firmware/include/*.h firmware/lib/*.h firmware/softswitch/*.h) $(GEN)/tinsel_config.h

$(FW)/lib/%.o: firmware/lib/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

$(FW)/libfw.a: $(FW_LIB_SRCS:%=$(FW)/lib/%.o)
	@rm -f $@
	riscv64-unknown-elf-ar rcs $@ $^

$(FW)/app_entry.o: firmware/app/entry.S $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

# The same library and entry for Tinsel's ABI (ilp32; see the top).
FW_ILP32_ARCH    := -march=rv32imf -mabi=ilp32
FW_ILP32_CFLAGS  := $(subst $(FW_ARCH),$(FW_ILP32_ARCH),$(FW_CFLAGS))
FW_ILP32_LDFLAGS := $(subst $(FW_ARCH),-march=rv32im -mabi=ilp32,$(FW_LDFLAGS))
FW_ILP32_LIBS    := $(FW)/ilp32/app_entry.o $(FW)/ilp32/libfw.a

$(FW)/ilp32/lib/%.o: firmware/lib/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ILP32_CFLAGS) -c $< -o $@

$(FW)/ilp32/libfw.a: $(FW_LIB_SRCS:%=$(FW)/ilp32/lib/%.o)
	@rm -f $@
	riscv64-unknown-elf-ar rcs $@ $^

$(FW)/ilp32/app_entry.o: firmware/app/entry.S $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_ILP32_CFLAGS) -c $< -o $@

# The boot loader: no library, no data; checkelf --boot checks its size.
$(FW)/boot/%.o: firmware/boot/% $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -fno-jump-tables -c $< -o $@

$(FW)/boot.elf: $(FW)/boot/entry.S.o $(FW)/boot/boot.c.o firmware/link/boot.ld $(GEN)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_ARCH) -nostdlib -nostartfiles -static -L$(GEN) -Tfirmware/link/boot.ld \
	  $(FW)/boot/entry.S.o $(FW)/boot/boot.c.o -o $@
	$(CHECKELF) --boot $@

# The softswitch, and images built on it or on the library.
# Not -msave-restore (register saves through libgcc's shared __riscv_save_N
# routines): that is ~360 bytes smaller, but __riscv_save_4 stores 8
# registers for every deliver and update_rts call; without it a local
# delivery takes 3821 cycles instead of 4157 (tests/firmware), and airfoil
# sp's images still fit (op2c: {nodes, cells} 7544 of 7616 bytes).
FW_SS_CFLAGS :=
$(FW)/softswitch/%.o: firmware/softswitch/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_SS_CFLAGS) -c $< -o $@
# The same for op2c's images, whose types all have steps (softswitch.c SS_STEPS).
$(FW)/softswitch/softswitch_steps.o: firmware/softswitch/softswitch.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_SS_CFLAGS) -DSS_STEPS=1 -c $< -o $@
# And with every received message and step counted (op2c --count-events).
$(FW)/softswitch/softswitch_steps_count.o: firmware/softswitch/softswitch.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) $(FW_SS_CFLAGS) -DSS_STEPS=1 -DSS_COUNT_EVENTS=1 -c $< -o $@

$(FW)/examples/%.o: firmware/examples/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

# APP.elf from its objects, checked; APP.code.img / APP.data.img for the host link.
define FW_IMAGE
$(FW)/$(1).elf: $(2) $(FW_LIBS) firmware/link/app.ld $(GEN)/tinsel.ld $(CHECKELF)
	$(FW_CC) $(FW_LDFLAGS) $(FW)/app_entry.o $(2) $(FW)/libfw.a $(FW_LDLIBS) -o $$@
	$(CHECKELF) $$@
$(FW)/$(1).code.img: $(FW)/$(1).elf $(ELF2IMG)
	$(ELF2IMG) $$< $$@ $(FW)/$(1).data.img
FW_IMAGES += $(FW)/$(1).elf $(FW)/$(1).code.img
endef
FW_IMAGES :=
$(eval $(call FW_IMAGE,hello,$(FW)/examples/hello.o))
$(eval $(call FW_IMAGE,ss_demo,$(FW)/softswitch/softswitch.o $(FW)/softswitch/main.o $(FW)/examples/ss_demo_types.o))

# Host tools. They read ELF files with the project's one reader, tsim's
# (sim/elf32.c, built by sim/rules.mk).
FW_TOOL_CFLAGS := -I$(GEN) -Ifirmware/tools -Isim
$(OBJ)/firmware/tools/%.o: firmware/tools/%.c $(wildcard firmware/tools/*.h) sim/elf32.h $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_TOOL_CFLAGS) -c $< -o $@

$(CHECKELF): $(OBJ)/firmware/tools/checkelf.o $(OBJ)/firmware/tools/rv_check.o $(OBJ)/sim/elf32.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

$(ELF2IMG): $(OBJ)/firmware/tools/elf2img.o $(OBJ)/sim/elf32.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

# Host unit tests of the pure firmware code (run under ASan/UBSan by make test).
FW_HOST_CFLAGS := -Ifirmware/lib -Ifirmware/softswitch -I$(GEN)
$(OBJ)/firmware/host/%.o: firmware/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -c $< -o $@

$(OBJ)/tests/firmware/%.o: tests/firmware/%.c $(FW_HDRS) $(wildcard tests/firmware/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -Itests/firmware -c $< -o $@

$(BIN)/test_fwlib: $(OBJ)/tests/firmware/test_fwlib.o $(addprefix $(OBJ)/firmware/host/lib/,format.o divide.o sqrtf.o)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -lm -o $@

$(BIN)/test_softdouble: $(OBJ)/tests/firmware/test_softdouble.o $(OBJ)/firmware/host/lib/softdouble.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -lm -o $@

# The boot loader on the host, against a scripted mailbox.
# boot.h comes from firmware/include, searched last so that the host's own
# headers and the model's tinsel.h win over firmware/'s.
$(OBJ)/firmware/boot_host/boot.o: firmware/boot/boot.c tests/firmware/boot_host/tinsel.h firmware/include/boot.h \
                                  $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/firmware/boot_host -I$(GEN) -idirafter firmware/include -c $< -o $@
$(BIN)/test_boot: $(OBJ)/tests/firmware/test_boot.o $(OBJ)/firmware/boot_host/boot.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

$(BIN)/test_softswitch: $(OBJ)/tests/firmware/test_softswitch.o $(OBJ)/tests/firmware/hw_stub.o \
                        $(OBJ)/firmware/host/softswitch/softswitch.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@
# The same tests on the softswitch op2c's images use (SS_STEPS), checked.
$(OBJ)/firmware/host/softswitch/softswitch_steps.o: firmware/softswitch/softswitch.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -DSS_STEPS=1 -DSS_CHECK_STEPS=1 -c $< -o $@
$(OBJ)/tests/firmware/test_softswitch_steps.o: tests/firmware/test_softswitch.c $(FW_HDRS) $(wildcard tests/firmware/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -Itests/firmware -DTEST_STEPS -c $< -o $@
$(BIN)/test_softswitch_steps: $(OBJ)/tests/firmware/test_softswitch_steps.o $(OBJ)/tests/firmware/hw_stub.o \
                              $(OBJ)/firmware/host/softswitch/softswitch_steps.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

# And the build op2c's images get on Tinsel (SS_STEPS_ONLY: no ReadyToSend, no
# OnHardwareIdle), which no other host build compiles.
$(OBJ)/firmware/host/softswitch/softswitch_only.o: firmware/softswitch/softswitch.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -DSS_STEPS=1 -DSS_STEPS_ONLY=1 -c $< -o $@
$(OBJ)/tests/firmware/test_softswitch_only.o: tests/firmware/test_softswitch.c $(FW_HDRS) $(wildcard tests/firmware/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(FW_HOST_CFLAGS) -Itests/firmware -DTEST_STEPS -DTEST_STEPS_ONLY -c $< -o $@
$(BIN)/test_softswitch_only: $(OBJ)/tests/firmware/test_softswitch_only.o $(OBJ)/tests/firmware/hw_stub.o \
                             $(OBJ)/firmware/host/softswitch/softswitch_only.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

TARGETS += $(CHECKELF) $(ELF2IMG) $(FW)/libfw.a $(FW_LIBS) $(FW_ILP32_LIBS) $(FW)/boot.elf $(FW_IMAGES) \
           $(BIN)/test_fwlib $(BIN)/test_softdouble $(BIN)/test_softswitch $(BIN)/test_softswitch_steps \
           $(BIN)/test_softswitch_only $(BIN)/test_boot
SUITES  += tests/firmware/run.sh

# The flags as a shell fragment, for scripts and tests that build images
# outside make (sourced by tests/firmware/run.sh).
$(FW)/fw_flags.sh: firmware/rules.mk
	@mkdir -p $(dir $@)
	@{ echo "FW_CC='$(FW_CC)'"; echo "FW_CFLAGS='$(FW_CFLAGS)'"; \
	   echo "FW_LDFLAGS='$(FW_LDFLAGS)'"; echo "FW_LIBS='$(FW_LIBS)'"; \
	   echo "FW_LDLIBS='$(FW_LDLIBS)'"; echo "FW_GEN='$(GEN)'"; } > $@
TARGETS += $(FW)/fw_flags.sh

# Links a test image for tsim: the boot entry and a stub at 0, the app at 0x240.
FW_SIM_LINK = $(FW_CC) $(FW_ARCH) -nostdlib -nostartfiles -static -Wl,--gc-sections -L$(GEN) -Ttests/firmware/sim.ld

# A test image for the cycle model (tsim): the real boot entry with a stub
# for the host's Start command, and the smoke test (tests/firmware/smoke.c).
# It is not a real Tinsel image (the stub is not the boot loader), so it
# lives apart in $(FW)/sim/ and checkelf does not gate it.
$(FW)/sim/%.o: tests/firmware/%.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -c $< -o $@

$(FW)/sim/smoke.elf: $(FW)/boot/entry.S.o $(FW)/sim/sim_boot.o $(FW)/sim/smoke.o $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW)/boot/entry.S.o $(FW)/sim/sim_boot.o $(FW)/sim/smoke.o $(FW_LIBS) $(FW_LDLIBS) -o $@

TARGETS += $(FW)/sim/smoke.elf

# The stale-cache test (tests/firmware/stale.c): non-coherent write-back caches.
$(FW)/sim/stale.elf: $(FW)/boot/entry.S.o $(FW)/sim/sim_boot.o $(FW)/sim/stale.o $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW)/boot/entry.S.o $(FW)/sim/sim_boot.o $(FW)/sim/stale.o $(FW_LIBS) $(FW_LDLIBS) -o $@
TARGETS += $(FW)/sim/stale.elf

# Cycles per local delivery of the softswitch on tsim, with 1 and 16 threads
# of a core busy (ss_local_benchN).
FW_BENCH_OBJS := $(FW)/boot/entry.S.o $(FW)/sim/sim_boot.o $(FW)/softswitch/softswitch.o $(FW)/examples/ss_demo_types.o
$(FW)/sim/ss_local_bench%.o: tests/firmware/ss_local_bench.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DBENCH_THREADS=$* -c $< -o $@
$(FW)/sim/ss_local_bench%.elf: $(FW)/sim/ss_local_bench%.o $(FW_BENCH_OBJS) $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW_BENCH_OBJS) $< $(FW_LIBS) $(FW_LDLIBS) -o $@
# The same with 1000 devices on the thread, 2 messages each.
$(FW)/sim/ss_ring1000.o: tests/firmware/ss_local_bench.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DBENCH_THREADS=1 -DRING_DEVICES=1000 -DSENDS=2 -c $< -o $@
$(FW)/sim/ss_ring1000.elf: $(FW)/sim/ss_ring1000.o $(FW_BENCH_OBJS) $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW_BENCH_OBJS) $< $(FW_LIBS) $(FW_LDLIBS) -o $@
TARGETS += $(FW)/sim/ss_local_bench1.elf $(FW)/sim/ss_local_bench16.elf $(FW)/sim/ss_ring1000.elf

# The softswitch over the mailbox: ring, multicast to all 64 threads, flood and
# ping-pong on a tile (tests/firmware/ss_net.c; tsim --config tile --all-threads).
$(FW)/sim/sim_boot_all.o: tests/firmware/sim_boot.c $(FW_HDRS)
	@mkdir -p $(dir $@)
	$(FW_CC) $(FW_CFLAGS) -DSIM_ALL_THREADS -c $< -o $@
# name:MODE, and extra flags per mode: the multicast sends fewer messages (each
# reaches 64 threads); the ping-pong more, so the start and end weigh less.
FW_NET_FLAGS_1 := -DSENDS=4
FW_NET_FLAGS_3 := -DSENDS=32
FW_NET_MODES := ring:0 mcast:1 flood:2 ping:3
define FW_NET_IMAGE
$(FW)/sim/ss_net_$(1).o: tests/firmware/ss_net.c $(FW_HDRS)
	@mkdir -p $$(dir $$@)
	$(FW_CC) $(FW_CFLAGS) -DMODE=$(2) $(FW_NET_FLAGS_$(2)) -c $$< -o $$@
$(FW)/sim/ss_net_$(1).elf: $(FW)/sim/ss_net_$(1).o $(FW)/boot/entry.S.o $(FW)/sim/sim_boot_all.o $(FW)/softswitch/softswitch.o \
                           $(FW)/examples/ss_demo_types.o $(FW_LIBS) tests/firmware/sim.ld $(GEN)/tinsel.ld
	$(FW_SIM_LINK) $(FW)/boot/entry.S.o $(FW)/sim/sim_boot_all.o $(FW)/softswitch/softswitch.o \
	  $(FW)/examples/ss_demo_types.o $$< $(FW_LIBS) $(FW_LDLIBS) -o $$@
TARGETS += $(FW)/sim/ss_net_$(1).elf
endef
$(foreach m,$(FW_NET_MODES),$(eval $(call FW_NET_IMAGE,$(word 1,$(subst :, ,$(m))),$(word 2,$(subst :, ,$(m))))))
