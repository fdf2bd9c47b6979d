#!/usr/bin/env bash
# tests/op2/model.sh: every OP2 test program (opt_arg aside: a host global
# in its kernel) on the tile, board and 6-board box cycle models, each run
# with its own random message delays, against what seq computes
# (tests/op2/model_runs.sh). Longer than make test allows: make
# test-op2-model. Reads BUILD (default build) and TEST_CFLAGS;
# OP2_MODEL_CONFIGS narrows the configurations (default "tile board box").
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0
source tests/op2/model_runs.sh
if [ -x "$bin/tsim" ]; then
  model_suite "${OP2_MODEL_CONFIGS:-tile board box}" all
else
  fail "op2 programs on the model" "missing $bin/tsim (make all)"
fi
finish
