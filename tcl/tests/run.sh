#!/usr/bin/env bash
# tcl/tests/run.sh: the tcltest suite as one command for tests/run_suites.sh
# (SUITES is a space-separated make list, so a suite is one word).
exec tclsh "$(dirname "$0")/all.tcl" "$@"
