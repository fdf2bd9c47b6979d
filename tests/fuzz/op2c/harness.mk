# op2c's front end (tests/fuzz/op2c/fuzz.c): the preprocessor, the scanner
# and the checker, then the protocol and the POETS graph of what they accept.
FUZZ_NAMES += op2c
FUZZ_SRCS_op2c := tests/fuzz/op2c/fuzz.c compiler/frontend.c compiler/lex.c compiler/preprocess.c \
                  compiler/consteval.c compiler/scan.c compiler/check.c compiler/diag.c compiler/util.c \
                  compiler/ir.c compiler/protocol.c compiler/backends/tinsel/graph.c
