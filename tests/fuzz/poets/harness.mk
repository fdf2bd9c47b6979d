# poets_check's reader of POETS graph XML (compiler/tools/poets_check.c),
# built without its main. The flags are recursive (=): pkg-config runs when
# the harness is built, not at parse.
FUZZ_NAMES += poets
FUZZ_SRCS_poets  := tests/fuzz/poets/fuzz.c compiler/tools/poets_check.c
FUZZ_FLAGS_poets  = $(XML_CFLAGS) -DPOETS_CHECK_NO_MAIN
FUZZ_LIBS_poets   = $(XML_LIBS)
