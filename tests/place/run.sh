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
expect() { # NAME WANT_RC WANT_STDERR_SUBSTRING ARGS...
  local name=$1 want_rc=$2 want=$3 got rc; shift 3
  got=$("$op2place" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq "$want_rc" ] && [[ $got == *"$want"* ]]; then pass "$name"
  else fail "$name" "exit $rc (want $want_rc)" "got:  $got" "want: $want"; fi
}
expect "op2place without arguments" 2 "op2place: --config and --mesh are required"
expect "op2place unknown option" 2 "op2place: unknown or incomplete option --frob" --frob
expect "op2place unknown configuration" 1 'unknown configuration "nosuch"' --config nosuch --mesh "$mesh"
expect "op2place missing mesh" 1 "nosuch.dat: cannot open" --config tile --mesh nosuch.dat
expect "op2place too many groups for a tile" 1 "4 code groups of device types, but configuration 'tile' has only 2 core pairs" --config tile --mesh "$mesh"
finish
