# boards/rules.mk: build rules for boards/ (see the top-level Makefile).
