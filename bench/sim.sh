#!/usr/bin/env bash
# bench/sim.sh: speed of the Verilator cycle models (make bench-sim). For
# configurations core, tile and board, every thread runs the compute-bound
# integer loop of tests/tsim/busy.S; reports simulated cycles and retired
# instructions per host second (tsim's own timing of the clock loop); then
# message-bound firmware on a board and a box (cycles and messages per host
# second); and
# the time to build each model from clean (BUILD_TIMES=0 skips that); then
# the fast engine (tsim --engine fast, sim/fast/) beside the cycle model on
# the same runs and on airfoil sp (3 iterations; AIRFOIL=0 skips it): its
# estimated cycles and their error, and instructions per host CPU second of
# each (FAST=0 skips that); FAST_BEFORE=DIR adds the fast engine built in
# DIR. Names the host CPU. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "host: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs; $(verilator --version)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ "${BUILD_TIMES:-1}" = 1 ]; then
  echo
  echo "build from clean (Verilator + g++ of the model, make -j1, BUILD=$tmp/build):"
  make -s BUILD="$tmp/build" "$tmp/build/bin/tsim" >/dev/null 2>&1
  for c in core tile board; do
    start=$(date +%s.%N)
    if make -s BUILD="$tmp/build" "$tmp/build/bin/tsim-$c" >"$tmp/build.log" 2>&1; then
      printf '  %-6s %6.1f s\n' "$c" "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')"
    else
      printf '  %-6s failed\n' "$c"; tail -n 20 "$tmp/build.log"
    fi
  done
fi

# Loop iterations per configuration: a few seconds each. Thread 0 waits for
# the threads of its DRAM slice (all of them but on board, where the other
# slice's 512 threads run the same loop at the same time).
printf 'INCLUDE %s\nINCLUDE %s\n' "$PWD/$BUILD/gen/boards/core/tinsel.ld" "$PWD/tests/tsim/link.ld" > "$tmp/link.ld"
echo
printf '%-6s %6s %12s %14s %8s %9s %14s %14s\n' config cores cycles instructions ipc "host s" "M cycles/s" "M instr/s"
for spec in core:200000 tile:50000 board:5000; do
  IFS=: read -r c iters <<<"$spec"
  threads=$("$BUILD/bin/boardgen" --config "$c" --get ThreadsPerDRAM)
  riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -x assembler-with-cpp -I"$BUILD/gen/boards/$c" \
    -DITERS="$iters" -DNTHREADS="$threads" -T "$tmp/link.ld" tests/tsim/busy.S -o "$tmp/busy_$c.elf"
  "$BUILD/bin/tsim" --config "$c" --elf "$tmp/busy_$c.elf" --all-threads --max-cycles 100000000 >/dev/null 2>"$tmp/err"
  rc=$?
  total=$(grep '^tsim: total:' "$tmp/err")
  cycles=$(sed -n 's/^tsim: cycles //p' "$tmp/err")
  cores=$(grep -c '^tsim: core [0-9]*:' "$tmp/err")
  if [ $rc -ne 0 ] || [ -z "$total" ]; then
    echo "$c: tsim exited $rc"; head -n 5 "$tmp/err"; continue
  fi
  # tsim: total: retired N ipc X host S s C M cycles/s I M instr/s
  read -r retired ipc secs mcyc minstr < <(echo "$total" | awk '{print $4, $6, $8, $10, $13}')
  printf '%-6s %6d %12d %14d %8s %9s %14s %14s\n' "$c" "$cores" "$cycles" "$retired" "$ipc" "$secs" "$mcyc" "$minstr"
done

# Message-bound: tests/router/msgbench.c on a board and a box (six board
# models in one process, inter-board links): all-to-all among every 16th
# (board) or 64th (box) thread, and every thread to its four torus
# neighbours (1-flit messages). Simulated cycles and messages per host CPU
# second of the clock loop.
echo
printf '%-16s %6s %10s %10s %8s %12s %10s\n' messages boards cycles messages "host s" "M cycles/s" "k msgs/s"
for t in bench_all-board bench_nn-board bench_all-box bench_nn-box; do
  c=${t##*-}
  "$BUILD/bin/tsim" --config "$c" --all-threads --max-cycles 100000000 --elf "$BUILD/tests/router/$t.elf" \
    >/dev/null 2>"$tmp/err"
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q '^tsim: PASS' "$tmp/err"; then
    echo "$t: tsim exited $rc"; grep -m 5 '^tsim: \(FAIL\|error\|board\)' "$tmp/err"; continue
  fi
  boards=$(grep -c '^tsim: \(board [0-9]* \)\?tile 0 cache:' "$tmp/err")
  cycles=$(sed -n 's/^tsim: cycles //p' "$tmp/err")
  msgs=$(grep -o 'messages: sent [0-9]*' "$tmp/err" | awk '{ print $3 }')
  secs=$(grep -o 'host-cpu [0-9.]*' "$tmp/err" | awk '{ print $2 }')
  awk -v t="$t" -v b="$boards" -v c="$cycles" -v m="$msgs" -v s="$secs" 'BEGIN {
    if (s <= 0) s = 0.01
    printf "%-16s %6d %10d %10d %8.2f %12.4f %10.1f\n", t, b, c, m, s, c / s / 1e6, m / s / 1e3 }'
done

# The fast engine beside the cycle model: the busy loops above, the message
# benchmarks on a board and a box, and airfoil sp (1800 cells, 3 iterations,
# board: the OP2 sim engine's five tsim runs, host link and preload; their
# statistics files summed). cycles: the cycle model's; estimate: the fast
# engine's, and its error; M instructions per host CPU second (user + sys
# of tsim's clock loop, not wall time: the machine is shared) of each.
# FAST_BEFORE=DIR adds another fast engine's speed on the same runs, in the
# same run (DIR/bin/tsim and DIR/bin/tsim-fast-*, e.g. an older commit's
# build): the before/after of sim/README.md.
before=${FAST_BEFORE:-}
engines=(cycle fast)
[ -n "$before" ] && engines+=(before)
# tsim_of ENGINE: the tsim binary and its --engine.
tsim_of() {
  case $1 in
    cycle) echo "$BUILD/bin/tsim cycle" ;;
    fast) echo "$BUILD/bin/tsim fast" ;;
    before) echo "$before/bin/tsim fast" ;;
  esac
}
# row LABEL CYCLES... MINSTR...: one line of the table (cycle, fast[, before]).
row() {
  local label=$1; shift
  local n=${#engines[@]}
  awk -v l="$label" -v n="$n" -v a="$*" 'BEGIN {
    split(a, v, " "); c = v[1]; f = v[2]; ic = v[n + 1]; iff = v[n + 2]
    printf "%-18s %10d %10d %+7.1f%% %10.2f %10.2f %7.1fx", l, c, f, 100 * (f - c) / c, ic, iff, (ic > 0 ? iff / ic : 0)
    if (n == 3) printf " %10.2f %7.2fx", v[6], (v[6] > 0 ? iff / v[6] : 0)
    printf "\n" }'
}
# side_by_side LABEL CONFIG ELF: one row.
side_by_side() {
  local label=$1 c=$2 elf=$3 e bin eng cyc=() ins=()
  for e in "${engines[@]}"; do
    read -r bin eng < <(tsim_of "$e")
    "$bin" --engine "$eng" --config "$c" --elf "$elf" --all-threads --max-cycles 100000000 >/dev/null 2>"$tmp/err"
    if ! grep -q '^tsim: PASS' "$tmp/err"; then echo "$label: $e did not pass"; head -n 3 "$tmp/err"; return; fi
    cyc+=("$(sed -n 's/^tsim: cycles //p' "$tmp/err")")
    ins+=("$(grep '^tsim: total:' "$tmp/err" | awk '{print $13}')")
  done
  row "$label" "${cyc[@]}" "${ins[@]}"
}
# airfoil: `make sim APP=airfoil ITERS=3` (apps/sim.sh with its settings)
# on each engine; a wrapper around tsim (OP2_TINSEL_TSIM) keeps each run's
# statistics file.
airfoil() {
  local e bin eng cyc=() ins=()
  printf '#!/usr/bin/env bash\nprev=; stats=\nfor a in "$@"; do [ "$prev" = --stats-file ] && stats=$a; prev=$a; done\n"$REAL_TSIM" --engine "$REAL_ENGINE" "$@"; rc=$?\n[ -n "$stats" ] && [ -f "$stats" ] && cat "$stats" >>"$STATS_LOG"\nexit $rc\n' \
    >"$tmp/tsim-wrap"
  chmod +x "$tmp/tsim-wrap"
  for e in "${engines[@]}"; do
    read -r bin eng < <(tsim_of "$e")
    : >"$tmp/af.stats"
    if ! REAL_TSIM=$PWD/$bin REAL_ENGINE=$eng STATS_LOG=$tmp/af.stats OP2_TINSEL_TSIM=$tmp/tsim-wrap \
         APP=airfoil VARIANT=sp EXE="$BUILD/bin/airfoil_sp_tinsel" SEQ="$BUILD/bin/airfoil_sp" \
         MESH="$BUILD/meshes/naca_20x30.dat" ITERS=3 PRINT_EVERY=1 CONFIG=board apps/sim.sh >"$tmp/af.log" 2>&1 ||
       ! grep -q '^PASSED' "$tmp/af.log"; then
      echo "airfoil: $e did not pass"; tail -n 5 "$tmp/af.log"; return
    fi
    cyc+=("$(awk '$1 == "cycles" { s += $2 } END { print s }' "$tmp/af.stats")")
    ins+=("$(awk '$1 == "retired" { i += $2 } $1 == "host-cpu-seconds" { s += $2 } END { print (s > 0 ? i / s / 1e6 : 0) }' \
             "$tmp/af.stats")")
    echo "  airfoil, $e: $(grep -c '^exit ' "$tmp/af.stats") tsim runs, $(awk '$1 == "retired" { i += $2 } END { print i }' \
         "$tmp/af.stats") instructions, $(awk '$1 == "host-cpu-seconds" { s += $2 } END { print s }' "$tmp/af.stats") s host CPU" >&2
  done
  row "airfoil sp 3 it" "${cyc[@]}" "${ins[@]}"
}
if [ "${FAST:-1}" = 1 ]; then
  echo
  echo "fast engine beside the cycle model (cycles: cycle model; estimate: fast engine; M instr/s per host CPU second):"
  printf '%-18s %10s %10s %8s %10s %10s %8s' run cycles estimate error "cycle M/s" "fast M/s" speed-up
  [ -n "$before" ] && printf ' %10s %8s' "before M/s" "fast/bef"
  printf '\n'
  for c in core tile board; do
    [ -f "$tmp/busy_$c.elf" ] && side_by_side "busy $c" "$c" "$tmp/busy_$c.elf"
  done
  for t in bench_all-board bench_nn-board bench_all-box bench_nn-box; do
    side_by_side "$t" "${t##*-}" "$BUILD/tests/router/$t.elf"
  done
  [ "${AIRFOIL:-1}" = 1 ] && airfoil
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
