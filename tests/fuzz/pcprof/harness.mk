# tests/fuzz/pcprof: the reader of tsim --pc-profile files (sim/pcprof_parse.c),
# as build/bin/pcprof calls it.
FUZZ_NAMES += pcprof
FUZZ_SRCS_pcprof  := tests/fuzz/pcprof/fuzz.c sim/pcprof_parse.c
FUZZ_FLAGS_pcprof := -Isim
FUZZ_DEPS_pcprof  := sim/pcprof_parse.h
