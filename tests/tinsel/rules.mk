# tests/tinsel/rules.mk: the suite of op2c --target tinsel (the functional
# engine against the seq target, generated code, firmware images).
SUITES += tests/tinsel/run.sh
