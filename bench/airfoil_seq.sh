#!/usr/bin/env bash
# bench/airfoil_seq.sh: airfoil through op2c's seq back end on the standard
# 720000-cell mesh (meshgen 400 600), 1000 iterations, built with -O3 and no
# sanitizers. dp must print OP2's published rms history line for line and
# PASS its check; sp must end within 0.1 % of 1.05987e-04. Reports the wall
# time per iteration (OP2's own seq build: about 0.13 s on this machine).
# Reads BUILD (default build); needs $BUILD/bin/op2c and meshgen built.
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
out=$BUILD/bench
mesh=$BUILD/meshes/naca_400x600.dat
mkdir -p "$out" "$(dirname "$mesh")"

if [ ! -s "$mesh" ]; then
  echo "bench: generating $mesh (meshgen 400 600)"
  "$bin/meshgen" 400 600 -o "$mesh" || { fail "meshgen 400 600"; finish; exit 1; }
fi
check "mesh header 721801 720000 1438600 2800" grep -qx ' 721801 720000 1438600 2800 ' <(head -1 "$mesh")

published=" 100  5.02186e-04 
 200  3.41746e-04 
 300  2.63430e-04 
 400  2.16288e-04 
 500  1.84659e-04 
 600  1.60866e-04 
 700  1.42253e-04 
 800  1.27627e-04 
 900  1.15810e-04 
 1000  1.06011e-04 "

for v in dp sp; do
  exe=$out/airfoil_${v}_O3
  if ! "$bin/op2c" --target seq -O3 -o "$exe" "apps/airfoil/$v/airfoil.cpp"; then
    fail "op2c builds airfoil $v"; continue
  fi
  echo "bench: airfoil $v, 1000 iterations (a line every 100)"
  "$exe" --mesh "$mesh" --iters 1000 | tee "$out/airfoil_$v.log" | grep --line-buffered -E '^ [0-9]+  |considered|runtime'
  check "airfoil $v PASSED" grep -qx 'This test is considered PASSED' "$out/airfoil_$v.log"
  runtime=$(sed -n 's/^Max total runtime = //p' "$out/airfoil_$v.log")
  [ -n "$runtime" ] && awk -v v="$v" -v t="$runtime" \
    'BEGIN { printf "bench: airfoil %s seq -O3: %.2f s total, %.4f s per iteration\n", v, t, t / 1000 }'
done

grep -E '^ [0-9]+  [0-9.e+-]+ $' "$out/airfoil_dp.log" >"$out/dp_history" 2>/dev/null
printf '%s\n' "$published" >"$out/published_history"
check_golden "airfoil dp rms history equals OP2's published one" "$out/published_history" "$out/dp_history"
last_sp=$(grep -E '^ 1000  ' "$out/airfoil_sp.log" 2>/dev/null | awk '{print $2}')
check "airfoil sp final rms $last_sp within 0.1 % of 1.05987e-04" \
  awk -v r="${last_sp:-0}" 'BEGIN { d = 100 * r / 1.05987e-04 - 100; exit !(d < 0.1 && d > -0.1) }'
finish
