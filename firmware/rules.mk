# firmware/rules.mk: build rules for firmware/ (see the top-level Makefile).
