# Task-graph checkpoints (taskgraph/tg.c: tg_restore, tg_restore_mem).
FUZZ_NAMES += tgck
FUZZ_SRCS_tgck  := tests/fuzz/tgck/fuzz.c taskgraph/tg.c
FUZZ_FLAGS_tgck := -Itaskgraph -Ifirmware/softswitch
FUZZ_DEPS_tgck  := taskgraph/tg.h taskgraph/tg_example.h firmware/softswitch/ss_counted.h
