# tests/meshgen/rules.mk: the mesh checker (included from apps/rules.mk).

MESHCHECK := $(BIN)/tests/meshcheck

$(MESHCHECK): tests/meshgen/meshcheck.c apps/airfoil/airfoil_mesh.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Iapps/airfoil $< $(LDFLAGS) -lm -o $@

TARGETS += $(MESHCHECK)
SUITES  += tests/meshgen/run.sh
