#!/usr/bin/env bash
# tests/meshgen/run.sh: meshgen's counts, line formats and geometry (through
# meshcheck), that meshcheck rejects broken meshes, and the command line.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
meshgen=$BUILD/bin/meshgen
meshcheck=$BUILD/bin/tests/meshcheck
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Header counts: nnode (3I+1)(J+1), ncell 3IJ, nedge 6IJ-2I-J, nbedge 4I+2J.
for ij in "20 30" "40 60" "2 1" "3 2" "7 5"; do
  set -- $ij
  f=$tmp/m_$1x$2.dat
  "$meshgen" "$1" "$2" -o "$f"
  want=" $(((3 * $1 + 1) * ($2 + 1))) $((3 * $1 * $2)) $((6 * $1 * $2 - 2 * $1 - $2)) $((4 * $1 + 2 * $2))"
  check "meshgen $1 $2 header" grep -qx -- "$want " <(head -1 "$f")
  check "meshgen $1 $2 geometry" "$meshcheck" "$f"
done
check "meshgen 20 30 header is 1891 1800 3530 140" grep -qx ' 1891 1800 3530 140 ' <(head -1 "$tmp/m_20x30.dat")

# Line formats, section by section (the trailing space included).
f=$tmp/m_20x30.dat
num='-?[0-9]+\.[0-9]{6}'
bad=$( (sed -n '2,1892p' "$f" | grep -Evx " $num $num " ; sed -n '1893,$p' "$f" | grep -Evx ' [0-9]+ [0-9]+ [0-9]+ [0-9]+ ') | head -5)
if [ -z "$bad" ]; then pass "meshgen line formats"; else fail "meshgen line formats" "$bad"; fi
check "meshgen 20 30 line count" test "$(wc -l <"$f")" -eq $((1 + 1891 + 1800 + 3530 + 140))
check "bedge bounds: 20 wall then 120 far field" test \
  "$(tail -140 "$f" | awk '{print $4}' | uniq -c | awk '{printf "%s:%s ", $1, $2}')" = "20:1 120:2 "
check "first cell is nodes 0 1 62 61" grep -qx ' 0 1 62 61 ' <(sed -n "$((1 + 1891 + 1))p" "$f")
check "first edge is the wake cut" grep -qx ' 0 1 59 0 ' <(sed -n "$((1 + 1891 + 1800 + 1))p" "$f")
# The trailing edge node maps from xb = 1 to (1, 0); the nose lies at x0 = -0.0077.
check "trailing edge node at (1, 0)" grep -qx ' 1.000000 -0.000000 ' <(sed -n "$((1 + 21))p" "$f")
check "leading edge node at (-0.0077, 0)" grep -qx ' -0.007700 0.000000 ' <(sed -n "$((1 + 31))p" "$f")
check "the same mesh twice" cmp -s "$f" <("$meshgen" 20 30 -o /dev/stdout)

# meshcheck must reject broken meshes (so the geometry checks can fail).
mutate() { # NAME AWK-PROGRAM: write a broken copy of the 20x30 mesh, expect rejection
  awk "$2" "$f" >"$tmp/bad.dat"
  if "$meshcheck" "$tmp/bad.dat" >"$tmp/out" 2>&1; then fail "meshcheck rejects $1" "$(cat "$tmp/out")"
  else pass "meshcheck rejects $1"; fi
}
cell1=$((1 + 1891 + 1)); edge1=$((1 + 1891 + 1800 + 1)); bedge1=$((edge1 + 3530))
mutate "a clockwise cell" "NR == $cell1 + 9 { print \" \"\$4\" \"\$3\" \"\$2\" \"\$1\" \"; next } 1"
mutate "swapped edge cells" "NR == $edge1 + 100 { print \" \"\$1\" \"\$2\" \"\$4\" \"\$3\" \"; next } 1"
mutate "reversed edge nodes" "NR == $edge1 + 7 { print \" \"\$2\" \"\$1\" \"\$3\" \"\$4\" \"; next } 1"
mutate "a missing edge" "NR == 1 { print \" 1891 1800 3529 140 \"; next } NR == $edge1 + 50 { next } 1"
mutate "a node out of range" "NR == $cell1 { print \" 0 1 62 1891 \"; next } 1"
mutate "a wrong bound" "NR == $bedge1 { \$4 = 2; print \" \"\$0\" \"; next } 1"
mutate "a reversed bedge" "NR == $bedge1 + 30 { print \" \"\$2\" \"\$1\" \"\$3\" \"\$4\" \"; next } 1"
mutate "a truncated file" "NR < $bedge1 + 10"
# The reader (apps/airfoil/airfoil_mesh.h, shared with airfoil and op2place) names the line.
awk "NR == $cell1 { print \" 0 1 62 1891 \"; next } 1" "$f" >"$tmp/bad.dat"
check "meshcheck names the line of a node out of range" grep -qxF \
  "meshcheck: $tmp/bad.dat:$cell1: error: cell 0: node 1891 is outside 0..1890 (nnode 1891)" <("$meshcheck" "$tmp/bad.dat" 2>&1)

# Command line: usage errors exit 2, I/O errors exit 1.
usage_error() { # NAME ARGS...
  local name=$1; shift
  local out rc
  out=$(cd "$tmp" && "$OLDPWD/$meshgen" "$@" 2>&1); rc=$?
  if [ $rc -eq 2 ] && grep -q '^usage: meshgen I J' <<<"$out"; then pass "meshgen usage: $name"
  else fail "meshgen usage: $name" "exit $rc" "$out"; fi
}
usage_error "no arguments"
usage_error "one argument" 20
usage_error "I of 1" 1 30
usage_error "zero J" 20 0
usage_error "non-numeric J" 20 3x
usage_error "negative J" 20 -30
usage_error "three numbers" 20 30 40
usage_error "-o without file" 20 30 -o
usage_error "unknown option" 20 30 --fast
usage_error "too large" 100000 100000
out=$("$meshgen" 2 2 -o "$tmp/no/such/dir.dat" 2>&1); rc=$?
check "meshgen unwritable output exits 1" test $rc -eq 1
check "meshgen unwritable output names the file" grep -q "cannot open $tmp/no/such/dir.dat" <<<"$out"
(cd "$tmp" && "$OLDPWD/$meshgen" 2 3) && check "meshgen default output new_grid.dat" \
  grep -qx ' 28 18 29 14 ' <(head -1 "$tmp/new_grid.dat")

finish
