# bench/rules.mk: build rules for bench/ (see the top-level Makefile).
