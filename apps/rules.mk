# apps/rules.mk: build rules for apps/ (see the top-level Makefile).
