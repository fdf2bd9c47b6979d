# tsim's host-link frame decoder (sim/tsim_hlframe.c), against the board
# configuration.
FUZZ_NAMES += hostlink
FUZZ_SRCS_hostlink  := tests/fuzz/hostlink/fuzz.c sim/tsim_hlframe.c
FUZZ_FLAGS_hostlink := -Isim -I$(GEN)/boards/board
FUZZ_DEPS_hostlink  := sim/tsim_hlframe.h $(GEN)/boards/board/tinsel_config.h
