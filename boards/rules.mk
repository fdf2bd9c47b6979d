# boards/rules.mk: build rules for boards/ (see the top-level Makefile).
#
# libboards.a is the configuration reader; boardgen turns boards/*.cfg into
# the generated views. BOARD_CONFIG picks the configuration behind the
# unqualified $(GEN)/tinsel_config.h, tinsel_pkg.sv and tinsel.ld; every
# configuration also gets $(GEN)/boards/NAME/.

BOARD_CONFIG  ?= board
BOARD_CONFIGS := core tile board box cluster de10pro bridge
BOARDS_CFG    := $(wildcard boards/*.cfg)
BOARDS_SRCS   := boards/board_config.c boards/board_lex.c boards/board_expr.c boards/board_emit.c
BOARDS_OBJS   := $(BOARDS_SRCS:%.c=$(OBJ)/%.o)
BOARDS_CFLAGS := -DBOARDS_DIR='"$(abspath boards)"' -Iboards
BOARDGEN      := $(BIN)/boardgen

$(OBJ)/boards/%.o: boards/%.c boards/board_config.h boards/board_internal.h boards/board_emit.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BOARDS_CFLAGS) -c $< -o $@

$(LIB)/libboards.a: $(BOARDS_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BOARDGEN): $(OBJ)/boards/boardgen.o $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

# Per-configuration views.
$(GEN)/boards/%/tinsel_config.h: $(BOARDGEN) $(BOARDS_CFG)
	@mkdir -p $(dir $@)
	$(BOARDGEN) --config $* --header $@
$(GEN)/boards/%/tinsel_pkg.sv: $(BOARDGEN) $(BOARDS_CFG)
	@mkdir -p $(dir $@)
	$(BOARDGEN) --config $* --sv $@
$(GEN)/boards/%/tinsel.ld: $(BOARDGEN) $(BOARDS_CFG)
	@mkdir -p $(dir $@)
	$(BOARDGEN) --config $* --ld $@

$(GEN)/tinsel_config.h $(GEN)/tinsel_pkg.sv $(GEN)/tinsel.ld: $(GEN)/%: $(GEN)/boards/$(BOARD_CONFIG)/%
	cp $< $@

$(GEN)/boards.tcl: $(BOARDGEN) $(BOARDS_CFG)
	@mkdir -p $(dir $@)
	$(BOARDGEN) --tcl $@

$(GEN)/tinsel_params.md: $(BOARDGEN) $(BOARDS_CFG)
	@mkdir -p $(dir $@)
	$(BOARDGEN) $(BOARD_CONFIGS:%=--config %) --markdown $@

BOARDS_GEN := $(foreach c,$(BOARD_CONFIGS),$(foreach f,tinsel_config.h tinsel_pkg.sv tinsel.ld,$(GEN)/boards/$(c)/$(f))) \
              $(GEN)/tinsel_config.h $(GEN)/tinsel_pkg.sv $(GEN)/tinsel.ld \
              $(GEN)/boards.tcl $(GEN)/tinsel_params.md

# Unit tests of the reader and the generator.
$(BIN)/test_board_config: $(OBJ)/tests/boards/test_board_config.o $(LIB)/libboards.a
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ -o $@

$(OBJ)/tests/boards/%.o: tests/boards/%.c boards/board_config.h boards/board_internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BOARDS_CFLAGS) -c $< -o $@

TARGETS += $(LIB)/libboards.a $(BOARDGEN) $(BOARDS_GEN) $(BIN)/test_board_config
SUITES  += tests/boards/run.sh

# Refresh the committed parameter table (a test checks it is current).
.PHONY: board-docs
board-docs: $(GEN)/tinsel_params.md
	cp $< docs/tinsel-params.md
