#!/usr/bin/env bash
# tests/preload/run.sh: tsim --preload (sim/README.md "Preload"). A board
# whose cores 2 and 3 (one core pair) are preloaded with the tests/hostlink
# app runs it beside boot-loader cores, checked by a host program
# (preload_test); per-pair code on a box and in the enlarged instruction
# memory; bad preload files are rejected naming file, offset and limit.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
pt=$BUILD/tests/preload/preload_test
app=$BUILD/tests/hostlink/app.elf
tmp=$(mktemp -d)
tsim_pid=
trap '[ -n "$tsim_pid" ] && kill "$tsim_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
CC=riscv64-unknown-elf-gcc

for f in "$tsim" "$pt" "$app"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit 1; }
done

# ---- a preloaded core pair beside boot-loader cores, through the host link
"$pt" write "$app" "$tmp/app.pre" 2 3 || fail "preload_test write"
HOST=unix:$tmp/host.sock DEBUG=unix:@op2-poets-preload-$$
"$tsim" --config board --hostlink "$HOST" --debuglink "$DEBUG" --preload "$tmp/app.pre" \
  >"$tmp/board.out" 2>"$tmp/board.err" &
tsim_pid=$!
out=$(timeout 300 "$pt" host "$HOST" "$DEBUG" "$app" 2 3 2>&1); hrc=$?
wait "$tsim_pid"; trc=$?; tsim_pid=
while IFS= read -r line; do
  case $line in
    ok\ *) pass "board: ${line#ok }" ;;
    FAILED\ *) fail "board: ${line#FAILED }" ;;
  esac
done <<< "$out"
[ $hrc -eq 0 ] || fail "preload_test host exit $hrc" "$out" "$(tail -n 5 "$tmp/board.err")"
check "tsim exits 0 when the host closes" test "$trc" -eq 0

# ---- files made here: the tests/tsim exit program as base and as preloaded code
# build NAME [FLAGS...]: tests/tsim/exit.S for configuration core's layout.
build() {
  local name=$1; shift
  printf 'INCLUDE %s\nINCLUDE %s\n' "$PWD/$BUILD/gen/boards/core/tinsel.ld" "$PWD/tests/tsim/link.ld" > "$tmp/link.ld"
  $CC -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -x assembler-with-cpp "$@" \
    -T "$tmp/link.ld" tests/tsim/exit.S -o "$tmp/$name.elf" 2>"$tmp/cc.err" || fail "build $name" "$(cat "$tmp/cc.err")"
  riscv64-unknown-elf-objcopy -O binary -j .text "$tmp/$name.elf" "$tmp/$name.text"
}
build spin -DSPIN            # thread 0 of core 0 of each board spins forever
build pass                   # stores 1 to tohost (the same address as spin's)
build far -Wl,--section-start=.text=0x3000
entry() { printf '%d' "0x$(riscv64-unknown-elf-readelf -h "$tmp/$1.elf" | awk '/Entry point/ { sub("0x", "", $4); print $4 }')"; }

# le32 N...: little-endian words.
le32() { local v; for v; do printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"; done; }
# record KIND CORE ADDR [FILE]: one record, FILE the payload (padded to words).
record() {
  local size=0
  [ -n "${4:-}" ] && size=$(stat -c %s "$4")
  le32 "$1" "$2" "$3" "$size"
  if [ -n "${4:-}" ]; then cat "$4"; head -c $(( (4 - size % 4) % 4 )) /dev/zero; fi
}
mask() { le32 "$1" > "$tmp/mask"; echo "$tmp/mask"; }

# expect NAME WANT_RC WANT_STDERR_REGEX ARGS...: run tsim; check its exit status and stderr.
expect() {
  local name=$1 want_rc=$2 want=$3 rc; shift 3
  "$tsim" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ "$rc" -eq "$want_rc" ] && grep -Eq -- "$want" "$tmp/err"; then pass "$name"
  else fail "$name" "exit $rc (want $want_rc), want stderr matching: $want" "$(head -n 5 "$tmp/err")"; fi
}

# A box: board 1's core 70 (a pair of its own) runs the pass code; everything else spins.
{ printf TSIMPRE1; record 1 70 "$(entry pass)" "$tmp/pass.text"; record 3 70 "$(entry pass)" "$(mask 1)"; } > "$tmp/box.pre"
expect "box: preloaded core 70 runs its pair's code" 0 '^tsim: PASS' --config box --elf "$tmp/spin.elf" --preload "$tmp/box.pre" --max-cycles 20000
expect "box: without the preload nothing stops" 124 'max-cycles' --config box --elf "$tmp/spin.elf" --max-cycles 2000
expect "board: core 70 is out of range" 65 "^tsim: $tmp/box.pre:8: error: core 70 is out of range \(this run has 64 cores\)$" --config board --elf "$tmp/spin.elf" --preload "$tmp/box.pre"

# The enlarged instruction memory: code at 0x3000.
{ printf TSIMPRE1; record 1 1 0x3000 "$tmp/far.text"; record 3 1 0x3000 "$(mask 0x8000)"; } > "$tmp/far.pre"
expect "enlarged: code at 0x3000 runs" 0 '^tsim: PASS' --config tile --elf "$tmp/spin.elf" --imem enlarged --preload "$tmp/far.pre" --max-cycles 20000
expect "standard: code at 0x3000 is beyond the instruction memory" 65 \
  "^tsim: $tmp/far.pre:8: error: code \[0x00003000, 0x[0-9a-f]{8}\) for core 1 lies beyond the instruction memory \[0, 0x2000\)$" \
  --config tile --elf "$tmp/spin.elf" --preload "$tmp/far.pre"

# Bad files: exit 65 naming the file and the record's offset.
printf 'TSIMPRE0' > "$tmp/magic.pre"
expect "wrong magic" 65 "^tsim: $tmp/magic.pre:0: error: not a preload file \(it must begin with \"TSIMPRE1\"\)$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/magic.pre"
{ printf TSIMPRE1; le32 2 0; } > "$tmp/short.pre"
expect "truncated header" 65 "^tsim: $tmp/short.pre:8: error: truncated record header \(8 of 16 bytes\)$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/short.pre"
{ printf TSIMPRE1; record 3 0 0x240 "$(mask 1)"; le32 2 0 0x1800000 100; le32 7; } > "$tmp/cut.pre"
expect "record cut short" 65 "^tsim: $tmp/cut.pre:28: error: record of 100 bytes is cut short: the file has 4 more$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/cut.pre"
{ printf TSIMPRE1; record 2 3 0x90000000 "$(mask 5)"; } > "$tmp/region.pre"
expect "data in no region" 65 "^tsim: $tmp/region.pre:8: error: data address 0x90000000 \(core 3\) is in no memory region$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/region.pre"
{ printf TSIMPRE1; record 9 0 0; } > "$tmp/kind.pre"
expect "unknown kind" 65 "^tsim: $tmp/kind.pre:8: error: unknown record kind 9" --config tile --elf "$tmp/spin.elf" --preload "$tmp/kind.pre"
{ printf TSIMPRE1; record 3 0 0x240 "$(mask 0x10000)"; } > "$tmp/mask.pre"
expect "thread beyond the core" 65 "^tsim: $tmp/mask.pre:8: error: thread mask 0x10000 of core 0 is empty or names threads beyond 15$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/mask.pre"
expect "missing file" 65 "^tsim: $tmp/none.pre: error: cannot open the preload file: No such file or directory$" --config tile --elf "$tmp/spin.elf" --preload "$tmp/none.pre"

# ---- the sim engine (host/tinsel/engine_hostlink.c): resident_dats binds 8
# instances in turn (7 reloads); loads by preload (the default: a tsim per
# load) and by hostlink (the boot loaders; reloads return every thread to
# them with SS_KEY_EXIT: one tsim); begins by routing key (the default: one
# host message per invocation) or per thread (OP2_TINSEL_BEGIN=threads).
bin=$BUILD/bin
source tests/op2/model_runs.sh  # the model suite's build of it, made once in make test
if model_exe resident_dats tests/op2/resident_dats.cpp "$tmp/rd"; then
  # rd NAME VAR=VALUE...: run it on the board model; output in $tmp/NAME.out.
  rd() {
    local name=$1; shift
    (cd "$tmp" && env OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=board "$@" timeout 300 ./rd) >"$tmp/$name.out" 2>&1
    local rc=$?
    if [ $rc -eq 0 ] && grep -q "^resident_dats PASSED$" "$tmp/$name.out"; then pass "engine sim, $name: resident_dats PASSED"
    else fail "engine sim, $name: resident_dats PASSED" "exit $rc" "$(tail -n 15 "$tmp/$name.out")"; fi
  }
  begins() { sed -nE 's/.*host link: [0-9]+ to the boards \(([0-9]+) begins\).*/\1/p' "$1"; }
  calls() { awk '/cycles per invocation/ { on = 1; next } on && /^  [a-z_0-9]+ +[0-9]+ / { n += $2 } /utilisation/ { on = 0 } END { print n + 0 }' "$1"; }
  rd preload
  loads() { sed -nE 's/^  loading +'"$2"'[^:]*: ([0-9]+) loads? in .*/\1/p' "$1"; }
  runs() { sed -nE 's/^  simulated cycles +[0-9]+ \(tsim, ([0-9]+) runs?\)$/\1/p' "$1"; }
  nl=$(loads "$tmp/preload.out" preload)
  check "preload: several loads (${nl:-none}), each by tsim --preload" test "${nl:-0}" -gt 1
  check "preload: a tsim run per load ($(runs "$tmp/preload.out"))" test "$(runs "$tmp/preload.out")" = "$nl"
  n=$(calls "$tmp/preload.out")
  check "keyed begins: one host message per invocation ($(begins "$tmp/preload.out") for $n calls)" test "$(begins "$tmp/preload.out")" = "$n"
  rd hostlink OP2_TINSEL_LOAD=hostlink OP2_TINSEL_BEGIN=threads
  check "hostlink: as many loads through the boot loaders ($(loads "$tmp/hostlink.out" hostlink))" test "$(loads "$tmp/hostlink.out" hostlink)" = "$nl"
  check "hostlink: reloads without restarting tsim (1 run)" grep -qE '^  simulated cycles +[0-9]+ \(tsim, 1 run\)$' "$tmp/hostlink.out"
  check "per-thread begins: more host messages than invocations ($(begins "$tmp/hostlink.out") for $n calls)" \
    test "$(begins "$tmp/hostlink.out")" -gt "$n"
  out=$(cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_LOAD=disk timeout 60 ./rd 2>&1); rc=$?
  check "OP2_TINSEL_LOAD=disk is refused (exit $rc)" grep -q "OP2_TINSEL_LOAD=disk: expected preload" <<<"$out"

  # A killed run stops its tsim and removes its directory.
  mkdir -p "$tmp/kill"
  (cd "$tmp" && exec env TMPDIR="$tmp/kill" OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=board ./rd) >"$tmp/kill.out" 2>&1 &
  rd_pid=$!
  for i in $(seq 300); do compgen -G "$tmp/kill/op2t-sim-*/host" >/dev/null && break; sleep 0.1; done
  sleep 0.5
  kill -TERM "$rd_pid"; wait "$rd_pid"; krc=$?
  check "SIGTERM ends the run (status $krc)" test "$krc" -eq 143
  check "SIGTERM: no op2t-sim directory left" test -z "$(ls -A "$tmp/kill")"
  check "SIGTERM: no tsim left running" sh -c "! ps -eo args | grep -v grep | grep -q '$tmp/kill/op2t-sim'"
else
  fail "resident_dats builds for the tinsel target" "$(tail -5 "$(shared_dir)/resident_dats.build")"
fi

finish
