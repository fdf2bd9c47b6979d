#!/usr/bin/env bash
# tests/mbox/bench.sh: message-bound speed of the cycle models (not a test):
# simulated cycles and messages per host CPU second for the mailbox tests
# that keep every thread busy messaging (all-to-all on a tile, 63 partners
# per thread and the unicast flood on a board). Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
printf '%-22s %10s %10s %8s %12s %12s\n' test cycles messages cpu-s "M cycles/s" "k msgs/s"
for t in all_to_all-tile flood-tile all_to_63-board flood-board; do
  out=$("$BUILD/bin/tsim" --config "${t##*-}" --all-threads --elf "$BUILD/tests/mbox/$t.elf" 2>&1)
  grep -q '^tsim: PASS' <<<"$out" || { echo "$t: did not pass"; exit 1; }
  cycles=$(grep -o '^tsim: cycles [0-9]*' <<<"$out" | awk '{ print $3 }')
  msgs=$(grep -o 'messages: sent [0-9]*' <<<"$out" | awk '{ print $3 }')
  cpu=$(grep -o 'host-cpu [0-9.]*' <<<"$out" | awk '{ print $2 }')
  awk -v t="$t" -v c="$cycles" -v m="$msgs" -v s="$cpu" 'BEGIN {
    if (s <= 0) s = 0.01
    printf "%-22s %10d %10d %8.2f %12.3f %12.1f\n", t, c, m, s, c / s / 1e6, m / s / 1e3 }'
done
