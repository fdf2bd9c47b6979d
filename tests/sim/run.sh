#!/usr/bin/env bash
# tests/sim/run.sh: the firmware unit tests of the Tinsel core model. Runs
# every ELF of tests.list through tsim (pass = tohost 1) and each profile
# test of reject.list twice: under --profile tinsel tsim must halt naming the
# instruction and its pc, both taken from the ELF (nm, objdump); under
# --profile full the program must pass. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
dir=$BUILD/tests/sim
MAX_CYCLES=${MAX_CYCLES:-20000000}

if [ ! -x "$tsim" ]; then
  fail "tsim is built" "$tsim is missing: run make BUILD=$BUILD all"
  finish
  exit 1
fi

# run NAME CONFIG PROFILE OPTIONS...: sets out and rc.
run() {
  local elf=$dir/$1.elf cfg=$2 profile=$3 t0; shift 3
  t0=${EPOCHREALTIME/./}
  out=$("$tsim" --config "$cfg" --profile "$profile" --max-cycles "$MAX_CYCLES" --elf "$elf" "$@" 2>&1)
  rc=$?
  local us=$(( ${EPOCHREALTIME/./} - t0 ))
  secs=$(printf "%d.%02d" $((us / 1000000)) $((us % 1000000 / 10000)))
}

# A test passes when tsim exits 0 having seen tohost = 1; a failure shows
# tsim's verdict and the emitted words (check number, result, expected).
expect_pass() { # LABEL NAME CONFIG PROFILE OPTIONS...
  local label=$1; shift
  run "$@"
  if [ "$rc" -eq 0 ] && grep -q '^tsim: PASS (tohost = 1)' <<<"$out"; then
    pass "$label ($(grep -o 'cycles [0-9]*' <<<"$out" | head -n 1), ${secs}s)"
  else
    fail "$label" "exit $rc" "$(grep -E '^(tsim: (PASS|FAIL|error|board)|emit:)' <<<"$out" | head -n 12)"
  fi
}

while read -r name cfg profile opts; do
  case $name in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086  # OPTIONS is a word list
  expect_pass "$name ($cfg, $profile${opts:+, $opts})" "$name" "$cfg" "$profile" $opts
done < tests/sim/tests.list

# fpu_tile is meant to contend: every core of the tile must have been refused
# a shared unit (mostly the FPU: the run is FP-bound) at least once (tsim's
# statistics: "retry N").
run fpu_tile tile tinsel --all-threads
ncores=$("$BUILD/bin/boardgen" --config tile --get CoresPerBoard)
cores=$(grep -c "^tsim: core [0-9]*: .*retry [1-9]" <<<"$out")
check "fpu_tile: all $ncores cores retried on a shared unit ($cores did)" test "$cores" -eq "$ncores"

# Without --all-threads only thread 0 runs: it must wait for the others
# instead of passing.
MAX_CYCLES=300000 run threads_core core tinsel
check "threads_core without --all-threads waits for the missing threads (exit $rc)" \
  grep -q -- '--max-cycles 300000 exceeded' <<<"$out"

# Profile tests: the halt names the rejected instruction's pc and word.
while read -r name mnemonic; do
  case $name in ''|'#'*) continue ;; esac
  elf=$dir/reject_$name.elf
  pc=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "rejected_insn" { print $1 }')
  word=$(riscv64-unknown-elf-objdump -d --start-address="0x$pc" --stop-address="$(printf '0x%x' $((0x$pc + 4)))" "$elf" |
         awk -v a="$(printf '%x:' $((0x$pc)))" '$1 == a { print $2 }')
  want="tsim: board 0, core 0, thread 0, pc 0x$pc: instruction 0x$word ($mnemonic)"
  run "reject_$name" core tinsel
  if [ -n "$pc" ] && [ -n "$word" ] && [ "$rc" -eq 125 ] && grep -qF "$want" <<<"$out" && grep -q 'not in profile tinsel' <<<"$out"; then
    pass "tinsel rejects $mnemonic ($name) at 0x$pc"
  else
    fail "tinsel rejects $mnemonic ($name)" "exit $rc (want 125), want a line with: $want" "$(grep '^tsim:' <<<"$out" | head -n 5)"
  fi
  expect_pass "full runs $mnemonic ($name)" "reject_$name" core full
done < tests/sim/reject.list

# The halt names the thread that ran the instruction: thread 5 of core 2.
elf=$dir/reject_DIV_c2t5.elf
pc=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "rejected_insn" { print $1 }')
run reject_DIV_c2t5 tile tinsel --all-threads
check "tinsel names core 2, thread 5 at 0x$pc (exit $rc)" \
  grep -qF "tsim: board 0, core 2, thread 5, pc 0x$pc: instruction" <<<"$out"

finish
