#!/usr/bin/env bash
# bench/airfoil_sim.sh: airfoil sp on the cycle model, one board, 100
# iterations on the 1800- and 7200-cell meshes (meshgen 20 30, 40 60):
# simulated cycles per iteration, messages per iteration on the wire
# against the seed's naive count (a begin and an end per device, a message
# per edge; OP2_TINSEL_STATS), host wall time. Then the 720000-cell mesh on
# the 48-board cluster without simulation: op2c's compile time, and
# placement, routing and thread images with their peak memory (bench/place.sh).
# Reads BUILD (default build), ITERS (100), MESHES ("20x30 40x60"), BEFORE
# (another build's airfoil_sp_tinsel, run first on each mesh), RESEND=always,
# STREAM=0 (also a barrier after every invocation: OP2_TINSEL_STREAM=0).
# SKIP_PLACE=1 leaves out the 720000-cell part.
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
iters=${ITERS:-100}
exe=$bin/airfoil_sp_tinsel
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run_one LABEL EXE MESH: one run on the board model, its figures on stdout.
run_one() {
  local label=$1 exe=$2 mesh=$3 ncell start end rc
  read -r _ ncell _ <"$mesh"
  start=$(date +%s.%N)
  OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=board OP2_TINSEL_STATS=1 OP2_TINSEL_TSIM=${OP2_TINSEL_TSIM:-$bin/tsim} \
    "$exe" --mesh "$mesh" --iters "$iters" --print-every "$iters" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  end=$(date +%s.%N)
  if [ $rc -ne 0 ]; then fail "airfoil sp $ncell cells on the board model ($label)" "$(tail -20 "$tmp/err")"; return; fi
  # messages per call from OP2_TINSEL_STATS: columns calls .. seed (11) .. sent (13);
  # cycles per invocation: the summary's mean per call
  awk -v it="$iters" -v nc="$ncell" -v s="$start" -v e="$end" -v label="$label" '
    /^  simulated cycles/ { cycles = $3 }
    /^  host wall time/ { wall = $4 }
    /thread-local/ { for (i = 1; i < NF; i++) { if ($i == "thread-local") local = $(i + 1); if ($i == "sends") net = $(i + 1) } }
    /tsim: messages sent/ { for (i = 1; i < NF; i++) if ($i == "sent") tsim_net = $(i + 1) + 0 }
    /^ *host link:/ { host = $3 + $9 }
    /cycles per invocation/ { inv = 1; next }
    inv && /^  invocation/ { next }
    inv && NF == 5 && $2 ~ /^[0-9]+$/ { per = per sprintf(" %s %.0f k;", $1, $3 / 1000); next }
    inv { inv = 0 }
    $1 ~ /^[a-z_0-9]+$/ && NF == 15 && $2 ~ /^[0-9]+$/ { seed += $2 * $12 }
    END { printf "airfoil sp, %d cells, %d iterations, one board (%s):\n", nc, it, label
          printf "  simulated cycles per iteration   %.0f\n", cycles / it
          # the softswitch counts its sends only when built with op2c --count-events; tsim counts the network
          thread = local == "" ? "- thread-local (op2c --count-events counts them)" : sprintf("%.0f thread-local (softswitch)", local / it)
          printf "  messages per iteration           %.0f network + %s + %.0f host link; naive count of seed 000 %.0f\n", (net == "" ? tsim_net : net) / it, thread, host / it, seed / it
          printf "  cycles per call (mean)          %s\n", per
          printf "  host wall time                   %.1f s in the engine, %.1f s for the whole run\n", wall, e - s }' \
    "$tmp/err"
  pass "airfoil sp $ncell cells on the board model ($label)"
}

# BEFORE=EXE: the same runs with another build's executable first (a
# before/after table measured side by side); RESEND=always: also this
# build with every read sent every call (seed 000 as written); STREAM=0:
# also this build with a host round trip after every invocation.
for m in ${MESHES:-20x30 40x60}; do
  mesh=$BUILD/meshes/naca_$m.dat
  [ -s "$mesh" ] || "$bin/meshgen" ${m/x/ } -o "$mesh" >/dev/null || { fail "meshgen $m"; continue; }
  [ -n "${BEFORE:-}" ] && run_one "before: $BEFORE" "$BEFORE" "$mesh"
  [ "${RESEND:-}" = always ] && OP2_TINSEL_RESEND=always run_one "OP2_TINSEL_RESEND=always" "$exe" "$mesh"
  [ "${STREAM:-}" = 0 ] && OP2_TINSEL_STREAM=0 run_one "OP2_TINSEL_STREAM=0" "$exe" "$mesh"
  run_one "$exe" "$exe" "$mesh"
done

# Compile (op2c --target tinsel: host code and every firmware image), then
# place, route and build the images of the 720000-cell mesh on 'cluster'.
if [ -x /usr/bin/time ]; then timer=(/usr/bin/time -v); else timer=(); fi
"${timer[@]}" "$bin/op2c" --target tinsel -O2 --gen-dir "$tmp/gen" -o "$tmp/airfoil_sp_tinsel" apps/airfoil/sp/airfoil.cpp \
  >"$tmp/op2c.out" 2>"$tmp/op2c.time"
if [ $? -eq 0 ]; then
  echo "op2c --target tinsel apps/airfoil/sp/airfoil.cpp:"
  grep -E 'Elapsed \(wall|Maximum resident' "$tmp/op2c.time" | sed 's/^\s*/    /'
  pass "op2c compiles airfoil sp for tinsel"
else
  fail "op2c compiles airfoil sp for tinsel" "$(tail -5 "$tmp/op2c.time")"
fi
[ "${SKIP_PLACE:-0}" = 1 ] || BUILD=$BUILD bench/place.sh
finish
