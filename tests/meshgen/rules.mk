# tests/meshgen/rules.mk: the mesh checker (included from apps/rules.mk).

MESHCHECK := $(BIN)/tests/meshcheck

$(MESHCHECK): tests/meshgen/meshcheck.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $< $(LDFLAGS) -lm -o $@

TARGETS += $(MESHCHECK)
SUITES  += tests/meshgen/run.sh
