# tests/taskgraph/rules.mk: tg.h's unit tests and the checkpoint demonstration.
$(BIN)/tests/tg_test: tests/taskgraph/tg_test.c $(TG_HDRS) $(LIB)/libtg.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itaskgraph -Ifirmware/softswitch tests/taskgraph/tg_test.c $(LIB)/libtg.a $(LDFLAGS) -o $@
TARGETS += $(BIN)/tests/tg_test
SUITES += tests/taskgraph/run.sh
