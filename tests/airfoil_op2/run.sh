#!/usr/bin/env bash
# tests/airfoil_op2/run.sh: airfoil sp written as current OP2-Common programs
# are (tests/airfoil_op2/airfoil.cpp: ./new_grid.dat, sqrt and fabs on
# floats, op_arg_info argmax, op_profile_*, OP2's epilogue) built unchanged
# for seq and tinsel. Its images must fit real Tinsel's instruction memory;
# on the functional engine and on the tile and board models (random delays)
# it must print what seq prints: the rms and the largest squared change
# within 2e-5 relative (INC contributions arrive in another order than
# seq's, as apps/sim.sh explains), the cell of the largest change one of
# those seq picks over the run (the mesh is nearly symmetric: cells 8 and 9
# change by amounts a rounding apart, so another summation order may
# rightly pick the other, even where the value printed is seq's to the
# last digit: the other cell's sum came out as seq's), and q (out_grid.dat)
# within 1e-5. Reads BUILD and TEST_CFLAGS.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=tests/airfoil_op2/airfoil.cpp
flags=(-DNITER=4 -DPRINT_EVERY=1 -I apps/airfoil/sp ${TEST_CFLAGS:-})

# One run in its own directory with the mesh: DIR, then the environment.
run_in() { # DIR EXE [VAR=VALUE...]
  local dir=$tmp/$1 exe=$2; shift 2
  mkdir -p "$dir" && cp "$tmp/new_grid.dat" "$dir/" &&
    (cd "$dir" && env "$@" timeout 600 "$exe" >out 2>&1)
}

# The iteration lines: " N  rms, max err: E at CELL".
history() { grep -E '^ [0-9]+  [-+0-9.e]+, max err: [-+0-9.E]+ at [0-9]+$' "$1"; }

agrees() { # WHAT DIR: against seq's run
  local what=$1 dir=$tmp/$2
  history "$dir/out" >"$dir/hist"
  if ! awk 'function rel(a, b) { d = a - b; if (d < 0) d = -d; return b == 0 ? d : d / (b < 0 ? -b : b) }
       NR == FNR { r[FNR] = $2 + 0; m[FNR] = $5; cells[$7] = 1; n = FNR; next }
       { if (rel($2 + 0, r[FNR]) > 2e-5 || rel($5 + 0, m[FNR] + 0) > 2e-5 || !($7 in cells)) {
           print "line " FNR ": " $0; bad = 1 } }
       END { if (FNR != n) { print FNR " lines, seq printed " n; bad = 1 }; exit bad }' "$tmp/seq/hist" "$dir/hist" >"$dir/why"; then
    fail "$what: iteration lines agree with seq" "$(cat "$dir/why")" "$(tail -20 "$dir/out")"
    return
  fi
  pass "$what: iteration lines agree with seq ($(wc -l <"$dir/hist") lines)"
  check "$what: out_grid.dat within 1e-5 of seq's" awk 'NR == FNR { for (i = 1; i <= NF; i++) w[FNR, i] = $i; n = FNR; next }
      { for (i = 1; i <= NF; i++) { d = $i - w[FNR, i]; if (d < 0) d = -d; if (d > 1e-5) exit 1 } }
      END { exit FNR != n }' "$tmp/seq/out_grid.dat" "$dir/out_grid.dat"
  check "$what: the epilogue's op_fetch_data_idx sum is printed" grep -qE '^sum of q: ' "$dir/out"
}

if ! "$bin/meshgen" 6 8 -o "$tmp/new_grid.dat" >"$tmp/meshgen.out" 2>&1; then
  fail "meshgen 6 8" "$(cat "$tmp/meshgen.out")"
  finish; exit
fi

if "$bin/op2c" --target seq "${flags[@]}" -o "$tmp/af_seq" "$src" >"$tmp/seq.build" 2>&1 &&
   run_in seq "$tmp/af_seq"; then
  history "$tmp/seq/out" >"$tmp/seq/hist"
  check "seq: 4 iteration lines" test "$(wc -l <"$tmp/seq/hist")" -eq 4
  check "seq: writes out_grid.dat and out_grid.bin" test -s "$tmp/seq/out_grid.dat" -a -s "$tmp/seq/out_grid.bin"
  check "seq: op_profile_output's section" grep -q "^Airfoil " "$tmp/seq/out"
else
  fail "seq builds and runs" "$(tail -20 "$tmp/seq.build" "$tmp/seq/out" 2>/dev/null)"
  finish; exit
fi

if ! "$bin/op2c" --target tinsel --fw-config tile -O2 "${flags[@]}" --gen-dir "$tmp/gen" -o "$tmp/af_tinsel" "$src" \
     >"$tmp/tinsel.build" 2>&1; then
  fail "tinsel builds" "$(tail -20 "$tmp/tinsel.build")"
  finish; exit
fi
pass "tinsel builds"
check "tinsel: no warnings" bash -c "! grep -q 'warning:' '$tmp/tinsel.build'"
# Every group's image fits TinselAppInstrBytes ("real" in images.txt).
check "tinsel: every placed image fits real Tinsel's instruction memory" awk '
    $1 != "#" && $1 != "group" { fits[$1] = $3 }
    $1 == "group" { n++; if (fits[$3] != "real") { print $3 " does not fit"; bad = 1 } }
    END { exit bad || n == 0 }' "$tmp/gen/fw/images.txt"
echo "images (bytes, of 7616):"; grep '^img' "$tmp/gen/fw/images.txt" | awk '{ print "  " $1 " " $2 " " $3 }'

run_in functional "$tmp/af_tinsel" OP2_TINSEL_SEED=3 OP2_TINSEL_ORDER=random
agrees "functional engine (random order)" functional
seed=11
for cfg in ${AIRFOIL_OP2_CONFIGS:-tile board}; do
  seed=$((seed + 1))
  run_in "$cfg" "$tmp/af_tinsel" OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=$cfg OP2_TINSEL_DELAY_SEED=$seed
  agrees "$cfg model (delay seed $seed)" "$cfg"
  check "$cfg model: the run's summary" grep -q "^op2 tinsel: summary (sim engine on $cfg" "$tmp/$cfg/out"
done
finish
