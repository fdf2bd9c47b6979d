# tests/preload/rules.mk: the tsim --preload suite (tests/preload/run.sh):
# preload_test writes preload files (host/tinsel/tsim_preload_write.c) and,
# as a host on libhostlink, checks a board whose preloaded cores run the
# tests/hostlink app beside boot-loader cores.
PL_T := $(BUILD)/tests/preload

$(PL_T)/preload_test: tests/preload/preload_test.c host/tinsel/tsim_preload_write.c host/tinsel/tsim_preload_write.h \
                      sim/tsim_preload.h tests/hostlink/wire.h $(HOSTLINK_HDRS) $(HOSTLINK_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Ihost/hostlink -Ihost/tinsel -Isim -I$(GEN) -Itests/hostlink \
	  tests/preload/preload_test.c host/tinsel/tsim_preload_write.c $(HOSTLINK_LIB) $(LDFLAGS) -o $@

TARGETS += $(PL_T)/preload_test
SUITES  += tests/preload/run.sh
