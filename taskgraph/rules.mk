# taskgraph/rules.mk: tg.h, the task-graph API (issue 20 item 1; docs/taskgraph.md).
#   $(LIB)/libtg.a    the API and its host reference scheduler (the oracle)
#   $(BIN)/tg_demo    checkpoint and resume of the worked example
TG_HDRS := taskgraph/tg.h taskgraph/tg_example.h

$(OBJ)/taskgraph/%.o: taskgraph/%.c $(TG_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itaskgraph -c $< -o $@

$(LIB)/libtg.a: $(OBJ)/taskgraph/tg.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/tg_demo: $(OBJ)/taskgraph/tg_demo.o $(LIB)/libtg.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@

TARGETS += $(LIB)/libtg.a $(BIN)/tg_demo
