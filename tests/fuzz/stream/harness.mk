# The stream scheduler's messages between partitions (stream/stream.c
# stream_apply: data, credit and release messages from another thread).
FUZZ_NAMES += stream
FUZZ_SRCS_stream  := tests/fuzz/stream/fuzz.c stream/stream.c apps/pipeline/pipeline.c
FUZZ_FLAGS_stream := -Istream -Iapps/pipeline
