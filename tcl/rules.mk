# tcl/rules.mk: build rules for tcl/ (see the top-level Makefile).
