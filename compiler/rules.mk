# compiler/rules.mk: op2c, the OP2 compiler driver.

OP2C_SRCS := $(wildcard compiler/*.c compiler/backends/*/*.c)
OP2C_OBJS := $(OP2C_SRCS:%.c=$(OBJ)/%.o)

# fw_build.c measures images with the project's one ELF reader (sim/elf32.c).
$(BIN)/op2c: $(OP2C_OBJS) $(OBJ)/sim/elf32.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(XML_LIBS)

# The tinsel back end reads the instruction-memory budget from boards/.
$(OBJ)/compiler/%.o: compiler/%.c $(wildcard compiler/*.h) $(wildcard compiler/backends/*/*.h) firmware/include/op2_device_fns.def $(GEN)/tinsel_config.h sim/elf32.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XML_CFLAGS) -I$(GEN) -Isim -D_GNU_SOURCE -c -o $@ $<

TARGETS += $(BIN)/op2c

# poets_check: POETS graph XML against the rules of graph_schema's readers
# (tests/compiler/run.sh and tests/tinsel/run.sh run it on what op2c and
# the runtime write).
$(BIN)/poets_check: $(OBJ)/compiler/tools/poets_check.o
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(XML_LIBS)

TARGETS += $(BIN)/poets_check
