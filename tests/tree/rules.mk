# tests/tree/rules.mk: the tree app's suite (apps/tree; counted events).
SUITES += tests/tree/run.sh
