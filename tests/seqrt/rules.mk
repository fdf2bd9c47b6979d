# tests/seqrt/rules.mk: unit tests of the sequential runtime, without op2c
# (included from host/rules.mk).

SEQRT_TEST := $(BIN)/tests/seqrt_test

$(SEQRT_TEST): tests/seqrt/seqrt_test.c $(SEQRT_LIB) $(SEQRT_INC)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -I$(BUILD)/include $< $(SEQRT_LIB) $(LDFLAGS) -o $@

TARGETS += $(SEQRT_TEST)
SUITES  += tests/seqrt/run.sh
