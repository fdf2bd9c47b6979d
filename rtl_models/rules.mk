# rtl_models/rules.mk: build rules for rtl_models/ (see the top-level Makefile).
