#!/usr/bin/env bash
# bench/tree.sh: the multifrontal tree (docs/taskgraph.md) on the cycle
# models with random delays: 10^5 nodes on a board and on a box, and 10^4
# on a board, side by side with the host softswitch engine at 10^5, and
# the same tree through tg_poets (10^4 on the board model, 10^5 on the
# host engine). Per
# run: PASSED or FAILED against the oracle, the cycle the root reported,
# the cycles of the whole run, network messages, and the wall time. A few
# minutes (the box model runs about 0.016 M cycles/s here).
set -uo pipefail
BUILD=${BUILD:-build}
BIN=$BUILD/bin
TSIM=${TSIM:-$BIN/tsim}
printf '| run | result | root at cycle | cycles | messages | wall s |\n| --- | --- | --- | --- | --- | --- |\n'
for r in "board:10000:$BUILD/fw/tree.elf" "board:100000:$BUILD/fw/tree.elf" "box:100000:$BUILD/fw/tree.elf"; do
  IFS=: read -r cfg n fw <<<"$r"
  start=$(date +%s.%N)
  out=$("$BIN/tree" --nodes "$n" --config "$cfg" --engine sim --fw "$fw" --tsim "$TSIM" --delay-seed 5 2>&1)
  end=$(date +%s.%N)
  root=$(sed -n 's/^tree: the root reported at cycle \([0-9]*\)/\1/p' <<<"$out")
  cycles=$(sed -n 's/^tsim: cycles \([0-9]*\)/\1/p' <<<"$out")
  msgs=$(sed -n 's/^tsim: messages: sent \([0-9]*\) .*/\1/p' <<<"$out")
  printf '| tsim %s, %s nodes | %s | %s | %s | %s | %.1f |\n' "$cfg" "$n" "$(tail -n 1 <<<"$out")" "$root" "$cycles" "$msgs" \
    "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')"
done
start=$(date +%s.%N)
out=$("$BIN/tree" --nodes 100000 --config board --engine softswitch --delay-seed 5 2>&1)
end=$(date +%s.%N)
msgs=$(sed -n 's/.* \([0-9]*\) network messages.*/\1/p' <<<"$out")
printf '| host softswitch engine, board, 100000 nodes | %s | - | - | %s | %.1f |\n' "$(tail -n 1 <<<"$out")" "$msgs" \
  "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')"
# The same tree through tg.h's POETS back end (tg_poets --graph tree:
# counted ports; every node reports on the debug link at the end).
for r in "sim:10000:--engine sim --fw $BUILD/fw/tgp_tree.elf --tsim $TSIM" "softswitch:100000:"; do
  IFS=: read -r eng n args <<<"$r"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  out=$("$BIN/tg_poets" --graph tree --n "$n" --config board --delay-seed 5 $args 2>&1)
  end=$(date +%s.%N)
  cycles=$(sed -n 's/^tsim: cycles \([0-9]*\)/\1/p' <<<"$out")
  msgs=$(sed -n 's/^tsim: messages: sent \([0-9]*\) .*/\1/p; s/.* \([0-9]*\) network messages.*/\1/p' <<<"$out")
  printf '| tg_poets %s, board, %s nodes | %s | - | %s | %s | %.1f |\n' "$eng" "$n" "$(tail -n 1 <<<"$out")" \
    "${cycles:--}" "$msgs" "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')"
done
