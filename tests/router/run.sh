#!/usr/bin/env bash
# tests/router/run.sh: the board router (routing keys) and the box (six
# board models, inter-board links, idle detection across boards).
#   keys (board): every record type (URM1, URM2, MRM, IND, numBeats 0, a
#     key in DRAM 1 written by a thread, a three-beat key) from tables the
#     placer's encoder wrote; every destination thread gets exactly its
#     messages with words 0-1 rewritten; the router's statistics agree;
#   bad, bad_rr (board): a malformed beat, a RR record toward no board: the
#     run halts naming the board, key and beat;
#   keys (box): one key reaches threads on all six boards through RR records;
#   all_to_all (box): thread 0 of every fifth mailbox of every board sends to all
#     the others: all arrive, per-pair order holds, idle detection waits for
#     messages in flight between boards; link statistics show the traffic;
#   --imem enlarged: the notice, and a program beyond InstrsPerCore runs only with it.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
dir=$BUILD/tests/router

if [ ! -x "$tsim" ] || [ ! -f "$dir/keys-board.elf" ]; then
  fail "tsim and the router tests are built" "run make BUILD=$BUILD all"
  finish
  exit 1
fi

# run NAME CONFIG [OPTION...]: sets out, rc and secs.
run() {
  local t0=${EPOCHREALTIME/./} name=$1 cfg=$2
  shift 2
  out=$("$tsim" --config "$cfg" --all-threads --max-cycles 20000000 "$@" --elf "$dir/$name-$cfg.elf" 2>&1)
  rc=$?
  local us=$(( ${EPOCHREALTIME/./} - t0 ))
  secs=$(printf "%d.%02d" $((us / 1000000)) $((us % 1000000 / 10000)))
}
passed() { [ "$rc" -eq 0 ] && grep -q '^tsim: PASS (tohost = 1)' <<<"$out"; }
detail() { grep -E '^(tsim: (PASS|FAIL|error|board [0-9]+[ ,(])|emit:)|router:|messages:' <<<"$out" | head -n 12; }
field() { grep -o "$1 [0-9]*" <<<"$2" | head -n 1 | awk '{ print $2 }'; }

# ---- the box: six board models in one process
run idle box
if passed; then
  pass "idle (box, ${secs}s): all $(grep -c '^tsim: board [0-9] core [0-9]*:' <<<"$out") cores of 6 boards released together, votes ANDed across boards"
else
  fail "idle (box)" "exit $rc" "$(detail)"
fi
# The same program on one board: the vetoing thread's board is missing, so
# round two returns 2 and the check fails (the test can fail).
out=$("$tsim" --config board --all-threads --quiet --elf "$dir/idle-box.elf" 2>&1); rc=$?
check "idle (box program on one board) fails without the other boards: $(grep -m1 -o 'FAIL.*' <<<"$out")" test "$rc" -eq 4

# ---- --imem enlarged
run big_imem tile
check "big_imem (tile) is rejected without --imem enlarged (exit $rc): $(grep -m1 -o 'error: .*' <<<"$out")" \
  test "$rc" -eq 65 -a -n "$(grep 'lies outside instruction memory \[0, 0x2000)' <<<"$out")"
run big_imem tile --imem enlarged
notice=$(grep -m1 '^tsim: instruction memory enlarged' <<<"$out")
passed; ok=$?
check "big_imem (tile, --imem enlarged) runs: $notice" test "$ok" -eq 0
check "--imem enlarged says so: to $((4 << $("$BUILD/bin/boardgen" --config tile --get EnlargedLogInstrsPerCore))) bytes" \
  test "$notice" = "tsim: instruction memory enlarged to $((4 << $("$BUILD/bin/boardgen" --config tile --get EnlargedLogInstrsPerCore))) bytes (EnlargedLogInstrsPerCore), not real Tinsel"

# ---- every record type on one board
run keys board
router=$(grep -m1 '^tsim: router: ' <<<"$out")
if passed; then
  pass "keys (board, $(grep -o 'after [0-9]* cycles' <<<"$out"), ${secs}s): $router"
else
  fail "keys (board)" "exit $rc" "$(detail)"
fi
# Keys sent: URM1 URM2 MRM IND EMPTY MULTI (three beats) and the DRAM 1 key:
# 7 lookups (IND's key is part of its lookup), one without destinations;
# 1+1+1+1+0+9+1 = 14 messages out (an MRM record is one message).
check "keys (board): 7 lookups, one with no destination ($router)" \
  test "$(field lookups "$router")" = 7 -a "$(field no-destination "$router")" = 1
check "keys (board): the router emitted 14 messages, none inter-board, read 9 beats ($router)" \
  test "$(field sent "$router")" = 14 -a "$(field inter-board "$router")" = 0 -a "$(field beats "$router")" = 9

# ---- a malformed table
run bad board
msg=$(grep -m1 'router: key' <<<"$out")
check "bad (board) halts (exit $rc, want 125): ${msg#tsim: }" \
  test "$rc" -eq 125 -a -n "$(grep -E '^tsim: board 0 \(0,0\): router: key 0x[0-9a-f]{8}, beat 0 \(DRAM 0 address 0x[0-9a-f]{8}\): record count 0 \(expected 1..5\)$' <<<"$out")"

run bad_rr board
msg=$(grep -m1 'router: key' <<<"$out")
check "bad_rr (board) halts (exit $rc, want 125): ${msg#tsim: }" \
  test "$rc" -eq 125 -a -n "$(grep -E '^tsim: board 0 \(0,0\): router: key 0x[0-9a-f]{8}, beat 0 .*: RR record 0 sends west, where this board has no neighbour$' <<<"$out")"

# ---- the box
run keys box
if passed; then
  pass "keys (box, $(grep -o 'after [0-9]* cycles' <<<"$out"), ${secs}s): a key reached all six boards ($(grep -c '^tsim: board [0-9] router: ' <<<"$out") routers looked up keys)"
else
  fail "keys (box)" "exit $rc" "$(detail)"
fi
inter=$(grep -o 'inter-board [0-9]*' <<<"$out" | awk '{ n += $2 } END { print n + 0 }')
check "keys (box): 5 RR hops (inter-board $inter)" test "$inter" -eq 5

run all_to_all box
if passed; then
  pass "all_to_all (box, $(grep -o 'after [0-9]* cycles' <<<"$out"), ${secs}s): $(grep -o 'messages: sent [0-9]* received [0-9]*' <<<"$out")"
else
  fail "all_to_all (box)" "exit $rc" "$(detail)"
fi
links=$(grep -c '^tsim: link board [0-9] [a-z]* -> board [0-9]: messages [1-9]' <<<"$out")
check "all_to_all (box): all 14 links carried messages ($links; $(grep -m1 '^tsim: link' <<<"$out" | cut -c7-))" test "$links" -eq 14

finish
