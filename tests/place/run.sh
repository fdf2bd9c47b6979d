#!/usr/bin/env bash
# tests/place/run.sh: libop2_place's suite: the unit tests (placement on a
# synthetic grid and on the 1800-cell airfoil mesh, routes replayed through
# an independent router-table decoder, images, errors), then op2place's
# command line. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
mesh=$BUILD/meshes/naca_20x30.dat
op2place=$BUILD/bin/op2place

# The unit tests print their own "N passed, N failed"; add them in.
out=$("$BUILD/bin/tests/place_test" "$mesh" 2>&1)
rc=$?
echo "$out" | grep -v '^[0-9]* passed' | sed 's/^/    /'
if [[ $(echo "$out" | tail -n 1) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  T_PASS=$((T_PASS + BASH_REMATCH[1]))
  T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
  [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail place_test "exit $rc"
else
  fail place_test "exit $rc, no count line"
fi

# The command line: a run, its usage errors and a resource error.
out=$("$op2place" --config box --mesh "$mesh" --stats --images 2>&1)
check "op2place places and routes the 1800-cell mesh on a box" grep -q '^routes: .* key sends' <<<"$out"
check "op2place --stats prints the cut" grep -q '^METIS *edges 43480:' <<<"$out"
# Every type evenly over its group's threads: with all four sets in one group
# (7.2 devices a thread), balancing the group's count alone gave one thread
# four cells and another one, and METIS's tolerance five edges where the
# mean is 3.45; with the OP2 runtime's groups for airfoil sp, 1 to 7 cells
# and 6 to 8 edges (mean 6.89). Now no thread holds more than ceil(mean)
# of a type on a board.
declare -A balance
for groups in --one-group --op2-groups; do
  balance[$groups]=$("$op2place" --config board --mesh "$mesh" --stats $groups 2>&1 | grep '^balance')
  check "op2place $groups: no thread over ceil(mean) of any type" awk '
    /^balance/ { seen = 1; sub(/^[^:]*: /, ""); n = split($0, item, "; ")
                 for (i = 1; i <= n; i++) { split(item[i], f, " "); split(f[2], r, "-")
                   mean = f[4] + 0; c = int(mean); if (c < mean) c++
                   if (r[2] + 0 > c) { print item[i]; bad = 1 } } }
    END { exit bad || !seen }' <<<"${balance[$groups]}"
done
check "op2place --stats prints each type's balance" grep -q 'cells 1-2 (mean 1.76 over 1024 threads)' \
  <<<"${balance[--one-group]}"
check "op2place --op2-groups: {nodes, cells} and {edges, bedges}, 512 threads each" \
  grep -q 'nodes .* over 512 threads); edges .* over 512 threads); bedges .* over 512 threads); cells 3-4 (mean 3.52 over 512 threads)' \
  <<<"${balance[--op2-groups]}"
expect() { # NAME WANT_RC WANT_STDERR_SUBSTRING ARGS...
  local name=$1 want_rc=$2 want=$3 got rc; shift 3
  got=$("$op2place" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ $got == *"$want"* ]]; then pass "$name"
  else fail "$name" "exit $rc (want $want_rc)" "got:  $got" "want: $want"; fi
}
expect "op2place without arguments" 2 "op2place: --config and --mesh are required"
expect "op2place unknown option" 2 "op2place: unknown or incomplete option --frob" --frob
expect "op2place unknown configuration" 1 'unknown configuration "nosuch"' --config nosuch --mesh "$mesh"
expect "op2place missing mesh" 1 "op2place: nosuch.dat: error: cannot open the mesh: No such file or directory" --config tile --mesh nosuch.dat
expect "op2place too many groups for a tile" 1 "4 code groups of device types, but configuration 'tile' has only 2 core pairs" --config tile --mesh "$mesh"

# Hostile meshes (apps/airfoil/airfoil_mesh.h, docs/limits.md "Meshes"): refused before
# anything is allocated for them, with the file, the line and the limit.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad_mesh() { # NAME CONTENT WANT_STDERR
  printf "%b" "$2" >"$tmp/$1.dat"
  expect "op2place refuses a mesh with $1" 1 "op2place: $tmp/$1.dat:$3" --config box --mesh "$tmp/$1.dat"
}
bad_mesh "a count of 2^31-1" " 2147483647 1 0 0 \n" "1: error: header: nnode is 2147483647: expected an integer in 1..100000000"
bad_mesh "counts the file cannot hold" " 100000000 1 0 0 \n 0 0 \n" "1: error: the header's 100000000 nodes, 1 cells, 0 edges and 0 boundary edges need at least 400000015 bytes, but the file has 24"
bad_mesh "a NaN coordinate" " 4 1 0 0 \n 0 0 \n 1 0 \n nan 1 \n 0 1 \n 0 1 2 3 \n" "4: error: node 2: coordinate x is nan: coordinates must be finite"
bad_mesh "an infinite coordinate" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1e999 \n 0 1 \n 0 1 2 3 \n" "4: error: node 2: coordinate y is 1e999: coordinates must be finite"
bad_mesh "a node index out of range" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 7 \n" "6: error: cell 0: node 7 is outside 0..3 (nnode 4)"
bad_mesh "a cell index out of range" " 4 1 1 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 3 \n 0 1 0 -1 \n" "7: error: edge 0: cell -1 is outside 0..0 (ncell 1)"
bad_mesh "an unknown boundary code" " 4 1 0 1 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 3 \n 0 1 0 3 \n" "7: error: boundary edge 0: code 3 is outside 1..2 (1 wall, 2 far field)"
bad_mesh "a short row" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 \n" "6: error: cell 0: expected 4 numbers on the line, found 3"
bad_mesh "a row too long" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 2 \n 0 1 2 3 \n" "5: error: node 3: more than 2 numbers on the line"
bad_mesh "a word for a number" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 two 3 \n" "6: error: cell 0: node 'two' is not an integer"
bad_mesh "data after the last row" " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 3 \n\n 9 \n" "8: error: data after the last boundary edge (the header says 4 nodes, 1 cells, 0 edges, 0 boundary edges)"
bad_mesh "a truncated file" " 4 2 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 1 2 3 \n                  \n" "8: error: the file ends before cell 1 (the header says 2)"
expect "op2place refuses a directory as its mesh" 1 "op2place: $tmp: error: is a directory, not a mesh file" --config box --mesh "$tmp"
expect "op2place refuses a device as its mesh" 1 "op2place: /dev/zero: error: not a regular file" --config box --mesh /dev/zero
printf " 4 1 0 0 \n 0 0 \n 1 0 \n 1 1 \n 0 1 \n 0 3 2 1 \n" >"$tmp/cw.dat"
expect "op2place warns about a clockwise cell" 0 "$tmp/cw.dat:6: warning: cell 0 (nodes 0 3 2 1) is clockwise or folded (negative area)" --config tile --mesh "$tmp/cw.dat"
finish
