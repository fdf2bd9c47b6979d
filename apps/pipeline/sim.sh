#!/usr/bin/env bash
# apps/pipeline/sim.sh: what `make sim APP=pipeline` runs (stream/rules.mk
# passes BUILD CONFIG SEED ITEMS ELF IMEM in the environment). The pipeline on
# the host oracle (one process; statistics), on the real softswitch across
# 8 host threads with random interleaving (pipeline_ss), and on the cycle
# model of CONFIG (tile, board or box: one node per Tinsel thread; SEED:
# tsim --delay-seed) with its statistics; PASSED when all three print the
# oracle's output line and agree with the nested-loop reference.
set -uo pipefail
: "${BUILD:?}" "${CONFIG:?}" "${ITEMS:?}" "${ELF:?}"
BIN=$BUILD/bin
ok=1
echo "sim: pipeline, $ITEMS items: oracle, softswitch on the host (8 threads), tsim --config $CONFIG${SEED:+ --delay-seed $SEED}"
oracle=$("$BIN/pipeline_oracle" --items "$ITEMS"); rc=$?
echo "== oracle"; echo "$oracle"
[ $rc -eq 0 ] || ok=0
want=$(grep '^pipeline:' <<<"$oracle")
ss=$("$BIN/pipeline_ss" --items "$ITEMS" --threads 8 --order-seed "${SEED:-1}"); rc=$?
echo "== softswitch engine"; echo "$ss"
[ $rc -eq 0 ] && [ "$(grep '^pipeline:' <<<"$ss")" = "$want" ] || ok=0
echo "== tsim --config $CONFIG (pipeline_tinsel: images built on the host, $ELF)"
start=$(date +%s.%N)
model=$("$BIN/pipeline_tinsel" --config "$CONFIG" --imem "${IMEM:-standard}" --items "$ITEMS" --tsim "$BIN/tsim" \
          --fw "$ELF" ${SEED:+--delay-seed "$SEED"} 2>&1); rc=$?
end=$(date +%s.%N)
echo "$model"
awk -v s="$start" -v e="$end" 'BEGIN { printf "sim: model wall time %.1f s\n", e - s }'
[ $rc -eq 0 ] && grep -q ': agrees$' <<<"$model" && [ "$(grep '^pipeline:' <<<"$model")" = "$want" ] || ok=0
if [ $ok = 1 ]; then echo PASSED; else echo FAILED; exit 1; fi
