# host/hostlink/rules.mk: libhostlink.a, the host's side of the host link
# (hostlink.h), and hl_sockaddr.o, which tsim's socket server shares.
# Programs link libboards.a after it (hl_geometry_load reads boards/).
HOSTLINK_SRCS := $(wildcard host/hostlink/*.c)
HOSTLINK_OBJS := $(HOSTLINK_SRCS:%.c=$(OBJ)/%.o)
HOSTLINK_LIB  := $(LIB)/libhostlink.a
HOSTLINK_HDRS := $(wildcard host/hostlink/*.h) sim/elf32.h $(GEN)/tinsel_config.h boards/board_config.h

$(OBJ)/host/hostlink/%.o: host/hostlink/%.c $(HOSTLINK_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(GEN) -Isim -Iboards -c $< -o $@

# The ELF reader is tsim's (sim/elf32.c), compiled into the library.
$(OBJ)/host/hostlink/elf32.o: sim/elf32.c sim/elf32.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isim -c $< -o $@

$(HOSTLINK_LIB): $(HOSTLINK_OBJS) $(OBJ)/host/hostlink/elf32.o
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

TARGETS += $(HOSTLINK_LIB)
