# host/rules.mk: build rules for host/ (see the top-level Makefile).
