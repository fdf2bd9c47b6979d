#!/usr/bin/env bash
# bench/place.sh: place and route airfoil's graph for the standard
# 720000-cell mesh (meshgen 400 600) on the 48-board 'cluster'
# configuration: time to read and build the graph, to place it (METIS, by
# boards, mailboxes and threads), to route it (keys, multicasts, router
# tables) and to write every thread image, and the peak memory. Then the
# same with the naive round-robin placement, for the cut. No simulation.
# Reads BUILD (default build); needs $BUILD/bin/op2place and meshgen.
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$BUILD/bin
mesh=$BUILD/meshes/naca_400x600.dat
config=${CONFIG:-cluster}
mkdir -p "$(dirname "$mesh")"
if [ ! -s "$mesh" ]; then
  echo "bench: generating $mesh (meshgen 400 600)"
  "$bin/meshgen" 400 600 -o "$mesh" || { fail "meshgen 400 600"; finish; exit 1; }
fi

# run NAME ARGS...: op2place under /usr/bin/time -v when there is one
run() {
  local name=$1 log; shift
  log=$(mktemp)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -v "$bin/op2place" "$@" >"$log" 2>"$log.time"
  else
    "$bin/op2place" "$@" >"$log" 2>"$log.time"
  fi
  local rc=$?
  cat "$log"
  grep -E 'Elapsed \(wall|Maximum resident' "$log.time" | sed 's/^\s*/    /'
  if [ $rc -eq 0 ]; then pass "$name"; else fail "$name" "$(cat "$log.time")"; fi
  rm -f "$log" "$log.time"
}

run "METIS placement and routes on $config" --config "$config" --mesh "$mesh" --stats --images
run "round-robin placement and routes on $config" --config "$config" --mesh "$mesh" --stats --round-robin
# The code groups the OP2 runtime gives airfoil sp ({nodes, cells}, {edges,
# bedges}): two types a group, each balanced over the threads on its own.
run "METIS placement with the OP2 runtime's groups on $config" --config "$config" --mesh "$mesh" --stats --op2-groups
finish
