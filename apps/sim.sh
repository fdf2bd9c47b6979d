#!/usr/bin/env bash
# apps/sim.sh: what `make sim` runs (apps/rules.mk passes everything in the
# environment). The app's tinsel executable on the cycle model (engine
# "sim": it starts tsim itself) prints its rms lines and, at exit, the
# summary; then the seq executable runs on the same mesh and iterations,
# and the rms history and the final p_q must agree: PASSED or FAILED.
#
#   APP VARIANT EXE (tinsel) SEQ (seq) MESH ITERS PRINT_EVERY CONFIG [SEED] [ARGS] [ENGINE] [RANKS]
#
# ENGINE=fast (`make sim APP=airfoil ENGINE=fast`): tsim's fast engine
# instead of the cycle model (sim/README.md "Fast engine"; TSIM_ENGINE
# reaches the tsim the executable spawns).
#
# Tolerances: the model delivers INC contributions in arrival order, so
# sums (p_res per cell, rms over cells) round differently from seq's fixed
# order. The rms is compared as printed (OP2's %10.5e: 6 significant
# digits, so a last-digit difference is 1e-5 relative) within 2e-5
# relative; p_q (--output, 9 significant digits for float, 16 for double)
# within 1e-5 absolute for sp (values of order 1; a few float ulps per
# iteration, as tests/tinsel measures) and 1e-10 for dp. Exit 0 on PASSED.
set -uo pipefail
: "${APP:?}" "${VARIANT:?}" "${EXE:?}" "${SEQ:?}" "${MESH:?}" "${ITERS:?}" "${PRINT_EVERY:?}" "${CONFIG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${ENGINE:-}" ]; then export TSIM_ENGINE=$ENGINE; fi
# RANKS=N (`make sim ENGINE=fast RANKS=2`): tsim under mpirun -np N, the
# boards split over the ranks (sim/README.md "Fast engine over MPI ranks").
if [ -n "${RANKS:-}" ]; then export TSIM_RANKS=$RANKS; fi
# The fast engine's progress lines (simulated cycles, rate, messages) on our
# stderr while the program runs (tsim's own stderr is kept until the end).
if [ "${TSIM_ENGINE:-cycle}" = fast ] && [ -z "${TSIM_PROGRESS:-}" ]; then
  exec 3>&2
  export TSIM_PROGRESS=/proc/$$/fd/3
fi
# CONFIG=cluster (48 boards, fast engine only): the host waits for tsim to
# load every board and listen, and for the devices' next message, up to OP2_TINSEL_TIMEOUT
# (600 s): the 720k-cell airfoil's res_calc, every one of the 3072 cores
# busy, went longer than that (sim/README.md): a day.
if [ "$CONFIG" = cluster ]; then
  export OP2_TINSEL_TIMEOUT=${OP2_TINSEL_TIMEOUT:-86400}
fi
model="the cycle model"
[ "${TSIM_ENGINE:-cycle}" = fast ] && model="the fast engine"
echo "sim: $APP $VARIANT on $model (tsim --config $CONFIG${SEED:+ --delay-seed $SEED}${TSIM_ENGINE:+ --engine $TSIM_ENGINE}${TSIM_RANKS:+, $TSIM_RANKS MPI ranks}), mesh $MESH, $ITERS iterations"
if [ "$VARIANT" = dp ]; then
  echo "sim: dp runs software double arithmetic: its images do not fit real Tinsel's instruction memory," \
       "so they are built with op2c --imem enlarged and run on tsim --imem enlarged (a model-only configuration)"
fi
args=(--mesh "$MESH" --iters "$ITERS" --print-every "$PRINT_EVERY" ${ARGS:-})
start=$(date +%s.%N)
OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=$CONFIG OP2_TINSEL_DELAY_SEED=${SEED:-} \
  "$EXE" "${args[@]}" --output "$tmp/q_sim" 2>"$tmp/sim.err" | tee "$tmp/sim"
rc=${PIPESTATUS[0]}
cat "$tmp/sim.err"
end=$(date +%s.%N)
if [ $rc -ne 0 ]; then
  echo "sim: the run on the model failed (exit $rc)"
  echo FAILED
  exit 1
fi
awk -v s="$start" -v e="$end" 'BEGIN { printf "sim: wall time of the whole run %.1f s\n", e - s }'
"$SEQ" "${args[@]}" --output "$tmp/q_seq" >"$tmp/seq" 2>&1 || { echo "sim: the seq run failed"; cat "$tmp/seq"; echo FAILED; exit 1; }
rms='^ +[0-9]+  [-+0-9.e]+ $'
grep -E "$rms" "$tmp/sim" >"$tmp/rms_sim"
grep -E "$rms" "$tmp/seq" >"$tmp/rms_seq"
tol=$([ "$VARIANT" = sp ] && echo 1e-5 || echo 1e-10)
ok=1
if ! awk 'NR == FNR { want[FNR] = $2; n = FNR; next }
     { d = $2 - want[FNR]; if (d < 0) d = -d; if (d > 2e-5 * want[FNR]) { print "sim: iteration " $1 ": rms " $2 " vs seq " want[FNR]; bad = 1 } }
     END { if (FNR != n || n == 0) { print "sim: " FNR " rms lines, seq printed " n; bad = 1 }; exit bad }' \
     "$tmp/rms_seq" "$tmp/rms_sim"; then
  ok=0
fi
if ! awk -v tol="$tol" 'NR == FNR { for (i = 1; i <= NF; i++) want[FNR, i] = $i; n = FNR; next }
     { for (i = 1; i <= NF; i++) { d = $i - want[FNR, i]; if (d < 0) d = -d; if (d > max) max = d
         if (d > tol) { print "sim: p_q line " FNR ": " $0 " vs seq"; bad = 1; exit 1 } } }
     END { if (FNR != n) { print "sim: p_q has " FNR " lines, seq " n; bad = 1 }
           if (!bad) printf "sim: final p_q agrees with seq: largest difference %.3g (tolerance %s)\n", max, tol; exit bad }' \
     "$tmp/q_seq" "$tmp/q_sim"; then
  ok=0
fi
if cmp -s "$tmp/rms_seq" "$tmp/rms_sim"; then
  echo "sim: rms history ($(wc -l <"$tmp/rms_sim") lines) identical to seq's"
elif [ $ok = 1 ]; then
  echo "sim: rms history ($(wc -l <"$tmp/rms_sim") lines) within 2e-5 relative of seq's (INC order differs)"
fi
if [ $ok = 1 ]; then echo PASSED; else echo FAILED; exit 1; fi
