# tests/rules.mk: build rules for tests/ (see the top-level Makefile).
