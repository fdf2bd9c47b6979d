#!/usr/bin/env bash
# tests/build/fresh.sh: the README's commands on a machine without the
# packages of mk/packages.txt (issue 13). Every program those packages
# install is hidden from PATH, then:
#  1. parsing the makefiles runs none of them (each is replaced by a shim
#     that logs its name: the log must stay empty);
#  2. make -n sim and make -n test with a stand-in for mk/deps.sh that
#     "installs" them (puts them back on PATH): the commands make would run
#     must carry the flags the real tools give (libxml2's include directory
#     from pkg-config, no Verilator include worked out as "/include"), and
#     must be the same commands as on a machine that had the tools all along.
# On the main of 2026-11-24 (sim/rules.mk's VL_INCLUDE := $(shell verilator
# ...) and the Makefile's pkg-config) checks 1 and 2 fail.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
# Run by make test, whose make exports its flags and command-line variables
# to the environment (OP2_DEPS_DONE=1 among them): these makes start afresh.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES OP2_DEPS_DONE SAN BUILD SAN_BUILD

make_bin=$(command -v make)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The programs the packages install, by name (a transitional package's:
# those of the packages it depends on; pkg-config's are pkgconf's).
hidden=$tmp/hidden.txt
programs() { dpkg -L "$1" 2>/dev/null | grep -E '^(/usr)?/s?bin/[^/]+$' | xargs -r -n1 basename; }
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' mk/packages.txt | awk '{print $1}' | while read -r p; do
  programs "$p"
  if dpkg-query -W -f='${Description}' "$p" 2>/dev/null | head -n 1 | grep -q transitional; then
    apt-cache depends --important "$p" 2>/dev/null | awk '$1 == "Depends:" { print $2 }' |
      while read -r d; do programs "$d"; done
  fi
done | sort -u > "$hidden"
if ! grep -qx verilator "$hidden" || ! grep -qx pkg-config "$hidden"; then
  fail "packages' programs listed" "dpkg -L found no verilator or pkg-config: run make deps first" "$(cat "$hidden")"
  finish; exit
fi

# bin/: everything on PATH but the hidden programs (first on PATH wins);
# real/: the hidden ones, as they would be once installed.
mkdir -p "$tmp/bin" "$tmp/real" "$tmp/logbin"
declare -A is_hidden=() seen=()
while read -r n; do is_hidden[$n]=1; done < "$hidden"
IFS=: read -r -a dirs <<< "$PATH"
for d in "${dirs[@]}"; do
  [ -d "$d" ] || continue
  for f in "$d"/*; do
    n=${f##*/}
    [ -z "${seen[$n]:-}" ] && [ -x "$f" ] && [ ! -d "$f" ] || continue
    seen[$n]=1
    if [ -n "${is_hidden[$n]:-}" ]; then echo "$f" >> "$tmp/real.list"; else echo "$f" >> "$tmp/bin.list"; fi
  done
done
(cd "$tmp/real" && xargs -r -d '\n' ln -s -t . < "$tmp/real.list")
(cd "$tmp/bin" && xargs -r -d '\n' ln -s -t . < "$tmp/bin.list")
# logbin/: each hidden program as a shim that logs its name and runs it.
for f in "$tmp/real"/*; do
  n=${f##*/}
  printf '#!/bin/sh\necho "%s $*" >> "%s"\nexec "%s" "$@"\n' "$n" "$tmp/calls" "$(readlink "$f")" > "$tmp/logbin/$n"
  chmod +x "$tmp/logbin/$n"
done

# 1. Parsing. make -n clean parses every rules.mk and runs nothing but the
#    (printed) rm; so does the second stage's parse (OP2_DEPS_DONE=1).
: > "$tmp/calls"
for v in "" OP2_DEPS_DONE=1; do
  PATH="$tmp/logbin:$tmp/bin" "$make_bin" -n --no-print-directory BUILD="$tmp/b" $v clean > "$tmp/parse.out" 2>&1 ||
    fail "parse${v:+ ($v)}: make -n clean" "$(cat "$tmp/parse.out")"
done
if [ -s "$tmp/calls" ]; then
  fail "parsing the makefiles runs no program from mk/packages.txt" "$(sort -u "$tmp/calls")"
else
  pass "parsing the makefiles runs no program from mk/packages.txt"
fi

# 2. The first run. The stand-in for mk/deps.sh puts the programs back.
cat > "$tmp/deps.sh" <<EOF
#!/bin/sh
for f in "$tmp/real"/*; do ln -sf "\$(readlink "\$f")" "$tmp/bin/\${f##*/}"; done
echo "deps (stand-in): installed \$(ls "$tmp/real" | wc -l) programs"
EOF
chmod +x "$tmp/deps.sh"
xml_cflags=$(pkg-config --cflags libxml-2.0)
hdf5_cflags=$(pkg-config --cflags hdf5)
for goal in sim test; do
  # Fresh each time: the programs hidden again.
  for f in "$tmp/real"/*; do rm -f "$tmp/bin/${f##*/}"; done
  out=$tmp/$goal.fresh
  if ! PATH="$tmp/bin" "$make_bin" -n --no-print-directory BUILD="$tmp/b" SAN_BUILD="$tmp/san" DEPS_SCRIPT="$tmp/deps.sh" $goal > "$out" 2>&1; then
    fail "make -n $goal on a fresh machine" "$(tail -n 20 "$out")"
    continue
  fi
  if grep -qE -- '-I/include( |/|$)' "$out"; then
    fail "make -n $goal: no include directory worked out without its tool" "$(grep -oE -- '-I/include[^ ]*' "$out" | sort -u)"
  else
    pass "make -n $goal: no include directory worked out without its tool"
  fi
  # Every compile of op2c's sources (which include libxml2's headers) carries
  # pkg-config's flags.
  n_cc=$(grep -cE -- '-c -o [^ ]*/obj/compiler/[a-z_]+\.o' "$out")
  n_xml=$(grep -E -- '-c -o [^ ]*/obj/compiler/[a-z_]+\.o' "$out" | grep -cF -- "$xml_cflags")
  if [ "$n_cc" -gt 0 ] && [ "$n_cc" -eq "$n_xml" ]; then
    pass "make -n $goal: op2c's compiles carry pkg-config's libxml2 flags ($n_xml)"
  else
    fail "make -n $goal: op2c's compiles carry pkg-config's libxml2 flags" "$n_xml of $n_cc compiles have '$xml_cflags'"
  fi
  # libop2_hdf5 (host/hdf5) and meshgen compile with pkg-config's libhdf5 flags.
  n_h5=$(grep -E -- 'host/hdf5/op_hdf5\.c|apps/meshgen/h5\.c' "$out" | grep -cF -- "$hdf5_cflags")
  if [ "$n_h5" -ge 2 ]; then pass "make -n $goal: libop2_hdf5 and meshgen carry pkg-config's libhdf5 flags"
  else fail "make -n $goal: libop2_hdf5 and meshgen carry pkg-config's libhdf5 flags" "$n_h5 commands have '$hdf5_cflags'"; fi
  # The same commands as on a machine that had the packages all along.
  PATH="$tmp/real:$tmp/bin" "$make_bin" -n --no-print-directory BUILD="$tmp/b" SAN_BUILD="$tmp/san" DEPS_SCRIPT="$tmp/deps.sh" $goal 2>&1 |
    grep -v '^deps' > "$tmp/$goal.had"
  if diff <(grep -v '^deps' "$out") "$tmp/$goal.had" > "$tmp/$goal.diff"; then
    pass "make -n $goal: the same commands as with the packages present"
  else
    fail "make -n $goal: the same commands as with the packages present" "$(head -n 20 "$tmp/$goal.diff")"
  fi
done

# make -n installs nothing: the real mk/deps.sh gets --dry-run.
PATH="$tmp/bin" "$make_bin" -n --no-print-directory BUILD="$tmp/b" deps > "$tmp/deps.out" 2>&1
if grep -q -- '--dry-run' "$tmp/deps.out" && grep -q 'dry run\|all [0-9]* packages present\|not a Debian' "$tmp/deps.out"; then
  pass "make -n deps: mk/deps.sh --dry-run"
else
  fail "make -n deps: mk/deps.sh --dry-run" "$(tail -n 5 "$tmp/deps.out")"
fi
finish
