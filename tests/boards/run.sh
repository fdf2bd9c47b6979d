#!/usr/bin/env bash
# tests/boards/run.sh: the boards/ suite: the reader's unit tests, boardgen's
# outputs against goldens, its usage errors, and that each generated view is
# accepted by its consumer (cc, ld, tclsh). Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
GEN=$BUILD/gen
gen=$BUILD/bin/boardgen
golden=tests/boards/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The reader's unit tests report their own counts; add them in.
out=$("$BUILD/bin/test_board_config" 2>&1)
rc=$?
echo "$out" | grep '^FAIL' | sed 's/^/    /'
if [[ $(echo "$out" | tail -n 1) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  T_PASS=$((T_PASS + BASH_REMATCH[1]))
  T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
  echo "unit tests: ${BASH_REMATCH[1]} checks passed, ${BASH_REMATCH[2]} failed"
  [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail test_board_config "exit $rc"
else
  fail test_board_config "exit $rc, no count line" "$out"
fi

# Golden outputs of one small configuration, one file per view.
for view in header:h sv:sv ld:ld; do
  opt=${view%%:*} ext=${view##*:}
  "$gen" --config tile --"$opt" "$tmp/tile.$ext"
  check_golden "golden tile.$ext" "$golden/tile.$ext" "$tmp/tile.$ext"
done
"$gen" --config core --config box --tcl "$tmp/small.tcl"
check_golden "golden small.tcl" "$golden/small.tcl" "$tmp/small.tcl"
check_golden "docs/tinsel-params.md is up to date (make board-docs)" docs/tinsel-params.md "$GEN/tinsel_params.md"

# Usage errors: exact message, exit 2; load errors exit 1.
expect() { # NAME WANT_RC WANT_FIRST_STDERR_LINE ARGS...
  local name=$1 want_rc=$2 want=$3 got rc; shift 3
  got=$("$gen" "$@" 2>&1 >/dev/null | head -n 1); "$gen" "$@" >/dev/null 2>&1; rc=$?
  if [ "$rc" -eq "$want_rc" ] && [ "$got" = "$want" ]; then pass "$name"
  else fail "$name" "exit $rc (want $want_rc)" "got:  $got" "want: $want"; fi
}
expect "no arguments" 2 "boardgen: nothing to do"
expect "unknown option" 2 "boardgen: unknown option --frob" --frob x
expect "missing value" 2 "boardgen: missing value for --config" --config
expect "header needs one config" 2 "boardgen: --header, --sv, --ld and --get need exactly one --config" --config core --config tile --header -
expect "unknown configuration" 1 "boardgen: unknown configuration \"nosuch\" (no $PWD/boards/nosuch.cfg)" --config nosuch --get Kind
expect "unknown key" 1 "boardgen: tile: unknown key \"Nope\"" --config tile --get Nope
# Hostile input (docs/limits.md "boardgen"): exit 1 and one clear line.
printf 'include board\nHasBridge = %s1%s\n' "$(printf '(%.0s' $(seq 300))" "$(printf ')%.0s' $(seq 300))" > "$tmp/deep.cfg"
expect "nesting deeper than 256" 1 "boardgen: $tmp/deep.cfg:2:269: error: HasBridge: expression nested more than 256 deep" --config "$tmp/deep.cfg" --get Kind
printf 'include board\nregion DRAMUpper -4 16 "upper"\n' > "$tmp/negbase.cfg"
expect "negative region base" 1 "boardgen: $tmp/negbase.cfg:2:18: error: region DRAMUpper: base -4 is negative" --config "$tmp/negbase.cfg" --get Kind
printf 'include board\nregion DRAMUpper 0 {0 - 16} "upper"\n' > "$tmp/negsize.cfg"
expect "negative region size" 1 "boardgen: $tmp/negsize.cfg:2:21: error: region DRAMUpper: size -16 is negative" --config "$tmp/negsize.cfg" --get Kind
: > "$tmp/empty.cfg"
expect "empty configuration" 1 "boardgen: $tmp/empty.cfg: error: no entries (an empty configuration)" --config "$tmp/empty.cfg" --get Kind
mkdir "$tmp/adir"
printf 'include %s\n' "$tmp/adir" > "$tmp/incdir.cfg"
expect "include of a directory" 1 "boardgen: $tmp/incdir.cfg:1: error: cannot include $tmp/adir: it is a directory" --config "$tmp/incdir.cfg" --get Kind
printf 'include /dev/zero\n' > "$tmp/inczero.cfg"
expect "include of /dev/zero" 1 "boardgen: $tmp/inczero.cfg:1: error: cannot include /dev/zero: not a regular file" --config "$tmp/inczero.cfg" --get Kind
expect "configuration /dev/zero" 1 "boardgen: /dev/zero: error: not a regular file" --config /dev/zero --get Kind
expect "configuration a directory" 1 "boardgen: $tmp/adir/: error: it is a directory" --config "$tmp/adir/" --get Kind
head -c 1048577 /dev/zero | tr '\0' '#' > "$tmp/huge.cfg"
printf 'include huge.cfg\n' > "$tmp/inchuge.cfg"
expect "include of a file over 1 MiB" 1 "boardgen: $tmp/inchuge.cfg:1: error: cannot include $tmp/huge.cfg: the file is 1048577 bytes, over the 1048576-byte limit for a configuration file" --config "$tmp/inchuge.cfg" --get Kind
for i in $(seq 0 17); do printf 'include inc%d.cfg\n' $((i + 1)) > "$tmp/inc$i.cfg"; done
printf 'include board\n' > "$tmp/inc18.cfg"
expect "includes nested more than 16 deep" 1 "boardgen: $tmp/inc15.cfg:1: includes nested more than 16 deep" --config "$tmp/inc0.cfg" --get Kind
expect "at most 64 configurations" 2 "boardgen: at most 64 --config options" $(for i in $(seq 65); do printf -- '--config core '; done) --tcl /dev/null
check "get prints a value" test "$("$gen" --config cluster --get NumThreads)" = 49152
check "list names the configurations" test "$("$gen" --list | tr '\n' ' ')" = "board box bridge cluster core de10pro de5net tile "

# Each consumer accepts its view.
cat > "$tmp/use.c" <<'C'
#include "tinsel_config.h"
_Static_assert(TinselThreadsPerBoard == 1024, "threads");
_Static_assert(TinselCsrHartId == 0xf14, "csr");
_Static_assert(TinselMemDRAMInterleavedBase == 0xc0000000u, "region");
int main(void) { return TinselLogThreadsPerCore != 4; }
C
check "C header compiles" cc -std=c11 -Wall -Werror -I"$GEN" "$tmp/use.c" -o "$tmp/use"
check "C header in assembler" sh -c "printf '#include \"tinsel_config.h\"\nli a0, TinselHostId\n' > '$tmp/a.S' && cc -E -I'$GEN' '$tmp/a.S' | grep -q 'li a0, 0x20000'"
if command -v ld >/dev/null; then
  printf 'INCLUDE %s\nSECTIONS { .text : { *(.text*) } > instrs .data : { *(.data* .bss* .eh_frame* .comment*) } > globals }\n' "$PWD/$GEN/tinsel.ld" > "$tmp/app.ld"
  echo 'void f(void) {}' > "$tmp/f.c"
  check "linker accepts tinsel.ld" sh -c "cc -c '$tmp/f.c' -o '$tmp/f.o' && ld -e f -T '$tmp/app.ld' '$tmp/f.o' -o '$tmp/out'"
fi
check "Tcl reads boards.tcl" tclsh tests/boards/read_dict.tcl "$GEN/boards.tcl"

finish
