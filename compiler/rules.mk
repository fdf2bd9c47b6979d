# compiler/rules.mk: op2c, the OP2 compiler driver.

OP2C_SRCS := $(wildcard compiler/*.c compiler/backends/*/*.c)
OP2C_OBJS := $(OP2C_SRCS:%.c=$(OBJ)/%.o)

$(BIN)/op2c: $(OP2C_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(XML_LIBS)

# The tinsel back end reads the instruction-memory budget from boards/.
$(OBJ)/compiler/%.o: compiler/%.c $(wildcard compiler/*.h) $(wildcard compiler/backends/*/*.h) firmware/include/op2_device_fns.def $(GEN)/tinsel_config.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(XML_CFLAGS) -I$(GEN) -D_GNU_SOURCE -c -o $@ $<

TARGETS += $(BIN)/op2c
