#!/usr/bin/env bash
# bench/pipeline.sh: the streaming pipeline (docs/stream.md) on the tile
# cycle model, 300 items, one node per thread, for three queue
# configurations side by side: default (queues of 32 items and 8 signals,
# parent buffers 4 and 2), flood (every queue at its minimum, buffers of
# 1) and roomy (64 and 16, buffers of 50). Per run: cycles in ss_run
# (the sink's thread), network messages, firings and blocks of the two
# enumerates, and the oracle's firings for the same configuration.
set -uo pipefail
BUILD=${BUILD:-build}
BIN=$BUILD/bin
TFW=$BUILD/fw/boards/tile/pipeline.elf
printf '| configuration | cycles in ss_run | messages | enum1 fires/blocks | enum2 fires/blocks | oracle firings |\n'
printf '| --- | --- | --- | --- | --- | --- |\n'
for c in "default:" "flood:--qcap 0 --scap 0 --pb1 1 --pb2 1" "roomy:--qcap 64 --scap 16 --pb1 50 --pb2 50"; do
  IFS=: read -r name args <<<"$c"
  # shellcheck disable=SC2086
  out=$("$BIN/pipeline_tinsel" --config tile --imem "${IMEM:-standard}" --items 300 $args --tsim "$BIN/tsim" --fw "$TFW" 2>&1)
  grep -q ': agrees$' <<<"$out" || { echo "bench: $name: the model's run failed"; echo "$out" | tail -n 5; exit 1; }
  cycles=$(sed -n 's/^tinsel: tile, \([0-9]*\) cycles in ss_run.*/\1/p' <<<"$out")
  msgs=$(sed -n 's/^tsim: messages: sent \([0-9]*\) .*/\1/p' <<<"$out")
  fb() { awk -v n="$1" '$1 == n { print $3 "/" $9 }' <<<"$out"; }
  # shellcheck disable=SC2086
  oracle=$("$BIN/pipeline_oracle" --items 300 $args | sed -n 's/^oracle: \([0-9]*\) firings.*/\1/p')
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$cycles" "$msgs" "$(fb enum1)" "$(fb enum2)" "$oracle"
done
