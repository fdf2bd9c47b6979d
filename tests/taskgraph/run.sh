#!/usr/bin/env bash
# tests/taskgraph/run.sh: tg.h (taskgraph/). The unit tests (run states,
# misuse errors, deadlocks, back-pressure, checkpoints in memory), then the
# checkpoint/resume demonstration across processes: tg_demo stops the
# worked example after F firings and writes a checkpoint file; a new
# process builds the graph, restores it, schedules in another order and
# must end with the oracle's total and the same number of firings as a run
# that never stopped. Bad checkpoint files and arguments get a message.
# Then tg.h's POETS back end (tg_poets) on the host softswitch engine and
# the tile's cycle model against the oracle, and checkpoints of a POETS
# run (tg_poets --stop-after K --checkpoint FILE) resumed by tg_demo. Reads
# BUILD (default build) and TSIM (default $BUILD/bin/tsim).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
demo=$BUILD/bin/tg_demo
TSIM=${TSIM:-$BUILD/bin/tsim}
unit=$BUILD/bin/tests/tg_test
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$demo" "$unit" "$BUILD/bin/tg_poets" "$BUILD/fw/boards/tile/tgp_example.elf"; do
  [ -x "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit 1; }
done

out=$("$unit" 2>&1); rc=$?
echo "$out" | grep '^FAIL' | sed 's/^/    /'
if [[ $(tail -n 1 <<<"$out") =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  T_PASS=$((T_PASS + BASH_REMATCH[1])); T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
  echo "tg_test: ${BASH_REMATCH[1]} checks passed, ${BASH_REMATCH[2]} failed"
  [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail "tg_test" "exit $rc"
else
  fail "tg_test" "exit $rc, no count line" "$out"
fi

# The straight run: its firings, to compare with the resumed runs.
n=2000
out=$("$demo" --n $n --cap 3); rc=$?
firings=$(sed -n 's/.*: \([0-9]*\) firings, total.*/\1/p' <<<"$out")
if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = PASSED ] && [ -n "$firings" ]; then pass "tg_demo: n $n straight ($firings firings)"
else fail "tg_demo: n $n straight" "exit $rc" "$out"; fi
for stop in 1 977 20000 $((firings - 1)) $((firings + 5)); do
  name="tg_demo: stop after $stop firings, checkpoint, resume in a new process"
  if ! o1=$("$demo" --n $n --cap 3 --seed $stop --stop-after $stop --checkpoint "$tmp/ck$stop" 2>&1); then
    fail "$name" "$o1"; continue
  fi
  o2=$("$demo" --n $n --cap 3 --seed $((stop + 1)) --resume "$tmp/ck$stop" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$o2")" = PASSED ] && grep -q ": $firings firings, total" <<<"$o2"; then pass "$name"
  else fail "$name" "exit $rc, want PASSED and $firings firings" "$o1" "$o2"; fi
done

# The POETS back end: every node's report equals the oracle's (tg_poets says PASSED).
poets() { # NAME ARGS...
  local name=$1 out rc; shift
  out=$("$BUILD/bin/tg_poets" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = PASSED ] && grep -q "4 reports from 4 nodes" <<<"$out"; then pass "$name"
  else fail "$name" "exit $rc" "$out"; fi
}
# The softswitch engine delivers messages in any order (not even per pair of
# threads): items overtake each other on an edge, and the sequence numbers
# put them back in order. Before them, these seeds FAILED at n 300,
# capacity 4 (tile 10 15 26, board 2 22 26, box 3 4 11 of seeds 1..30):
# one of them per configuration.
for cfg in tile board box; do
  poets "tg_poets: softswitch engine, $cfg, n 200, capacity 1" --n 200 --cap 1 --config "$cfg" --delay-seed 11
done
for cs in tile:10 board:2 box:3; do
  poets "tg_poets: softswitch engine, ${cs%:*}, n 300, capacity 4, delay seed ${cs#*:}" --n 300 --cap 4 --config "${cs%:*}" \
    --delay-seed "${cs#*:}"
done
if [ -x "$TSIM" ]; then
  poets "tg_poets: tsim tile, n 30, capacity 2, delay seed 2" --n 30 --cap 2 --config tile --engine sim \
    --fw "$BUILD/fw/boards/tile/tgp_example.elf" --tsim "$TSIM" --delay-seed 2
  poets "tg_poets: tsim board, n 5, capacity 2, delay seed 2" --n 5 --cap 2 --config board --engine sim \
    --fw "$BUILD/fw/tgp_example.elf" --tsim "$TSIM" --delay-seed 2
else fail "tg_poets: tsim tile" "no $TSIM"; fi
# The multifrontal tree's tg.h graph (apps/tree/tree_tg.h: counted ports)
# on POETS: every node's report equals the oracle's (its ctx holds its result).
tree() { # NAME NODES ARGS...
  local name=$1 nodes=$2 out rc; shift 2
  out=$("$BUILD/bin/tg_poets" --graph tree --n "$nodes" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = PASSED ] && grep -q "$nodes reports from $nodes nodes" <<<"$out"; then pass "$name"
  else fail "$name" "exit $rc" "$out"; fi
}
for cfg in board box; do
  tree "tg_poets tree: softswitch engine, $cfg, 3000 nodes" 3000 --config $cfg --delay-seed 4
done
if [ -x "$TSIM" ]; then
  tree "tg_poets tree: tsim tile, 300 nodes, delay seed 2" 300 --config tile --engine sim \
    --fw "$BUILD/fw/boards/tile/tgp_tree.elf" --tsim "$TSIM" --delay-seed 2
fi
for x in 1 2; do # tests of the test: the devices' last node posts twice, or never
  out=$("$BUILD/bin/tg_poets" --graph tree --n 3000 --config box --delay-seed 2 --extra-post $x 2>&1); rc=$?
  check "tg_poets tree: a node that posts $( ((x == 1)) && echo twice || echo never) FAILS with a counted-port error" \
    test $rc -eq 1 -a "$(tail -n 1 <<<"$out")" = FAILED -a -n "$(grep -E "errors 8 .*\(oracle differs\)" <<<"$out")"
done
out=$("$BUILD/bin/tg_poets" --graph tree --n 1000 --poets-n 999 --config board 2>&1); rc=$?
check "tg_poets tree: devices with one node fewer FAIL (test of the test)" \
  test $rc -eq 1 -a "$(tail -n 1 <<<"$out")" = FAILED
out=$("$BUILD/bin/tg_poets" --n 50 --poets-n 51 --config tile 2>&1); rc=$?
check "tg_poets: devices running another n than the oracle FAIL (test of the test)" \
  test $rc -eq 1 -a "$(tail -n 1 <<<"$out")" = FAILED -a -n "$(grep -F "(oracle differs)" <<<"$out")"
out=$("$BUILD/bin/tg_poets" --n 10 --cap 5 2>&1); rc=$?
check "tg_poets: a capacity over the back end's limit is refused" test $rc -eq 2 -a -n "$(grep -F "capacity 5, the POETS back end holds at most 4" <<<"$out")"

# A checkpoint of a POETS run (tg_poets --stop-after K --checkpoint FILE, the
# host softswitch engine): after K firings the devices stop firing, the
# messages in flight drain, and every device's state is read back into
# tg.h's checkpoint format; tg_demo resumes it on the host scheduler (another
# process, another order) and must end with the oracle's total and the
# firings of a run that never stopped.
out=$("$demo" --n 100 --cap 2); pfirings=$(sed -n 's/.*: \([0-9]*\) firings, total.*/\1/p' <<<"$out")
for stop in 0 1 37 1500 $((pfirings - 1)) $((pfirings + 5)); do
  for cfg in tile box; do
    name="tg_poets checkpoint: $cfg, stop after $stop of $pfirings firings, resumed by tg_demo"
    if ! o1=$("$BUILD/bin/tg_poets" --n 100 --cap 2 --config $cfg --delay-seed $((stop + 3)) --stop-after $stop \
                --checkpoint "$tmp/pk" 2>&1) || ! grep -q "stopped after $((stop < pfirings ? stop : pfirings)) firings" <<<"$o1"; then
      fail "$name" "$o1"; continue
    fi
    o2=$("$demo" --n 100 --cap 2 --seed $((stop + 1)) --resume "$tmp/pk" 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$o2")" = PASSED ] && grep -q ": $pfirings firings, total" <<<"$o2"; then pass "$name"
    else fail "$name" "exit $rc, want PASSED and $pfirings firings" "$o1" "$o2"; fi
  done
done
# Test of the test: devices running another n (90) make a checkpoint whose resumed run is not the oracle's.
"$BUILD/bin/tg_poets" --n 100 --poets-n 90 --cap 2 --config tile --stop-after 500 --checkpoint "$tmp/pk90" >/dev/null 2>&1
out=$("$demo" --n 100 --cap 2 --resume "$tmp/pk90" 2>&1); rc=$?
check "tg_poets checkpoint: devices with another n resume to FAILED (test of the test)" \
  test $rc -eq 1 -a "$(tail -n 1 <<<"$out")" = FAILED
# Resume on POETS (tg_poets --resume FILE): the checkpoint's states go into
# the thread images (the devices' first state) and the run goes on on the
# host softswitch engine or tsim; every node must end as in the oracle.
# Checkpoints from the host scheduler (tg_demo) and from a POETS run.
resume() { # NAME CHECKPOINT ARGS...
  local name=$1 ck=$2 out rc; shift 2
  out=$("$BUILD/bin/tg_poets" --n 100 --cap 2 --resume "$ck" "$@" 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = PASSED ] && grep -q "^tg_poets: resuming " <<<"$out"; then pass "$name"
  else fail "$name" "exit $rc" "$out"; fi
}
for stop in 1500 $((pfirings - 1)); do
  "$demo" --n 100 --cap 2 --seed $stop --stop-after $stop --checkpoint "$tmp/hk$stop" >/dev/null 2>&1
  resume "resume on POETS: tg_demo's checkpoint after $stop firings, softswitch engine, box" "$tmp/hk$stop" \
    --config box --delay-seed $((stop + 2))
done
"$BUILD/bin/tg_poets" --n 100 --cap 2 --config board --delay-seed 2 --stop-after 700 --checkpoint "$tmp/pk700" >/dev/null 2>&1
resume "resume on POETS: tg_poets' checkpoint after 700 firings, softswitch engine, tile" "$tmp/pk700" --config tile --delay-seed 5
if [ -x "$TSIM" ]; then
  # loaded through the boot loader over the host link, as on a box (--load hostlink)
  "$BUILD/bin/tg_poets" --n 30 --cap 2 --config board --delay-seed 2 --stop-after 100 --checkpoint "$tmp/pk30" >/dev/null 2>&1
  resume "resume on POETS: tg_poets' checkpoint (n 30) after 100 firings, tsim tile over the host link, delay seed 3" \
    "$tmp/pk30" --n 30 --config tile --engine sim --load hostlink --fw "$BUILD/fw/boards/tile/tgp_example.elf" --tsim "$TSIM" \
    --delay-seed 3
fi
out=$("$BUILD/bin/tg_poets" --n 100 --cap 2 --config tile --resume "$tmp/pk90" 2>&1); rc=$?
check "resume on POETS: the checkpoint of devices with another n resumes to FAILED (test of the test)" \
  test $rc -eq 1 -a "$(tail -n 1 <<<"$out")" = FAILED
out=$("$BUILD/bin/tg_poets" --n 100 --cap 3 --resume "$tmp/pk700" 2>&1); rc=$?
check "resume on POETS: a checkpoint of another graph is refused" test $rc -eq 1 -a -n "$(grep -F "is not this graph" <<<"$out")"
out=$("$BUILD/bin/tg_poets" --n 10 --checkpoint "$tmp/x" 2>&1); rc=$?
check "tg_poets: --checkpoint without --stop-after is refused" test $rc -eq 2 -a -n "$(grep -F "go together" <<<"$out")"
out=$("$BUILD/bin/tg_poets" --n 10 --engine sim --fw x.elf --stop-after 3 --checkpoint "$tmp/x" 2>&1); rc=$?
check "tg_poets: --checkpoint on tsim is refused" test $rc -eq 2 -a -n "$(grep -F "host softswitch engine only" <<<"$out")"

# Bad checkpoints and arguments.
bad() { # NAME WANT_EXIT WANT_TEXT ARGS...
  local name=$1 want=$2 text=$3 out rc; shift 3
  out=$("$demo" "$@" 2>&1); rc=$?
  if [ $rc -eq "$want" ] && grep -qF -- "$text" <<<"$out"; then pass "$name"; else fail "$name" "exit $rc (want $want), want: $text" "$out"; fi
}
head -c 50 "$tmp/ck977" > "$tmp/short"
bad "resume: a truncated checkpoint" 1 "$tmp/short: offset 48: error: the checkpoint ends inside" --n $n --cap 3 --resume "$tmp/short"
bad "resume: into another graph" 1 "is not this graph" --n $n --cap 4 --resume "$tmp/ck977"
printf 'hello' > "$tmp/junk"
bad "resume: not a checkpoint" 1 "not a task-graph checkpoint" --n $n --resume "$tmp/junk"
bad "resume: a missing file" 1 "cannot open the checkpoint" --n $n --resume "$tmp/none"
bad "bad: --n 0" 2 "--n 0: a number from 1" --n 0
bad "bad: unknown option" 2 "--frob: unknown option" --frob 1
bad "bad: --checkpoint without --stop-after" 2 "go together" --checkpoint "$tmp/x"
finish
