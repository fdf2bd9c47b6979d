# op2c's front end (tests/fuzz/op2c/fuzz.c): the preprocessor, the scanner
# and the checker, then the protocol, the loop-chain analysis, the POETS graph and both XML writers
# (libxml2) on what they accept.
FUZZ_NAMES += op2c
FUZZ_SRCS_op2c := tests/fuzz/op2c/fuzz.c compiler/frontend.c compiler/lex.c compiler/preprocess.c \
                  compiler/consteval.c compiler/scan.c compiler/check.c compiler/diag.c compiler/util.c \
                  compiler/ir.c compiler/protocol.c compiler/schedule.c compiler/ir_xml.c compiler/xml_writer.c \
                  compiler/backends/tinsel/graph.c compiler/backends/tinsel/graph_xml.c
FUZZ_FLAGS_op2c = $(XML_CFLAGS)
FUZZ_LIBS_op2c = $(XML_LIBS)
