#!/usr/bin/env bash
# tests/fast/run.sh: the fast engine (tsim --engine fast, sim/fast/) against
# the cycle model on the same runs: ISA programs (tests/sim), mailbox
# programs (tests/mbox: pass, halt, deadlock, idle; not `order`, whose
# output is the arrival order, a matter of timing), a halt outside the
# profile, and one OP2 program through the OP2 sim engine (host link,
# preload, routing keys). For each run both engines must give the same exit status, the
# same stdout and the same verdict line on stderr (PASS/FAIL, the halt,
# the deadlock or idle line, with cycle counts left out: the fast engine's
# are estimates). Also: the TSIM_ENGINE environment variable picks the
# engine, and an unknown engine is a usage error. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# verdict FILE: tsim's outcome line(s) without cycle counts.
verdict() {
  grep -E '^tsim: (PASS|FAIL|board [0-9]+, core|error: deadlock|idle:|every thread)' "$1" |
    sed -E 's/(after|at cycle|for) [0-9]+ cycles?/\1 N cycles/g; s/quiet since cycle [0-9]+/quiet since cycle N/; s/cycle [0-9]+/cycle N/g'
}

# same LABEL CONFIG ELF [OPTION...]: run both engines and compare.
same() {
  local label=$1 cfg=$2 elf=$3 e rc=(); shift 3
  if [ ! -f "$elf" ]; then fail "$label" "missing $elf (make BUILD=$BUILD all)"; return; fi
  for e in cycle fast; do
    "$tsim" --engine "$e" --config "$cfg" --elf "$elf" --max-cycles 20000000 "$@" >"$tmp/$e.out" 2>"$tmp/$e.err"
    rc+=($?)
    verdict "$tmp/$e.err" >"$tmp/$e.verdict"
  done
  if [ "${rc[0]}" != "${rc[1]}" ]; then
    fail "$label" "exit ${rc[0]} (cycle) but ${rc[1]} (fast)" "$(head -n 3 "$tmp/fast.err")"
  elif ! cmp -s "$tmp/cycle.out" "$tmp/fast.out"; then
    fail "$label: stdout differs" "$(diff "$tmp/cycle.out" "$tmp/fast.out" | head -n 10)"
  elif ! cmp -s "$tmp/cycle.verdict" "$tmp/fast.verdict" || [ ! -s "$tmp/cycle.verdict" ]; then
    fail "$label: verdict differs" "$(diff "$tmp/cycle.verdict" "$tmp/fast.verdict" | head -n 10)"
  else
    pass "$label (exit ${rc[0]}; cycles $(sed -n 's/^tsim: cycles //p' "$tmp/cycle.err") cycle model, \
$(sed -n 's/^tsim: cycles //p' "$tmp/fast.err") estimated)"
  fi
}

s=$BUILD/tests/sim m=$BUILD/tests/mbox
same "int_rr" core "$s/int_rr.elf"
same "fp_arith_rm" core "$s/fp_arith_rm.elf"
same "fp_minmax (full)" core "$s/fp_minmax.elf" --profile full
same "mem" core "$s/mem.elf"
same "csr" core "$s/csr.elf"
same "spawn_core" core "$s/spawn_core.elf"
same "memmap_tile" tile "$s/memmap_tile.elf" --all-threads
same "fpu_tile" tile "$s/fpu_tile.elf" --all-threads
same "reject_DIV halts (tinsel)" core "$s/reject_DIV.elf"
same "reject_FMADD runs (full)" core "$s/reject_FMADD.elf" --profile full
same "mbox pingpong" tile "$m/pingpong-tile.elf" --all-threads
same "mbox multicast" tile "$m/multicast-tile.elf" --all-threads
same "mbox flood" tile "$m/flood-tile.elf" --all-threads
same "mbox idle" tile "$m/idle-tile.elf" --all-threads
same "mbox bad_free halts" tile "$m/bad_free-tile.elf" --all-threads
same "mbox deadlock (watchdog)" tile "$m/deadlock-tile.elf" --all-threads --watchdog 20000
same "mbox all_to_all, delay seed" tile "$m/all_to_all-tile.elf" --all-threads --delay-seed 3
same "mbox pingpong (board)" board "$m/pingpong-board.elf" --all-threads

# One small OP2 program (tests/op2/direct_inc.c) through the OP2 sim engine,
# which spawns tsim: TSIM_ENGINE reaches it through the environment. It
# checks itself against seq; both engines must say PASSED.
# The model suite's build of it (tests/op2/model_runs.sh), made once in make test.
bin=$BUILD/bin
. tests/op2/model_runs.sh
if model_exe direct_inc tests/op2/direct_inc.c "$tmp/direct_inc_tinsel"; then
  for e in cycle fast; do
    out=$(cd "$tmp" && TSIM_ENGINE=$e OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_DELAY_SEED=2 \
          timeout 300 ./direct_inc_tinsel 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q '^direct_inc PASSED$' <<<"$out"; then pass "op2 direct_inc on the tile, --engine $e"
    else fail "op2 direct_inc on the tile, --engine $e" "exit $rc" "$(tail -n 8 <<<"$out")"; fi
  done
  # The softswitch's hot state in the extra send slot (docs/softswitch.md):
  # the host reserves the slots (tsim says so in its log, kept by
  # OP2_TINSEL_KEEP) unless OP2_TINSEL_EXTRA_SLOT=0; both ways PASSED.
  for x in 1 0; do
    out=$(cd "$tmp" && TSIM_ENGINE=fast OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_EXTRA_SLOT=$x \
          OP2_TINSEL_KEEP=1 timeout 300 ./direct_inc_tinsel 2>&1); rc=$?
    kept=$(sed -n 's/^op2 tinsel: tsim.s files kept in //p' <<<"$out")  # a directory per tsim run
    runs=$(grep -c . <<<"$kept") said=0
    for d in $kept; do grep -q 'reserves the extra send slot' "$d/tsim.log" && said=$((said + 1)); done
    if [ $rc -eq 0 ] && grep -q '^direct_inc PASSED$' <<<"$out" && [ -n "$kept" ] && [ "$said" -eq $((x * runs)) ]; then
      pass "op2 direct_inc, OP2_TINSEL_EXTRA_SLOT=$x: PASSED, the extra send slot reserved in $said of $runs tsim runs"
    else
      fail "op2 direct_inc, OP2_TINSEL_EXTRA_SLOT=$x" "exit $rc, reserved in $said of $runs tsim runs (want $((x * runs)))" \
        "$(tail -n 5 <<<"$out")"
    fi
    for d in $kept; do rm -rf "$d"; done
  done
  # OP2_TINSEL_UTIL: a line per thread with devices of the last load, the
  # busiest as busy as the summary's max; a path that cannot be written
  # stops the run first.
  out=$(cd "$tmp" && TSIM_ENGINE=fast OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_UTIL="$tmp/util.tsv" \
        timeout 300 ./direct_inc_tinsel 2>&1); rc=$?
  # (The file has 4 decimals of a fraction, the summary 1 of a per cent:
  # rounded twice, 71.649 % is 0.7165 and then 71.7 where the summary
  # says 71.6, so the maxima agree to 0.06 points, not digit for digit.)
  want=$(sed -n 's/^op2 tinsel: thread utilisation .* \([0-9]*\) threads with devices: .* max \([0-9.]*\)%$/\1 \2/p' <<<"$out")
  got=$(awk -F'\t' -v want="$want" '!/^#/ { n++; if ($5 > max) max = $5; if ($5 < 0 || $5 > 1 || $4 < 1) bad = 1 }
                    END { split(want, w, " "); d = 100 * max - w[2]; if (d < 0) d = -d
                          printf "%d %.2f%s", n, 100 * max, (bad || n != w[1] || d > 0.06) ? " bad" : "" }' \
        "$tmp/util.tsv" 2>/dev/null)
  if [ $rc -eq 0 ] && [ -n "$want" ] && [ -n "$got" ] && [ "${got% bad}" = "$got" ]; then
    pass "OP2_TINSEL_UTIL: a line for each of the $(cut -d' ' -f1 <<<"$want") threads, the busiest as the summary's"
  else
    fail "OP2_TINSEL_UTIL" "exit $rc; file: threads, max busy % = $got; summary: $want" "$(tail -n 5 <<<"$out")"
  fi
  # Handler calls and messages are counted only in images built with op2c
  # --count-events (softswitch.c SS_COUNT_EVENTS): "-" without, and with it
  # every thread took its begins from the network and ran steps; the
  # summary says how to get them.
  check "OP2_TINSEL_UTIL: the four counts are '-' without op2c --count-events" \
    awk -F'\t' '!/^#/ { n++; if ($6 != "-" || $7 != "-" || $8 != "-" || $9 != "-") bad = 1 } END { exit bad || !n }' \
    "$tmp/util.tsv"
  check "the summary: the softswitch's message counts need op2c --count-events" \
    grep -q "messages  *the softswitch's counts: build with op2c --count-events" <<<"$out"
  if "$bin/op2c" --target tinsel --fw-config tile --count-events -O2 ${TEST_CFLAGS:-} --gen-dir "$tmp/count.gen" \
       -o "$tmp/direct_inc_count" tests/op2/direct_inc.c >"$tmp/count.build" 2>&1; then
    out=$(cd "$tmp" && TSIM_ENGINE=fast OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_UTIL="$tmp/util_count.tsv" \
          timeout 300 ./direct_inc_count 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q '^direct_inc PASSED$' <<<"$out" &&
       awk -F'\t' '!/^#/ { n++; if (!($6 > 0 && $7 > 0 && $6 ~ /^[0-9]+$/ && $7 ~ /^[0-9]+$/ && $8 ~ /^[0-9]+$/ && $9 ~ /^[0-9]+$/)) bad = 1 }
                    END { exit bad || !n }' "$tmp/util_count.tsv" &&
       grep -qE "^  messages +thread-local [0-9]+ .*network sends [1-9][0-9]* \(softswitch\)" <<<"$out"; then
      pass "op2c --count-events: PASSED, every thread's handler calls and messages received counted"
    else
      fail "op2c --count-events" "exit $rc" "$(tail -n 5 <<<"$out"; head -n 3 "$tmp/util_count.tsv" 2>/dev/null)"
    fi
  else
    fail "op2c --count-events builds direct_inc" "$(tail -n 5 "$tmp/count.build")"
  fi
  out=$(cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_UTIL="$tmp/no/such/dir/u.tsv" \
        timeout 60 ./direct_inc_tinsel 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -q "OP2_TINSEL_UTIL=$tmp/no/such/dir/u.tsv: cannot write it: No such file" <<<"$out"; then
    pass "OP2_TINSEL_UTIL with a path that cannot be written is refused (exit $rc)"
  else
    fail "OP2_TINSEL_UTIL with a path that cannot be written is refused" "exit $rc" "$(tail -n 3 <<<"$out")"
  fi
  out=$(cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=tile OP2_TINSEL_EXTRA_SLOT=yes timeout 60 ./direct_inc_tinsel 2>&1)
  rc=$?
  if [ $rc -ne 0 ] && grep -q 'OP2_TINSEL_EXTRA_SLOT=yes: expected 1 .* or 0 ' <<<"$out"; then
    pass "OP2_TINSEL_EXTRA_SLOT=yes is refused (exit $rc)"
  else
    fail "OP2_TINSEL_EXTRA_SLOT=yes is refused" "exit $rc" "$(tail -n 3 <<<"$out")"
  fi
else
  fail "op2 direct_inc builds" "$(tail -n 5 "$(shared_dir)/direct_inc.build")"
fi

# Running ahead (sim/README.md "Fast engine": a core's plain instructions
# back to back, a tile's cores ahead of the others) must change nothing:
# the same exit status, stdout and cycle count as the per-cycle schedule
# alone (TSIM_FAST_QUANTUM=0), for compute-bound, memory, FPU and mailbox
# runs.
# ahead LABEL CONFIG ELF [OPTION...]
ahead() {
  local label=$1 cfg=$2 elf=$3 q rc=(); shift 3
  for q in 0 1000; do
    TSIM_FAST_QUANTUM=$q "$tsim" --engine fast --config "$cfg" --elf "$elf" --max-cycles 20000000 "$@" \
      >"$tmp/q$q.out" 2>"$tmp/q$q.err"
    rc+=($?)
    sed -n 's/^tsim: cycles //p' "$tmp/q$q.err" >"$tmp/q$q.cycles"
  done
  if [ "${rc[0]}" != "${rc[1]}" ]; then
    fail "$label ahead" "exit ${rc[0]} per cycle but ${rc[1]} ahead" "$(head -n 3 "$tmp/q1000.err")"
  elif ! cmp -s "$tmp/q0.out" "$tmp/q1000.out"; then
    fail "$label ahead: stdout differs" "$(diff "$tmp/q0.out" "$tmp/q1000.out" | head -n 10)"
  elif [ ! -s "$tmp/q0.cycles" ] || ! cmp -s "$tmp/q0.cycles" "$tmp/q1000.cycles"; then
    fail "$label ahead: cycles differ" "$(cat "$tmp/q0.cycles") per cycle, $(cat "$tmp/q1000.cycles") ahead"
  else
    pass "$label ahead (exit ${rc[0]}; $(cat "$tmp/q0.cycles") cycles either way)"
  fi
}
printf 'INCLUDE %s\nINCLUDE %s\n' "$PWD/$BUILD/gen/boards/tile/tinsel.ld" "$PWD/tests/tsim/link.ld" >"$tmp/link.ld"
if riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -x assembler-with-cpp \
     -I"$BUILD/gen/boards/tile" -DITERS=3000 -DNTHREADS=64 -T "$tmp/link.ld" tests/tsim/busy.S -o "$tmp/busy.elf" \
     2>"$tmp/busy.log"; then
  ahead "busy loop" tile "$tmp/busy.elf" --all-threads
else
  fail "busy loop builds" "$(head -n 5 "$tmp/busy.log")"
fi
ahead "int_rr" core "$s/int_rr.elf"
ahead "mem" core "$s/mem.elf"
ahead "spawn_core" core "$s/spawn_core.elf"
ahead "memmap_tile" tile "$s/memmap_tile.elf" --all-threads
ahead "fpu_tile" tile "$s/fpu_tile.elf" --all-threads
ahead "mbox flood" tile "$m/flood-tile.elf" --all-threads
ahead "mbox all_to_all, delay seed" tile "$m/all_to_all-tile.elf" --all-threads --delay-seed 3
ahead "mbox pingpong (board)" board "$m/pingpong-board.elf" --all-threads
TSIM_FAST_QUANTUM=lots "$tsim" --engine fast --config core --elf "$s/int_rr.elf" >/dev/null 2>"$tmp/err"; rc=$?
check "TSIM_FAST_QUANTUM=lots is a usage error (exit $rc)" grep -q 'TSIM_FAST_QUANTUM "lots": expected' "$tmp/err"

# The environment picks the engine when --engine is not given.
TSIM_ENGINE=fast "$tsim" --config core --elf "$s/int_rr.elf" --stats-file "$tmp/stats" >/dev/null 2>"$tmp/err"
check "TSIM_ENGINE=fast runs the fast engine (its statistics file)" grep -q '^exit 0$' "$tmp/stats"
TSIM_ENGINE=warp "$tsim" --config core --elf "$s/int_rr.elf" >/dev/null 2>"$tmp/err"; rc=$?
check "TSIM_ENGINE=warp is a usage error (exit $rc)" grep -q 'unknown engine "warp" in TSIM_ENGINE' "$tmp/err"
"$tsim" --engine warp --config core --elf "$s/int_rr.elf" >/dev/null 2>"$tmp/err"; rc=$?
check "--engine warp is a usage error (exit $rc)" grep -q 'unknown engine "warp" (expected cycle or fast)' "$tmp/err"

# The fast engine over MPI ranks (sim/fast/fast_mpi.h; TSIM_RANKS=N makes
# tsim start `mpirun -np N`, as root, oversubscribed, shared memory only):
# a box split 3 + 3 boards over 2 ranks must give what 1 rank gives: exit
# status, stdout, the verdict with its cycle count, messages sent and
# received, and messages on the links between the ranks' boards (north of
# board 0..2; more than none, so the ranks did exchange). The same
# program without mpirun gives the same exit status, stdout and verdict
# (cycles apart: the split run counts MacLatency on the link and gives
# link slots back a link latency later). Programs: msgbench's neighbours
# (links full: back-pressure between ranks; 1 and 2 ranks) and idle
# detection over the box (2 ranks against the run without mpirun). Open MPI's own allocations at exit are not ours: no leak check under
# mpirun (ASan still checks every access). mpirun comes from make deps
# (mk/packages.txt: openmpi-bin).
# mpi_sums FILE: messages sent and received over the tiles, and on the north links of boards 0..2.
mpi_sums() {
  awk '/mailbox: sent/ { for (i = 1; i < NF; i++) { if ($i == "sent") s += $(i + 1); if ($i == "received") r += $(i + 1) } }
       /^tsim: link board [012] north/ { n += $10 }
       END { printf "sent %d received %d north %d\n", s, r, n }' "$1"
}
# mpi_same LABEL ELF RANKS LINKS: RANKS (1 2, or 2 alone) on the box, and the
# run without mpirun; LINKS 1: messages must have crossed between the ranks.
mpi_same() {
  local label=$1 elf=$2 ranks=$3 links=$4 n rc=()
  if [ ! -f "$elf" ]; then fail "$label" "missing $elf (make BUILD=$BUILD all)"; return; fi
  "$tsim" --engine fast --config box --elf "$elf" --all-threads >"$tmp/r0.out" 2>"$tmp/r0.err"
  rc+=($?)
  if [ "$ranks" = 2 ]; then rc+=(-); fi
  for n in $ranks; do
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 TSIM_RANKS=$n "$tsim" --engine fast --config box \
      --elf "$elf" --all-threads >"$tmp/r$n.out" 2>"$tmp/r$n.err"
    rc+=($?)
    grep -E '^tsim: (PASS|FAIL|idle:|every thread|error)' "$tmp/r$n.err" >"$tmp/r$n.verdict"
    mpi_sums "$tmp/r$n.err" >"$tmp/r$n.sums"
  done
  verdict "$tmp/r0.err" >"$tmp/r0.v"
  verdict "$tmp/r2.err" >"$tmp/r2.v"
  if [ "$ranks" = 2 ]; then cp "$tmp/r2.out" "$tmp/r1.out"; cp "$tmp/r2.verdict" "$tmp/r1.verdict"; cp "$tmp/r2.sums" "$tmp/r1.sums"; rc[1]=${rc[2]}; fi
  if [ "${rc[1]}" != "${rc[2]}" ] || [ "${rc[0]}" != "${rc[2]}" ]; then
    fail "$label: exit ${rc[0]} without mpirun, ${rc[1]} on 1 rank, ${rc[2]} on 2" "$(tail -n 5 "$tmp/r2.err")"
  elif ! grep -q '^tsim: mpi: 2 ranks, boards 0\.\.2 on rank 0' "$tmp/r2.err"; then
    fail "$label: not split over 2 ranks" "$(grep -E '^tsim: (mpi|error)' "$tmp/r2.err" | head -n 5)"
  elif ! cmp -s "$tmp/r1.out" "$tmp/r2.out" || ! cmp -s "$tmp/r0.out" "$tmp/r2.out"; then
    fail "$label: stdout differs" "$(diff "$tmp/r1.out" "$tmp/r2.out" | head -n 10)"
  elif [ ! -s "$tmp/r1.verdict" ] || ! cmp -s "$tmp/r1.verdict" "$tmp/r2.verdict"; then
    fail "$label: verdict differs between 1 and 2 ranks" "$(diff "$tmp/r1.verdict" "$tmp/r2.verdict" | head -n 10)"
  elif ! cmp -s "$tmp/r0.v" "$tmp/r2.v"; then
    fail "$label: verdict differs from the run without mpirun" "$(diff "$tmp/r0.v" "$tmp/r2.v" | head -n 10)"
  elif ! cmp -s "$tmp/r1.sums" "$tmp/r2.sums" || { [ "$links" = 1 ] && grep -q 'north 0$' "$tmp/r2.sums"; }; then
    fail "$label: messages differ (or none crossed)" "1 rank: $(cat "$tmp/r1.sums")" "2 ranks: $(cat "$tmp/r2.sums")"
  else
    pass "$label: ${ranks/ / and } MPI ranks agree (exit ${rc[2]}; $(sed 's/^tsim: //' "$tmp/r2.verdict" | head -n 1); $(cat "$tmp/r2.sums"))"
  fi
}
if command -v mpirun >/dev/null 2>&1; then
  mpi_same "msgbench neighbours (box)" "$BUILD/tests/router/bench_nn-box.elf" "1 2" 1
  mpi_same "idle detection (box)" "$BUILD/tests/router/idle-box.elf" 2 0
  ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 TSIM_RANKS=2 "$tsim" --engine fast --config board \
    --elf "$m/pingpong-board.elf" >/dev/null 2>"$tmp/err"; rc=$?
  check "2 ranks for 1 board is a usage error (exit $rc)" \
    grep -q '^tsim: 2 MPI ranks for 1 board: at most one rank per board' "$tmp/err"
  # The host link on rank 0 and idle detection over both ranks, through the
  # OP2 sim engine (TSIM_RANKS reaches the tsim it spawns).
  if [ -x "$tmp/direct_inc_tinsel" ]; then
    out=$(cd "$tmp" && ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 TSIM_RANKS=2 TSIM_ENGINE=fast \
          OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=box OP2_TINSEL_DELAY_SEED=2 timeout 300 ./direct_inc_tinsel 2>&1); rc=$?
    if [ $rc -eq 0 ] && grep -q '^direct_inc PASSED$' <<<"$out"; then pass "op2 direct_inc on the box over 2 MPI ranks"
    else fail "op2 direct_inc on the box over 2 MPI ranks" "exit $rc" "$(tail -n 8 <<<"$out")"; fi
  fi
else
  fail "mpirun for the MPI checks" "no mpirun: make deps installs openmpi-bin and libopenmpi-dev (mk/packages.txt)"
fi

finish
