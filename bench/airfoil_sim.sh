#!/usr/bin/env bash
# bench/airfoil_sim.sh: airfoil sp on the cycle model, one board, 100
# iterations on the 1800- and 7200-cell meshes (meshgen 20 30, 40 60):
# simulated cycles per iteration, messages per iteration on the wire
# against the seed's naive count (a begin and an end per device, a message
# per edge; OP2_TINSEL_STATS), host wall time. Then the 720000-cell mesh on
# the 48-board cluster without simulation: op2c's compile time, and
# placement, routing and thread images with their peak memory (bench/place.sh).
# Reads BUILD (default build), ITERS (100), MESHES ("20x30 40x60").
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
iters=${ITERS:-100}
exe=$bin/airfoil_sp_tinsel
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for m in ${MESHES:-20x30 40x60}; do
  mesh=$BUILD/meshes/naca_$m.dat
  [ -s "$mesh" ] || "$bin/meshgen" ${m/x/ } -o "$mesh" >/dev/null || { fail "meshgen $m"; continue; }
  read -r _ ncell _ <"$mesh"
  start=$(date +%s.%N)
  OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=board OP2_TINSEL_STATS=1 \
    "$exe" --mesh "$mesh" --iters "$iters" --print-every "$iters" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  end=$(date +%s.%N)
  if [ $rc -ne 0 ]; then fail "airfoil sp $ncell cells on the board model" "$(tail -20 "$tmp/err")"; continue; fi
  # messages per call from OP2_TINSEL_STATS: columns calls .. seed (11) .. sent (13)
  awk -v it="$iters" -v nc="$ncell" -v s="$start" -v e="$end" '
    /^  simulated cycles/ { cycles = $3 }
    /^  host wall time/ { wall = $4 }
    /thread-local/ { for (i = 1; i < NF; i++) { if ($i == "thread-local") local = $(i + 1); if ($i == "sends") net = $(i + 1) } }
    /^ *host link:/ { host = $3 + $9 }
    $1 ~ /^[a-z_0-9]+$/ && NF == 15 && $2 ~ /^[0-9]+$/ { seed += $2 * $12 }
    END { printf "airfoil sp, %d cells, %d iterations, one board:\n", nc, it
          printf "  simulated cycles per iteration   %.0f\n", cycles / it
          printf "  messages per iteration           %.0f network + %.0f thread-local (softswitch) + %.0f host link; naive count of seed 000 %.0f\n", net / it, local / it, host / it, seed / it
          printf "  host wall time                   %.1f s in the engine, %.1f s for the whole run\n", wall, e - s }' \
    "$tmp/err"
  pass "airfoil sp $ncell cells on the board model"
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
BUILD=$BUILD bench/place.sh
finish
