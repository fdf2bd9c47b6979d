#!/usr/bin/env bash
# tests/tree/run.sh: the multifrontal tree app (apps/tree, seeds/002) and
# counted events. Every run is checked against the host oracle by the tree
# program itself (PASSED: the root's hash, size and height equal the
# oracle's and no node reported an error): the softswitch engine on a tile,
# a board and a box with several seeds and interleavings; the cycle model
# of a tile and a board with random delays; a node that posts twice must
# be caught (test of the test); bad arguments get a message and exit 2.
# Reads BUILD (default build) and TSIM (default $BUILD/bin/tsim).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
TSIM=${TSIM:-$BUILD/bin/tsim}
tree=$BUILD/bin/tree
for f in "$tree" "$BUILD/fw/tree.elf" "$BUILD/fw/boards/tile/tree.elf" "$TSIM"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit 1; }
done

# passes NAME ARGS...: the run prints PASSED, exits 0, and its root size is the node count.
passes() {
  local name=$1 out rc nodes; shift
  out=$("$tree" "$@" 2>&1); rc=$?
  nodes=$(sed -n 's/^tree: \([0-9]*\) nodes.*/\1/p' <<<"$out")
  if [ $rc -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = PASSED ] && grep -q "root hash [0-9a-f]* size $nodes " <<<"$out"; then
    pass "$name"
  else fail "$name" "exit $rc" "$out"; fi
}

# The oracle: a tree of N nodes has size N; another seed, another hash.
o1=$("$tree" --nodes 5000 --seed 1 --engine oracle); o2=$("$tree" --nodes 5000 --seed 2 --engine oracle)
h1=$(sed -n 's/.*oracle hash \([0-9a-f]*\) size 5000 .*/\1/p' <<<"$o1"); h2=$(sed -n 's/.*oracle hash \([0-9a-f]*\) size 5000 .*/\1/p' <<<"$o2")
check "oracle: size 5000, seeds 1 and 2 differ" test -n "$h1" -a -n "$h2" -a "$h1" != "$h2"

# The host softswitch engine: the real softswitch, random interleaving.
passes "softswitch engine: one node" --nodes 1 --config tile
passes "softswitch engine: two nodes" --nodes 2 --config tile
for cfg in tile board box; do
  for s in 1 2; do passes "softswitch engine: $cfg, 3000 nodes, seed $s, interleaving $((s + 4))" \
    --nodes 3000 --seed "$s" --config "$cfg" --delay-seed $((s + 4)); done
done
passes "softswitch engine: board, 100000 nodes" --nodes 100000 --seed 3 --config board --delay-seed 9

# The tree through tg.h (--engine tg): function nodes with a counted input
# port (UNTIL_COUNT = NC) on tg.h's host scheduler; the root must equal
# the oracle and every node fire exactly once.
passes "tg.h: one node" --nodes 1 --engine tg
passes "tg.h: 3000 nodes, round robin" --nodes 3000 --seed 1 --engine tg
passes "tg.h: 3000 nodes, random order 6" --nodes 3000 --seed 2 --engine tg --delay-seed 6
passes "tg.h: 100000 nodes, random order 7" --nodes 100000 --seed 3 --engine tg --delay-seed 7

# The cycle model, with random delays in the mailboxes.
passes "tsim tile: 2000 nodes, delay seed 1" --nodes 2000 --seed 4 --config tile --engine sim \
  --fw "$BUILD/fw/boards/tile/tree.elf" --tsim "$TSIM" --delay-seed 1
passes "tsim board: 3000 nodes, delay seed 2" --nodes 3000 --seed 5 --config board --engine sim \
  --fw "$BUILD/fw/tree.elf" --tsim "$TSIM" --delay-seed 2

# Test of the test: one node posts twice; its parent's counted event must say so.
# fails NAME WANT ARGS...: the run prints FAILED, exits 1 and says WANT.
fails() {
  local name=$1 want=$2 out rc; shift 2
  out=$("$tree" "$@" 2>&1); rc=$?
  if [ $rc -eq 1 ] && [ "$(tail -n 1 <<<"$out")" = FAILED ] && grep -qF -- "$want" <<<"$out"; then pass "$name"
  else fail "$name" "exit $rc, want a line with: $want" "$out"; fi
}
fails "softswitch engine: an extra post is caught" "excess posts" --nodes 500 --config board --extra-post
fails "tsim tile: an extra post is caught" "excess posts" --nodes 500 --config tile --engine sim \
  --fw "$BUILD/fw/boards/tile/tree.elf" --tsim "$TSIM" --extra-post
fails "softswitch engine: a missing post is caught" "missing posts" --nodes 500 --config box --missing-post
fails "tsim tile: a missing post is caught" "missing posts" --nodes 500 --config tile --engine sim \
  --fw "$BUILD/fw/boards/tile/tree.elf" --tsim "$TSIM" --missing-post
fails "tg.h: an extra post is caught" "counted port node" --nodes 500 --engine tg --extra-post
fails "tg.h: a missing post is caught" "counted port node" --nodes 500 --engine tg --missing-post

# Bad arguments: a message naming the option, exit 2.
bad() { # NAME WANT ARGS...
  local name=$1 want=$2 out rc; shift 2
  out=$("$tree" "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$want" <<<"$out"; then pass "$name"; else fail "$name" "exit $rc, want: $want" "$out"; fi
}
bad "bad: --nodes 0" "--nodes: at least 1" --nodes 0
bad "bad: --nodes abc" "--nodes: not a number" --nodes abc
bad "bad: --nodes over the limit" "--nodes: not a number up to the limit" --nodes 99999999999
bad "bad: unknown option" "unknown option --frob" --frob
bad "bad: --engine" "--engine warp: oracle, place, softswitch, sim or tg" --engine warp
bad "bad: --config" "configuration nowhere" --config nowhere
bad "bad: sim without --fw" "--engine sim needs --fw" --engine sim
finish
