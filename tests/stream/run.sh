#!/usr/bin/env bash
# tests/stream/run.sh: the stream suite (docs/stream.md). MERCATOR's
# protocol rule by rule (test_stream: native, ASan/UBSan under make test);
# the pipeline on the host oracle against its nested-loop reference, under
# floods (minimum queues, 1-slot parent buffers) and with room; the same
# pipeline across threads on the real softswitch (pipeline_ss: random
# interleaving, several seeds and placements), whose output must be the
# oracle's; and on the tile cycle model with random message delays.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
BIN=$BUILD/bin

unit "stream unit tests" "$BIN/test_stream"

# The oracle: output = reference, for each queue configuration.
declare -A want
configs=("default:" "flood:--qcap 0 --scap 0 --pb1 1 --pb2 1 --items 2000" "roomy:--qcap 64 --scap 16 --pb1 50 --pb2 50"
         "nested-blocks:--qcap 64 --scap 16 --pb1 50 --pb2 1")
for c in "${configs[@]}"; do
  name=${c%%:*} args=${c#*:}
  # shellcheck disable=SC2086
  out=$("$BIN/pipeline_oracle" $args 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -q ': agrees$' <<<"$out"; then pass "oracle $name: output = reference"
  else fail "oracle $name: output = reference" "exit $rc" "$out"; fi
  want[$name]=$(grep '^pipeline:' <<<"$out")
  [ "$name" = default ] && echo "$out"
done
# Statistics: both enumerates block (parent buffers 4 and 2) and the nested
# flushes stay in their regions: agg2 (region 2) completes more flushes than
# agg1 (region 1), which completes more than the sink (region 0: the end only).
out=$("$BIN/pipeline_oracle")
col() { awk -v n="$1" -v c="$2" '$1 == n { print $c }' <<<"$out"; }
check "statistics: enum1 and enum2 block ($(col enum1 9), $(col enum2 9))" test "$(col enum1 9)" -gt 0 -a "$(col enum2 9)" -gt 0
check "statistics: flushes agg2 $(col agg2 10) > agg1 $(col agg1 10) > sink $(col sink 10) = 1" \
  test "$(col agg2 10)" -gt "$(col agg1 10)" -a "$(col agg1 10)" -gt 1 -a "$(col sink 10)" -eq 1
check "statistics: queue high-water marks within capacity (filter $(col filter 11) <= 32)" test "$(col filter 11)" -le 32

# Across threads, on the real softswitch and on the functional engine
# (messages applied directly): the oracle's output for every placement
# and interleaving.
for eng in softswitch functional; do
  for c in default flood; do
    args=""
    [ "$eng" = functional ] && args="--functional"
    [ "$c" = flood ] && args="$args --qcap 0 --scap 0 --pb1 1 --pb2 1 --items 2000"
    for t in 2 3 8; do
      for s in 1 2 3; do
        # shellcheck disable=SC2086
        out=$("$BIN/pipeline_ss" --quiet --threads $t --order-seed $s $args 2>&1); rc=$?
        if [ $rc -eq 0 ] && grep -q "^$eng: .*: agrees\$" <<<"$out" && [ "$(grep '^pipeline:' <<<"$out")" = "${want[$c]}" ]; then
          pass "$eng $c, $t threads, order seed $s: the oracle's output, nothing lost"
        else fail "$eng $c, $t threads, order seed $s" "exit $rc" "want: ${want[$c]}" "$out"; fi
      done
    done
  done
done
# A lazy network: threads run until none has work before any message is
# delivered, so messages pile up; credit still bounds what is in flight.
for t in 2 8; do
  out=$("$BIN/pipeline_ss" --quiet --lazy --threads $t --qcap 0 --scap 0 --pb1 1 --pb2 1 --items 2000 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -q ', 0 edges over; .*: agrees$' <<<"$out" && [ "$(grep '^pipeline:' <<<"$out")" = "${want[flood]}" ]; then
    pass "softswitch flood, lazy network, $t threads: in flight within the consumer's queue, the oracle's output"
  else fail "softswitch flood, lazy network, $t threads" "exit $rc" "$out"; fi
done
"$BIN/pipeline_ss" --threads 8 --quiet | tail -n 1
"$BIN/pipeline_ss" --threads 8 --quiet --lazy --qcap 0 --scap 0 --pb1 1 --pb2 1 --items 2000 | tail -n 1

# Bad command lines: a message and exit 2, no crash.
for bad in "--items" "--items x" "--qcap 65" "--bogus" "--threads 0" "--threads 9" "--items -1" "--trace" "--functional --lazy"; do
  # shellcheck disable=SC2086
  out=$("$BIN/pipeline_ss" $bad 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q '^.*pipeline_ss: ' <<<"$out"; then pass "pipeline_ss $bad: refused"
  else fail "pipeline_ss $bad: refused (exit 2 with a message)" "exit $rc" "$out"; fi
done
for bad in "--config bogus" "--imem huge" "--delay-seed x" "--trace" "--items"; do
  # shellcheck disable=SC2086
  out=$("$BIN/pipeline_tinsel" $bad 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q 'pipeline_tinsel: ' <<<"$out"; then pass "pipeline_tinsel $bad: refused"
  else fail "pipeline_tinsel $bad: refused (exit 2 with a message)" "exit $rc" "$out"; fi
done
out=$("$BIN/pipeline_oracle" --lazy 2>&1); rc=$?
check "pipeline_oracle --lazy: refused (an engine option)" test $rc -eq 2 -a -n "$out"

# On the tile cycle model (8 of its 64 threads hold the nodes; pipeline_tinsel
# builds their images on the host, tsim runs pipeline_fw.c's image), with
# and without random message delays, and flooded (every queue at its
# minimum, parent buffers of 1), and with several nodes on a thread: the
# oracle's output for 100 items, no item lost, every node drained, every
# thread's report read.
TFW=$BUILD/fw/boards/tile/pipeline.elf
if [ -x "$BIN/tsim" ] && [ -x "$BIN/pipeline_tinsel" ] && [ -f "$TFW" ]; then
  for run in ":" ":7" "--qcap 0 --scap 0 --pb1 1 --pb2 1:3" "--threads 3 --qcap 0 --scap 0 --pb1 1 --pb2 1:4"; do
    args=${run%%:*} seed=${run#*:}
    name="tile model$([ -n "$args" ] && echo ", flooded")$([ "${args#--threads}" != "$args" ] && echo ", 3 partitions of 2-3 nodes")${seed:+, delay seed $seed}"
    # shellcheck disable=SC2086
    ref=$("$BIN/pipeline_oracle" --items 100 ${args#--threads 3} | grep '^pipeline:')
    # shellcheck disable=SC2086
    out=$("$BIN/pipeline_tinsel" --config tile --imem standard --items 100 $args --quiet --tsim "$BIN/tsim" --fw "$TFW" \
            ${seed:+--delay-seed $seed} 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q ': agrees$' <<<"$out" && [ "$(grep '^pipeline:' <<<"$out")" = "$ref" ]; then
      pass "$name: the oracle's output"
    else fail "$name: the oracle's output" "exit $rc" "want: $ref" "$out"; fi
    grep '^tinsel: tile,' <<<"$out" | tail -n 1
  done
else
  fail "tile model" "no $BIN/tsim, $BIN/pipeline_tinsel or $TFW (make all builds them)"
fi

finish
