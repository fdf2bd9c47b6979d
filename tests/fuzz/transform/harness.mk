# op2c --transform scripts (compiler/transform.c) on tests/op2/fuse_chain.cpp:
# the script's parser and every fuse it asks for, then the loop-chain
# analysis, the protocol and the POETS graph of the fused program.
FUZZ_NAMES += transform
FUZZ_SRCS_transform := tests/fuzz/transform/fuzz.c compiler/frontend.c compiler/lex.c compiler/preprocess.c \
                       compiler/consteval.c compiler/scan.c compiler/check.c compiler/diag.c compiler/util.c \
                       compiler/ir.c compiler/protocol.c compiler/schedule.c compiler/transform.c \
                       compiler/ir_xml.c compiler/xml_writer.c \
                       compiler/backends/tinsel/graph.c compiler/backends/tinsel/graph_xml.c
FUZZ_FLAGS_transform = $(XML_CFLAGS)
FUZZ_LIBS_transform = $(XML_LIBS)
