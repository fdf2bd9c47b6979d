# tcl/rules.mk: build rules for tcl/ (see the top-level Makefile).
#
# The scripts need no build; their tcltest suite reads the board database
# $(GEN)/boards.tcl (built by boards/rules.mk) of the build named by the
# BUILD environment variable, as tests/run_suites.sh's callers set it.

SUITES += tcl/tests/run.sh
