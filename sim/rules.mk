# sim/rules.mk: build rules for sim/ (see the top-level Makefile).
