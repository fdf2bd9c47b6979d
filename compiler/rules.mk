# compiler/rules.mk: build rules for compiler/ (see the top-level Makefile).
