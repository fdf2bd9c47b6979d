# tests/rules.mk: test suites that belong to no single folder's rules.
SUITES += tests/compiler/run.sh tests/build/fresh.sh
include tests/sim/rules.mk
include tests/tinsel/rules.mk
include tests/mbox/rules.mk
include tests/router/rules.mk
include tests/hostlink/rules.mk
include tests/preload/rules.mk
include tests/fuzz/rules.mk
include tests/compat/rules.mk
include tests/airfoil_op2/rules.mk
include tests/tree/rules.mk
include tests/taskgraph/rules.mk
