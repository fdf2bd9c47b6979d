# host/place/rules.mk: libop2_place (placement and routing) and op2place
# (included from host/rules.mk).

PLACE_SRCS   := $(filter-out host/place/op2place.c,$(wildcard host/place/*.c))
PLACE_OBJS   := $(PLACE_SRCS:%.c=$(OBJ)/%.o)
PLACE_LIB    := $(LIB)/libop2_place.a
PLACE_CFLAGS := -Ihost/place -Iapps/airfoil -Iboards -Ifirmware/softswitch -I$(GEN)
PLACE_LIBS   := $(PLACE_LIB) $(LIB)/libboards.a -lmetis -lm
PLACE_HDRS   := apps/airfoil/airfoil_mesh.h host/place/place.h host/place/place_internal.h firmware/softswitch/softswitch.h

$(OBJ)/host/place/%.o: host/place/%.c $(PLACE_HDRS) $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PLACE_CFLAGS) -c $< -o $@

$(PLACE_LIB): $(PLACE_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/op2place: $(OBJ)/host/place/op2place.o $(PLACE_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(PLACE_LIBS) -o $@

TARGETS += $(PLACE_LIB) $(BIN)/op2place

include tests/place/rules.mk

# Benchmark: the 720000-cell mesh on the 48-board cluster (make bench).
.PHONY: bench-place
bench-place: $(BIN)/op2place $(BIN)/meshgen
	BUILD=$(BUILD) bench/place.sh
BENCHES += bench-place
