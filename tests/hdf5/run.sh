#!/usr/bin/env bash
# tests/hdf5/run.sh: OP2's HDF5 calls (host/hdf5). airfoil
# declared from a meshgen-made .h5 (tests/hdf5/airfoil_hdf5.cpp) must print
# the rms and write the q of airfoil_dp on the .dat of the same mesh; its
# op_dump_to_hdf5 file (plus op_write_const_hdf5) must carry a run on to
# the same q as one run of all the iterations; files that do not match the
# declarations stop with the errors in bad.txt. The same comparison on the
# tinsel target's functional engine. Reads BUILD (default build) and TEST_CFLAGS.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
bin=$(cd "$BUILD/bin" && pwd)
here=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

check "meshgen 20 30 -o m.dat" "$bin/meshgen" 20 30 -o m.dat
check "meshgen 20 30 -o m.h5" "$bin/meshgen" 20 30 -o m.h5
check "m.h5 is an HDF5 file" test "$(head -c 8 m.h5 | od -An -c | tr -d ' ')" = '211HDF\r\n032\n'

opts=(--iters 20 --print-every 5 --digits 17)
"$bin/airfoil_dp" --mesh m.dat "${opts[@]}" --output q_dat.txt >dat.out 2>&1 || fail "airfoil_dp on m.dat" "$(tail -3 dat.out)"
"$bin/tests/hdf5/airfoil_hdf5" --mesh m.h5 "${opts[@]}" --output q.txt >h5.out 2>&1 || fail "airfoil_hdf5 on m.h5" "$(tail -3 h5.out)"
grep -E '^ [0-9]+  [-+0-9.e]+ $' dat.out >dat.rms
grep -E '^ [0-9]+  [-+0-9.e]+ $' h5.out >h5.rms
check "airfoil from m.dat prints 4 rms lines" test "$(wc -l <dat.rms)" -eq 4
check_golden "airfoil from m.h5 prints the rms of airfoil from m.dat" dat.rms h5.rms
check_golden "airfoil from m.h5 ends with the q of airfoil from m.dat" q_dat.txt q.txt

# 10 iterations, dump, 10 more from the dump: the q of 20 in one run.
"$bin/tests/hdf5/airfoil_hdf5" --mesh m.h5 --iters 10 --output q10.txt >/dev/null 2>&1
"$bin/tests/hdf5/airfoil_hdf5" --mesh q10.txt.dump.h5 --iters 10 --output q1010.txt >dump.out 2>&1 ||
  fail "airfoil_hdf5 on its own op_dump_to_hdf5 file" "$(tail -3 dump.out)"
check_golden "op_dump_to_hdf5 + 10 iterations gives the q of 20" q.txt q1010.txt

# The tinsel target (functional engine): the HDF5 program and airfoil dp from
# the .dat, both built here (dp: the enlarged-imem build), print the same.
export ASAN_OPTIONS=detect_leaks=0
tinsel_ok=1
for p in "h5t tests/hdf5/airfoil_hdf5.cpp -I $here/apps/airfoil -I $here/apps/airfoil/dp" "datt apps/airfoil/dp/airfoil.cpp"; do
  set -- $p
  exe=$1 src=$2
  shift 2
  if ! "$bin/op2c" --target tinsel --imem enlarged -O2 ${TEST_CFLAGS:-} "$@" --gen-dir "$exe.gen" -o "$exe" "$here/$src" \
       >"$exe.build" 2>&1; then
    fail "$src builds for the tinsel target" "$(grep -v warning "$exe.build" | tail -5)"
    tinsel_ok=0
  fi
done
if [ $tinsel_ok = 1 ]; then
  ./datt --mesh m.dat "${opts[@]}" --output qt_dat.txt 2>&1 | grep -E '^ [0-9]+  [-+0-9.e]+ $' >datt.rms
  ./h5t --mesh m.h5 "${opts[@]}" --output qt.txt 2>&1 | grep -E '^ [0-9]+  [-+0-9.e]+ $' >h5t.rms
  check "tinsel: airfoil from m.dat prints 4 rms lines" test "$(wc -l <datt.rms)" -eq 4
  check_golden "tinsel: airfoil from m.h5 prints the rms of airfoil from m.dat" datt.rms h5t.rms
  check_golden "tinsel: airfoil from m.h5 ends with the q of airfoil from m.dat" qt_dat.txt qt.txt
fi
check "op_decl_set_hdf5_infer_size reads a set size from a dataset's rows" \
  grep -qx "infer: edges2 has 3530 elements, edges 3530" <("$bin/tests/hdf5/hdf5_bad" infer m.h5 2>&1)

# op2c says which file is missing when the build has no libop2_hdf5.
mkdir -p pfx/lib pfx/include
cp "$bin/../lib/libop2_seq.a" pfx/lib/
cp "$bin/../include/"*.h pfx/include/
rm -f pfx/include/op_hdf5.h
OP2C_PREFIX=$PWD/pfx "$bin/op2c" --target seq -I "$here/apps/airfoil" -I "$here/apps/airfoil/dp" -o nolib \
  "$here/tests/hdf5/airfoil_hdf5.cpp" >nolib.out 2>&1
check "op2c names the missing libop2_hdf5" grep -qxF \
  "op2c: error: the program calls op_hdf5.h but $PWD/pfx/lib/libop2_hdf5.a or $PWD/pfx/lib/op2_hdf5.libs is missing (build them with 'make', or set OP2C_PREFIX)" nolib.out

# Files that do not match: one op2 error line each, exit 1, never a crash;
# what OP2 lets through (data of another type: converted; a missing map,
# dat or const: NULL, or the value kept) a warning line each, exit 0.
"$bin/meshgen" 2 1 -o m.h5
head -c 3000 m.h5 >short.h5
: >bad.out
for c in "set missing.h5 1" "set m.dat 1" "set short.h5 1" "noset m.h5 1" "group q.txt.q.h5 1" "map m.h5 1" \
         "const m.h5 1" "dattype m.h5 0" "datclass m.h5 0" "missing m.h5 0"; do
  set -- $c
  "$bin/tests/hdf5/hdf5_bad" "$1" "$2" >>bad.out 2>&1
  rc=$?
  check "hdf5_bad $1 $2 exits $3" test $rc -eq "$3"
done
check_golden "bad HDF5 files: errors and warnings name the file, the dataset and what is wrong" "$here/tests/hdf5/bad.txt" bad.out

cd "$here"
finish
