#!/usr/bin/env bash
# bench/airfoil_ab.sh A_EXE B_EXE: two builds of airfoil sp side by side on
# the board model (the fast engine): simulated cycles per iteration in the
# steady state, (cycles of N2 iterations - cycles of N1) / (N2 - N1), for
# each of several placements (OP2_TINSEL_PLACE_SEED), then each build's
# mean and B's change against A, mean and range. A change to the
# softswitch or to op2c's code moves the order of events, and that alone
# moves one placement's cycles by a few per cent either way
# (docs/tinsel-backend.md "What the cycles follow"): the placements show
# whether a difference outlives it.
#
# Copy each executable with its EXE.fw directory (op2c writes both).
# Reads BUILD (default build: its tsim and meshes), MESHES ("20x30"),
# SEEDS ("1 2 3"), N1 and N2 (5 and 10), JOBS (runs at once, 2).
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
n1=${N1:-5} n2=${N2:-10} jobs=${JOBS:-2}
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: bench/airfoil_ab.sh A_EXE B_EXE (two airfoil sp executables for the tinsel target)" >&2
  exit 2
fi
for n in "$n1" "$n2" "$jobs"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "airfoil_ab: N1, N2 and JOBS must be positive numbers" >&2; exit 2; }
done
[ "$n2" -gt "$n1" ] || { echo "airfoil_ab: N2 ($n2) must be more than N1 ($n1)" >&2; exit 2; }
exe=("$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" "$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT

# run MESH SEED WHICH ITERS: the simulated cycles of one run in $tmp/SEED.WHICH.ITERS.
run() {
  local mesh=$1 seed=$2 which=$3 iters=$4 out=$tmp/$2.$3.$4
  TSIM_ENGINE=fast OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=board OP2_TINSEL_STATS=1 OP2_TINSEL_PLACE_SEED=$seed \
    OP2_TINSEL_TSIM=$bin/tsim "${exe[which]}" --mesh "$mesh" --iters "$iters" --print-every "$iters" >"$out.log" 2>&1
  sed -nE 's/^  simulated cycles +([0-9]+) .*/\1/p' "$out.log" >"$out"
}

for m in ${MESHES:-20x30}; do
  mesh=$BUILD/meshes/naca_$m.dat
  [ -s "$mesh" ] || "$bin/meshgen" ${m/x/ } -o "$mesh" >/dev/null || { fail "meshgen $m"; continue; }
  read -r _ ncell _ <"$mesh"
  rm -f "$tmp"/*
  n=0
  for seed in ${SEEDS:-1 2 3}; do
    for which in 0 1; do
      for iters in "$n1" "$n2"; do
        while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
        run "$mesh" "$seed" "$which" "$iters" &
        n=$((n + 1))
      done
    done
    echo "airfoil_ab: $ncell cells, placement $seed: 4 runs started ($n of $((4 * $(wc -w <<<"${SEEDS:-1 2 3}"))))" >&2
  done
  wait
  echo "airfoil sp, $ncell cells, board, fast engine; cycles per iteration from iterations $n1 to $n2:"
  echo "  A = ${exe[0]}"
  echo "  B = ${exe[1]}"
  printf '  %-10s %12s %12s %9s\n' placement A B change
  ok=1
  : >"$tmp/table"
  for seed in ${SEEDS:-1 2 3}; do
    row=$seed
    for which in 0 1; do
      a=$(cat "$tmp/$seed.$which.$n1" 2>/dev/null) b=$(cat "$tmp/$seed.$which.$n2" 2>/dev/null)
      if [ -z "$a" ] || [ -z "$b" ]; then
        fail "airfoil $ncell cells, placement $seed, $([ $which = 0 ] && echo A || echo B) ran" \
          "$(tail -5 "$tmp/$seed.$which.$n2.log" 2>/dev/null)"
        ok=0; continue 2
      fi
      row="$row $(( (b - a) / (n2 - n1) ))"
    done
    echo "$row" >>"$tmp/table"
  done
  awk '{ d = 100 * ($3 - $2) / $2; printf "  %-10s %12d %12d %+8.2f%%\n", $1, $2, $3, d
         sa += $2; sb += $3; sd += d; if (n == 0 || d < lo) lo = d; if (n == 0 || d > hi) hi = d; n++ }
       END { if (n) printf "  %-10s %12.0f %12.0f %+8.2f%% (%+.2f%% to %+.2f%%)\n", "mean", sa / n, sb / n, sd / n, lo, hi }' \
    "$tmp/table"
  [ $ok = 1 ] && pass "airfoil sp $ncell cells: A and B on every placement"
done
finish
