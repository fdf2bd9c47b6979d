#!/usr/bin/env bash
# tests/op2/run.sh: OP2 programs compiled by op2c. Each test program checks
# itself; airfoil dp and sp must print exactly the rms of the plain C++
# oracle on the 1800-cell mesh (seq back end). Then the tinsel target:
# resident dats on the functional engine, every program on the cycle model
# (tile and board; a few on a box; random message delays), and a small
# airfoil on the tile and board models against seq. Reads BUILD (default build) and
# TEST_CFLAGS.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
mesh=$BUILD/meshes/naca_20x30.dat
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Self-checking programs: exit 0 and a PASSED line (run in a scratch directory).
for src in $(ls tests/op2/*.cpp tests/op2/*.c | grep -v airfoil_direct); do
  name=$(basename "${src%.*}")
  exe=$bin/tests/op2/$name
  if [ ! -x "$exe" ]; then fail "op2 $name" "missing $exe (make all)"; continue; fi
  out=$(cd "$tmp" && "$OLDPWD/$exe" 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -q "^$name PASSED$" <<<"$out"; then pass "op2 $name"
  else fail "op2 $name" "exit $rc" "$out"; fi
done

# op_profile_* at the other OP_PROFILE_LEVELs (above: 2, the program's own
# choice): the program checks the JSON tree it wrote (0: none). An
# unsupported level is a warning, as OP2's, and level 1.
for lv in 0 1 3 7; do
  out=$(cd "$tmp" && OP_PROFILE_LEVEL=$lv "$OLDPWD/$bin/tests/op2/profile" 2>&1); rc=$?
  if [ $rc -eq 0 ] && grep -qx "profile PASSED" <<<"$out"; then pass "op2 profile at OP_PROFILE_LEVEL=$lv"
  else fail "op2 profile at OP_PROFILE_LEVEL=$lv" "exit $rc" "$out"; fi
done
check "op2 profile: OP_PROFILE_LEVEL=7 is refused with OP2's warning" \
  grep -qx "warning: OP_PROFILE_LEVEL set to unsupported value: 7" <<<"$out"

# airfoil against the oracle: every printed rms, to 17 significant digits.
for v in dp sp; do
  opts=(--mesh "$mesh" --iters 20 --print-every 5 --digits 17)
  "$bin/airfoil_$v" "${opts[@]}" >"$tmp/app_$v" 2>&1 || fail "airfoil $v runs" "$(tail -5 "$tmp/app_$v")"
  "$bin/tests/airfoil_direct_$v" "${opts[@]}" >"$tmp/oracle_$v" 2>&1
  grep -E '^ [0-9]+  [-+0-9.e]+ $' "$tmp/app_$v" >"$tmp/app_rms_$v"
  if [ "$(wc -l <"$tmp/oracle_$v")" -eq 4 ]; then
    check_golden "airfoil $v matches the oracle" "$tmp/oracle_$v" "$tmp/app_rms_$v"
  else
    fail "airfoil $v matches the oracle" "oracle printed: $(cat "$tmp/oracle_$v")"
  fi
done

# Dats stay on the devices between loops (tinsel target, functional engine):
# resident_dats copies each of its 4 dats in once and brings a dat back only
# when the host reads it after a loop wrote it (4 of its 5 reads).
export ASAN_OPTIONS=detect_leaks=0
source tests/op2/model_runs.sh
if model_exe resident_dats tests/op2/resident_dats.cpp "$tmp/rd"; then
  out=$(cd "$tmp" && OP2_TINSEL_STATS=1 ./rd 2>&1)
  check "resident_dats on the tinsel target" grep -qx "resident_dats PASSED" <<<"$out"
  check "resident_dats: dats copied once, brought back only for host reads" \
    grep -q "dats: 4 copied to the devices, 4 brought back for 5 host reads" <<<"$out"
  # Engine selection and its errors: clear messages, exit 1, no hang.
  engine_error() { # NAME MESSAGE ENV...
    local name=$1 msg=$2 out rc; shift 2
    out=$(cd "$tmp" && env "$@" timeout 120 ./rd 2>&1); rc=$?
    if [ $rc -eq 1 ] && grep -qF -- "$msg" <<<"$out"; then pass "$name"
    else fail "$name" "exit $rc, expected: $msg" "$(tail -8 <<<"$out")"; fi
  }
  engine_error "unknown engine: the list of engines" "OP2_TINSEL_ENGINE=warp: no such engine; the engines are:" \
    OP2_TINSEL_ENGINE=warp
  engine_error "hostlink engine without OP2_TINSEL_HOSTLINK" "OP2_TINSEL_HOSTLINK is not set" \
    OP2_TINSEL_ENGINE=hostlink OP2_TINSEL_HOSTLINK=
  engine_error "sim engine with a missing tsim" "tsim stopped before it took the link" \
    OP2_TINSEL_ENGINE=sim OP2_TINSEL_TSIM="$tmp/no-tsim"
  # The host waits for tsim's socket watching tsim, not in libhostlink's
  # connection attempts (apps/sim.sh once set 36000 for the cluster: a
  # tsim that failed to start then left the host waiting for an hour).
  engine_error "sim engine with a missing tsim and many connection attempts: no wait" \
    "tsim stopped before it took the link" \
    OP2_TINSEL_ENGINE=sim OP2_TINSEL_TSIM="$tmp/no-tsim" HOSTLINK_CONNECT_ATTEMPTS=100000
  engine_error "OP2_TINSEL_BOXES beyond the configuration" "OP2_TINSEL_BOXES=3x1: cluster has 2x4 boxes of 3x2 boards" \
    OP2_TINSEL_CONFIG=cluster OP2_TINSEL_BOXES=3x1
  engine_error "OP2_TINSEL_BOXES malformed" "OP2_TINSEL_BOXES=2: expected XxY" OP2_TINSEL_CONFIG=cluster OP2_TINSEL_BOXES=2
  out=$(cd "$tmp" && OP2_TINSEL_ENGINE=softswitch OP2_TINSEL_CONFIG=cluster OP2_TINSEL_BOXES=1x1 ./rd 2>&1)
  check "resident_dats on one box of the cluster (OP2_TINSEL_BOXES=1x1, softswitch engine)" \
    grep -qx "resident_dats PASSED" <<<"$out"
else
  fail "resident_dats builds for the tinsel target" "$(tail -5 "$(shared_dir)/resident_dats.build")"
fi

# On the cycle model: every test program on a tile and a board, a
# representative few on a 6-board box (tests/op2/model_runs.sh; all of
# them on all three: make test-op2-model), each run with its own random
# message delays, each program checking itself against what seq computes.
if [ -x "$bin/tsim" ]; then
  # while_loop on the board takes ~100 s: on the tile only here; dep_held
  # too (its cases run first on the tile below).
  MODEL_SKIP="while_loop:board dep_held:board" model_suite "${OP2_MODEL_CONFIGS:-tile board box}" "${OP2_MODEL_BOX:-direct_inc fetch_print vector_args}"
  # The runs above stream invocations (the default). Seed 000's barrier after
  # every invocation (OP2_TINSEL_STREAM=0) gives the same results, the cycles
  # of each invocation, and two more host-link requests per call.
  if [ -x "$(shared_dir)/dep_indirect_raw_tinsel" ]; then
    for mode in 0 4; do
      (cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_DELAY_SEED=77 OP2_TINSEL_STREAM=$mode \
         timeout 300 "$(shared_dir)/dep_indirect_raw_tinsel") >"$tmp/stream_$mode.out" 2>&1
    done
    to_boards() { awk '/^ *host link:/ { print $3 }' "$1"; }
    check "op2 dep_indirect_raw on the tile, barrier and streamed: both PASSED" \
      grep -qx "dep_indirect_raw PASSED" "$tmp/stream_0.out" "$tmp/stream_4.out"
    check "op2 dep_indirect_raw: per-invocation cycles with the barrier only" \
      bash -c "awk '/cycles per invocation/ { t = 1; next } t && NF == 5 && \$2 ~ /^[0-9]+\$/ { n++ } END { exit !n }' \
        '$tmp/stream_0.out' && grep -q 'cycles per invocation: not measured, the invocations were streamed' \
        '$tmp/stream_4.out'"
    b=$(to_boards "$tmp/stream_0.out"); s=$(to_boards "$tmp/stream_4.out")
    check "op2 dep_indirect_raw: fewer host-link messages streamed ($s) than with the barrier ($b)" \
      test "${s:-x}" -lt "${b:-0}"
  fi
  # The calls made before the first load are held and loaded once (issue
  # 19): dep_held's cases 1-4 each first on the tile (the suite above runs
  # case 0 first), each changing what a held call sees. A timeout that
  # fits a hang: a begin the threads dropped never ends.
  if [ -x "$(shared_dir)/dep_held_tinsel" ]; then
    for c in 1 2 3 4; do
      out=$(cd "$tmp" && DEP_HELD_FIRST=$c OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_DELAY_SEED=$((c + 90)) \
            OP2_TINSEL_TIMEOUT=60 timeout 300 "$(shared_dir)/dep_held_tinsel" 2>&1)
      check "op2 dep_held with case $c first on the tile (held until the first load)" \
        grep -qx "dep_held PASSED" <<<"$out"
    done
  fi
else
  fail "op2 programs on the model" "missing $bin/tsim (make all)"
fi

# A small airfoil (meshgen 6 8: 144 cells, 2 iterations: the first loads
# the instance once, at update's wait, the second runs on it) on the tile and board
# models through make sim's script: rms history and final p_q against seq
# (OP2_AIRFOIL_CONFIGS chooses the configurations).
if "$bin/meshgen" 6 8 -o "$tmp/naca_6x8.dat" >/dev/null 2>&1 &&
   "$bin/op2c" --target tinsel --fw-config tile -O2 ${TEST_CFLAGS:-} --gen-dir "$tmp/af.gen" \
     -o "$tmp/airfoil_sp_tinsel" apps/airfoil/sp/airfoil.cpp >"$tmp/af.build" 2>&1; then
  seed=5
  # The tile and the board within make test's time (~5 s each);
  # OP2_AIRFOIL_CONFIGS="tile board box" adds the box (~30 s).
  for cfg in ${OP2_AIRFOIL_CONFIGS:-tile board}; do
    seed=$((seed + 1))
    t0=${EPOCHREALTIME/./}
    OP2_TINSEL_BEGIN=$(model_begin "$cfg") \
    APP=airfoil VARIANT=sp EXE=$tmp/airfoil_sp_tinsel SEQ=$bin/airfoil_sp MESH=$tmp/naca_6x8.dat ITERS=2 \
      PRINT_EVERY=1 CONFIG=$cfg SEED=$seed timeout 600 apps/sim.sh >"$tmp/af_$cfg.out" 2>&1
    cs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
    what="airfoil sp (144 cells, 2 iterations) on the $cfg model agrees with seq ($((cs / 100)).$(printf %02d $((cs % 100))) s)"
    if grep -qx PASSED "$tmp/af_$cfg.out"; then pass "$what"
    else fail "$what" "$(tail -30 "$tmp/af_$cfg.out")"; fi
    check "airfoil on the $cfg model prints its summary" grep -q "^  simulated cycles" "$tmp/af_$cfg.out"
    # Its first iteration's calls are held until update's wait: one load of
    # the instance with all five loops, no fetch (five loads before issue 19).
    loads=$(sed -nE 's/^  loading +[^:]+: ([0-9]+) loads? in .*/\1/p' "$tmp/af_$cfg.out")
    check "airfoil on the $cfg model loads the instance once in 2 iterations (loads: ${loads:-none})" \
      test "${loads:-x}" = 1
    check "airfoil on the $cfg model counts the instructions retired" \
      grep -qE "^  instructions retired +[1-9][0-9]* \(tsim, every core" "$tmp/af_$cfg.out"
    # One board: nothing leaves through an inter-board link (the host link is
    # counted on its own line); the box sends between its boards.
    inter=$(grep -o "inter-board [0-9]* flits" "$tmp/af_$cfg.out" | awk '{ print $2 }')
    if [ "$cfg" = box ]; then check "airfoil on the box: inter-board flits ($inter)" test "${inter:-0}" -gt 0
    else check "airfoil on the $cfg model: no inter-board flits ($inter)" test "$inter" = 0; fi
  done
else
  fail "airfoil sp builds for the model test" "$(tail -5 "$tmp/af.build")"
fi

# The classic output format, the timing table and the --output file.
out=$("$bin/airfoil_dp" --mesh "$mesh" --iters 4 --print-every 2 --output "$tmp/q.txt" 2>&1)
check "airfoil prints ' %d  %10.5e '" grep -qE '^ 4  [0-9]\.[0-9]{5}e-0[0-9] $' <<<"$out"
check "airfoil prints the timing table" grep -qE '^ +8; +0\.0000; +0\.0000\( +0\.0000\); +[0-9.]+\( +0\.0000\); +[0-9.]+; +; +res_calc $' <<<"$out"
check "airfoil prints the runtime" grep -qE '^Max total runtime = [0-9.]+$' <<<"$out"
check "airfoil prints the diagnostics" grep -qE '^  pecell +2 edges +cells' <<<"$out"
check "airfoil --output header" grep -qx '1800 4' <(head -1 "$tmp/q.txt")
check "airfoil --output lines" test "$(wc -l <"$tmp/q.txt")" -eq 1801

# Bad arguments: a clear message and a non-zero exit.
expect_error() { # NAME EXIT MESSAGE ARGS...
  local name=$1 want=$2 msg=$3; shift 3
  local out rc
  out=$("$bin/airfoil_dp" "$@" 2>&1); rc=$?
  if [ $rc -eq "$want" ] && grep -qF -- "$msg" <<<"$out"; then pass "$name"
  else fail "$name" "exit $rc (want $want), expected: $msg" "$out"; fi
}
expect_error "airfoil missing mesh" 1 "$tmp/none.dat: error: cannot open the mesh: No such file or directory" --mesh "$tmp/none.dat"
expect_error "airfoil unknown option" 2 "unknown argument: --fast" --fast
expect_error "airfoil bad --iters" 2 "--iters needs an integer" --mesh "$mesh" --iters 0
expect_error "airfoil --digits without value" 2 "--digits needs an integer" --digits
printf ' 4 1 1 0 \n 0 0 \n' >"$tmp/short.dat"
expect_error "airfoil truncated mesh" 1 "$tmp/short.dat:1: error: the header's 4 nodes, 1 cells, 1 edges and 0 boundary edges need at least 39 bytes, but the file has 16" --mesh "$tmp/short.dat"
printf ' 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 7 \n' >"$tmp/range.dat"
expect_error "airfoil mesh index out of range" 1 "$tmp/range.dat:6: error: cell 0: node 7 is outside 0..3 (nnode 4)" \
  --mesh "$tmp/range.dat"
# What cannot be right is refused (docs/limits.md "Meshes"); a degenerate cell is a warning.
printf ' 4 1 0 1 \n 0 0 \n 1 0 \n 1 1 \n -nan 1 \n 0 1 2 3 \n 0 1 0 1 \n' >"$tmp/nan.dat"
expect_error "airfoil NaN coordinate" 1 "$tmp/nan.dat:5: error: node 3: coordinate x is -nan: coordinates must be finite" --mesh "$tmp/nan.dat"
printf ' 4 1 0 1 \n 0 0 \n 1 0 \n 1 inf \n 0 1 \n 0 1 2 3 \n 0 1 0 1 \n' >"$tmp/inf.dat"
expect_error "airfoil infinite coordinate" 1 "$tmp/inf.dat:4: error: node 2: coordinate y is inf: coordinates must be finite" --mesh "$tmp/inf.dat"
printf ' 4 1 0 1 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 3 \n 0 1 0 0 \n' >"$tmp/code.dat"
expect_error "airfoil unknown boundary code" 1 "$tmp/code.dat:7: error: boundary edge 0: code 0 is outside 1..2 (1 wall, 2 far field)" --mesh "$tmp/code.dat"
printf ' 4 1 0 1 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 1 3 \n 0 1 0 1 \n' >"$tmp/degen.dat"
expect_error "airfoil warns about a degenerate cell" 0 "$tmp/degen.dat:6: warning: cell 0 (nodes 0 1 1 3) repeats a node" --mesh "$tmp/degen.dat" --iters 1
expect_error "airfoil refuses a directory" 1 "$tmp: error: is a directory, not a mesh file" --mesh "$tmp"

finish
