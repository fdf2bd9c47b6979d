# host/rules.mk: build rules for host/ (see the top-level Makefile).
#
# libop2_seq.a is the sequential runtime that op2c links into every seq
# program; op2c finds it and the API headers next to its own executable
# (<bin>/../lib and <bin>/../include).

SEQRT_SRCS := $(wildcard host/seq/*.c)
SEQRT_OBJS := $(SEQRT_SRCS:%.c=$(OBJ)/%.o)
SEQRT_HDRS := op_seq.h op_lib_cpp.h op_lib_c.h op_lib_core.h op_profile.h
SEQRT_LIB  := $(LIB)/libop2_seq.a
SEQRT_INC  := $(SEQRT_HDRS:%=$(BUILD)/include/%)

$(OBJ)/host/seq/%.o: host/seq/%.c host/seq/op_seq.h host/seq/op_internal.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(SEQRT_LIB): $(SEQRT_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/include/%.h: host/seq/%.h
	@mkdir -p $(dir $@)
	cp $< $@

TARGETS += $(SEQRT_LIB) $(SEQRT_INC)

include tests/seqrt/rules.mk
include host/tinsel/rules.mk
include host/place/rules.mk
include host/hostlink/rules.mk
include host/hdf5/rules.mk
