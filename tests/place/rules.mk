# tests/place/rules.mk: unit tests of libop2_place (included from host/place/rules.mk).

PLACE_TEST := $(BIN)/tests/place_test

$(OBJ)/tests/place/%.o: tests/place/%.c $(PLACE_HDRS) $(GEN)/tinsel_config.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(PLACE_CFLAGS) -c $< -o $@

$(PLACE_TEST): $(OBJ)/tests/place/place_test.o $(PLACE_LIB) $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $< $(PLACE_LIBS) -o $@

TARGETS += $(PLACE_TEST)
SUITES  += tests/place/run.sh
