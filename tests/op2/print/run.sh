#!/usr/bin/env bash
# tests/op2/print/run.sh: every line a device prints reaches the user
# (issue 13). device_print.cpp prints from every edge (printf) and every
# node (puts, putchar) of a small mesh; this runs it on the seq target and
# on each tinsel engine and configuration, and checks each run's device
# lines ("X:Y:C:T: text", the thread's board, core and thread) against
# seq's lines: the same lines, none missing or extra, each loop's device
# lines before the host's line after that loop, and from more than one
# thread. Reads BUILD (default build) and TEST_CFLAGS;
# OP2_PRINT_CONFIGS narrows the model configurations (default "tile board box").
set -uo pipefail
cd "$(dirname "$0")/../../.."
. tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0
src=tests/op2/print/device_print.cpp
want_lines=$((115 + 2 * 66))

# shellcheck disable=SC2086
if ! "$bin/op2c" --target seq -O2 ${TEST_CFLAGS:-} -o "$tmp/dp_seq" "$src" > "$tmp/seq.build" 2>&1; then
  fail "device_print builds for seq" "$(tail -n 5 "$tmp/seq.build")"; finish; exit
fi
"$tmp/dp_seq" > "$tmp/seq.out" 2>&1
grep -v '^host: ' "$tmp/seq.out" | sort > "$tmp/seq.lines"
check "device_print on seq prints $want_lines kernel lines" test "$(wc -l < "$tmp/seq.lines")" -eq "$want_lines"

# shellcheck disable=SC2086
if ! "$bin/op2c" --target tinsel -O2 --fw-config tile ${TEST_CFLAGS:-} --gen-dir "$tmp/gen" -o "$tmp/dp" "$src" \
     > "$tmp/tinsel.build" 2>&1; then
  fail "device_print builds for tinsel" "$(tail -n 5 "$tmp/tinsel.build")"; finish; exit
fi
if grep -q 'implicit declaration' "$tmp/tinsel.build"; then
  fail "device_print builds for tinsel without implicit declarations" "$(grep 'implicit' "$tmp/tinsel.build" | head -n 3)"
else
  pass "device_print builds for tinsel without implicit declarations"
fi

# judge WHAT OUT: the device lines of run OUT against seq's.
judge() {
  local what=$1 out=$2 devre='^[0-9]+:[0-9]+:[0-9]+:[0-9]+: '
  grep -E "$devre" "$out" | sed -E "s/$devre//" | sort > "$out.lines"
  local n threads
  n=$(wc -l < "$out.lines")
  threads=$(grep -Eo "$devre" "$out" | sort -u | wc -l)
  if ! diff -q "$tmp/seq.lines" "$out.lines" > /dev/null; then
    fail "$what: $want_lines device lines, as seq's" "got $n lines; diff seq run:" "$(diff "$tmp/seq.lines" "$out.lines" | head -n 8)"
    return
  fi
  # Order: every edge line before "host: after edge_say", every node line
  # between it and "host: after node_say".
  local bad
  bad=$(awk -v re="$devre" '
    /^host: after edge_say$/ { h1 = NR } /^host: after node_say$/ { h2 = NR }
    $0 ~ re { sub(re, ""); if ($1 == "edge" && (h1 || h2)) print "late: " $0; if ($1 != "edge" && (!h1 || h2)) print "out of place: " $0 }
    END { if (!h1 || !h2) print "missing host lines" }' "$out" | head -n 5)
  if [ -n "$bad" ]; then fail "$what: each loop's lines before the host's next line" "$bad"; return; fi
  if [ "$threads" -lt 2 ]; then fail "$what: lines from more than one thread" "$threads thread(s)"; return; fi
  pass "$what: $n device lines from $threads threads, as seq's, in loop order"
}

for engine in functional softswitch; do
  (cd "$tmp" && OP2_TINSEL_ENGINE=$engine timeout 300 ./dp) > "$tmp/$engine.out" 2>&1; rc=$?
  if [ $rc -ne 0 ]; then fail "device_print on the $engine engine" "exit $rc" "$(tail -n 5 "$tmp/$engine.out")"; continue; fi
  judge "device_print on the $engine engine" "$tmp/$engine.out"
done
if [ -x "$bin/tsim" ]; then
  for cfg in ${OP2_PRINT_CONFIGS:-tile board box}; do
    (cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=$cfg OP2_TINSEL_DELAY_SEED=7 timeout 600 ./dp) \
      > "$tmp/sim-$cfg.out" 2>&1; rc=$?
    if [ $rc -ne 0 ]; then fail "device_print on the $cfg model" "exit $rc" "$(tail -n 8 "$tmp/sim-$cfg.out")"; continue; fi
    judge "device_print on the $cfg model" "$tmp/sim-$cfg.out"
  done
else
  fail "device_print on the models" "missing $bin/tsim (make all)"
fi
finish
