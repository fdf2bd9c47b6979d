# tests/fuzz/boards: boardgen's configuration language (boards/README.md)
# through the reader's entry point, board_config_load on a file, then
# every generated view of what loaded (boards/board_emit.c).
FUZZ_NAMES += boards
FUZZ_SRCS_boards  := tests/fuzz/boards/fuzz.c $(BOARDS_SRCS)
FUZZ_FLAGS_boards := $(BOARDS_CFLAGS)
FUZZ_DEPS_boards  := boards/board_config.h boards/board_internal.h boards/board_emit.h
