#!/usr/bin/env bash
# tests/pcprof/run.sh: tsim --engine fast --pc-profile (sim/fast/fast_pcprof.c)
# and build/bin/pcprof (sim/pcprof.c; sim/README.md "Profile per pc").
# tests/pcprof/loops.S runs a loop of plain operations (which the engine
# runs back to back: core_batch) and a loop through memory (one issue at a
# time: issue) of known trip counts in every thread, every other
# instruction once: each pc's count must be exactly that (16 threads per
# core), each core's counts must add up to its retired instructions and
# the profile's to the run's; the same with the per-cycle schedule alone
# (TSIM_FAST_QUANTUM=0) and through TSIM_PC_PROFILE; with a --preload file
# that gives core pair 1 another trip count; over 2 MPI ranks (a box).
# Then pcprof's reports on these (goldens) and its errors (goldens), and
# the cycle model's refusal. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim pcprof=$BUILD/bin/pcprof gold=tests/pcprof/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
IT1=100 IT1B=57 IT2=30 T=16

# build NAME LAYOUT ITERS: $tmp/NAME.elf, loops.S linked for LAYOUT (tile, board).
build() {
  printf 'INCLUDE %s\nINCLUDE %s\n' "$PWD/$BUILD/gen/boards/$2/tinsel.ld" "$PWD/tests/tsim/link.ld" >"$tmp/$2.ld"
  riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -x assembler-with-cpp \
    -DITERS="$3" -DITERS2=$IT2 -T "$tmp/$2.ld" tests/pcprof/loops.S -o "$tmp/$1.elf" 2>"$tmp/$1.log"
}
if ! build a tile $IT1 || ! build b tile $IT1B || ! build box board $IT1; then
  fail "tests/pcprof/loops.S builds" "$(cat "$tmp"/*.log | head -n 5)"
  finish
  exit
fi
# sym NAME: the address of loops.S's symbol NAME, decimal.
sym() { riscv64-unknown-elf-nm -t d "$tmp/a.elf" | awk -v n="$1" '$3 == n { print $1 + 0 }'; }
L1=$(sym loop1) L1E=$(sym loop1_end) L2=$(sym loop2) L2E=$(sym loop2_end)

# counts PROFILE STDERR [B_CORES_LO B_CORES_HI]: every row's count is what
# loops.S must execute (loop 1 ITERS times, IT1B on cores B_CORES_LO..HI),
# each core's counts add up to its retired instructions (STDERR, when
# tsim printed them per core), the rows to the run's total. Prints what is
# wrong, nothing when all is right.
counts() {
  awk -v l1=$L1 -v l1e=$L1E -v l2=$L2 -v l2e=$L2E -v t=$T -v i1=$IT1 -v i1b=$IT1B -v i2=$IT2 \
      -v blo="${3:--1}" -v bhi="${4:--1}" '
    function hex(s,   v, i, d) { v = 0; for (i = 3; i <= length(s); i++) { d = index("0123456789abcdef", substr(s, i, 1)); v = v * 16 + d - 1 }; return v }
    FNR == NR {  # the profile
      if (/^pc-profile/) { blocks++; next }
      if (/^#/ || NF == 0) next
      pc = hex($2); it = ($1 >= blo && $1 <= bhi) ? i1b : i1
      want = (pc >= l1 && pc <= l1e) ? t * it : (pc >= l2 && pc <= l2e) ? t * i2 : t
      if ($3 != want) { printf "core %d pc %s: %d, not %d\n", $1, $2, $3, want; bad++ }
      core[$1] += $3; sum += $3; rows++
      next
    }
    /^tsim: core [0-9]+: retired / { c = $3; sub(":", "", c); if (core[c] != $5) { printf "core %d: rows add up to %d, tsim says retired %d\n", c, core[c], $5; bad++ }; percore++ }
    /^tsim: total: retired / { total = $4 }
    END {
      if (!rows) print "no rows"
      if (sum != total) printf "the rows add up to %d, tsim says retired %d\n", sum, total
    }' "$1" "$2"
}
# run LABEL PROFILE [TSIM ARGS...]: a fast run into PROFILE (fresh).
run() {
  local label=$1 prof=$2; shift 2
  rm -f "$prof"
  "$tsim" --engine fast --max-cycles 2000000 "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ $rc -ne 0 ]; then fail "$label: tsim exit $rc" "$(tail -n 5 "$tmp/err")"; return 1; fi
}

if run "tile" "$tmp/a.prof" --config tile --elf "$tmp/a.elf" --all-threads --pc-profile "$tmp/a.prof"; then
  bad=$(counts "$tmp/a.prof" "$tmp/err")
  if [ -z "$bad" ]; then pass "tile: every pc's count exact, per core and in all $(sed -n 's/^tsim: total: retired \([0-9]*\).*/\1/p' "$tmp/err") instructions"
  else fail "tile: counts" "$bad"; fi
fi
if TSIM_FAST_QUANTUM=0 TSIM_PC_PROFILE="$tmp/q.prof" run "per cycle" "$tmp/q.prof" --config tile --elf "$tmp/a.elf" \
     --all-threads; then
  bad=$(counts "$tmp/q.prof" "$tmp/err")
  if [ -z "$bad" ] && diff <(grep -v '^#' "$tmp/a.prof" | cut -d' ' -f1-4) <(grep -v '^#' "$tmp/q.prof" | cut -d' ' -f1-4) >/dev/null &&
     cmp -s <(grep -v '^[#p]' "$tmp/a.prof") <(grep -v '^[#p]' "$tmp/q.prof"); then
    pass "per-cycle schedule alone (TSIM_FAST_QUANTUM=0), through TSIM_PC_PROFILE: the same rows"
  else fail "per-cycle schedule alone: rows differ" "$bad" "$(diff "$tmp/a.prof" "$tmp/q.prof" | head -n 10)"; fi
fi

# A preload file (sim/README.md "Preload"): one code record for core 2
# (pair 1: cores 2 and 3) rewriting set_iters to b.elf's word (li t0, IT1B).
le32() { printf "\\x$(printf %02x $(($1 & 255)))\\x$(printf %02x $(($1 >> 8 & 255)))\\x$(printf %02x $(($1 >> 16 & 255)))\\x$(printf %02x $(($1 >> 24 & 255)))"; }
{ printf 'TSIMPRE1'; le32 1; le32 2; le32 "$(sym set_iters)"; le32 4; le32 $((IT1B << 20 | 5 << 7 | 0x13)); } >"$tmp/b.pre"
if run "preload" "$tmp/pre.prof" --config tile --elf "$tmp/a.elf" --all-threads --preload "$tmp/b.pre" \
     --pc-profile "$tmp/pre.prof"; then
  bad=$(counts "$tmp/pre.prof" "$tmp/err" 2 3)
  if [ -z "$bad" ]; then pass "--preload: pair 1 ran its own image, every count exact"; else fail "--preload: counts" "$bad"; fi
fi

# Each run appends a block.
run "append" "$tmp/two.prof" --config tile --elf "$tmp/a.elf" --all-threads --pc-profile "$tmp/two.prof" &&
  "$tsim" --engine fast --config tile --elf "$tmp/a.elf" --all-threads --pc-profile "$tmp/two.prof" 2>/dev/null
check "a second run appends its block" test "$(grep -c '^pc-profile 1 ' "$tmp/two.prof")" = 2

# Over 2 MPI ranks: a block per rank, the rows of all 384 cores exact.
if command -v mpirun >/dev/null 2>&1; then
  if ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 TSIM_RANKS=2 \
       run "box over 2 MPI ranks" "$tmp/box.prof" --config box --elf "$tmp/box.elf" --all-threads --pc-profile "$tmp/box.prof"; then
    bad=$(counts "$tmp/box.prof" "$tmp/err")
    cores=$(grep -v '^[#p]' "$tmp/box.prof" | cut -d' ' -f1 | sort -u | wc -l)
    if [ -z "$bad" ] && [ "$(grep -c '^pc-profile' "$tmp/box.prof")" = 2 ] && [ "$cores" = 384 ]; then
      pass "box over 2 MPI ranks: a block per rank, $cores cores' counts exact, the total tsim's"
    else fail "box over 2 MPI ranks" "$bad" "$(grep '^[#p]' "$tmp/box.prof")" "$cores cores"; fi
  fi
else
  fail "mpirun for the MPI check" "no mpirun: make deps installs openmpi-bin (mk/packages.txt)"
fi

# The cycle model counts nothing per pc: refused before it starts.
"$tsim" --engine cycle --config tile --elf "$tmp/a.elf" --pc-profile "$tmp/c.prof" >/dev/null 2>"$tmp/err"; rc=$?
check "the cycle model refuses --pc-profile (exit $rc)" grep -q 'only the fast engine counts retired instructions per pc' "$tmp/err"
TSIM_PC_PROFILE="$tmp/c.prof" "$tsim" --config tile --elf "$tmp/a.elf" >/dev/null 2>"$tmp/err"; rc=$?
check "... and TSIM_PC_PROFILE (exit $rc)" test $rc = 64 -a ! -e "$tmp/c.prof"
"$tsim" --engine fast --config tile --elf "$tmp/a.elf" --pc-profile "$tmp/no/such/dir" >/dev/null 2>"$tmp/err"; rc=$?
check "an unwritable profile is refused before the run (exit $rc)" grep -q "pc-profile .*: cannot append to it" "$tmp/err"

# pcprof's reports (paths shown as TMP).
report() { "$pcprof" "$@" 2>&1 | sed "s|$tmp|TMP|g"; }
report "$tmp/a.prof" --elf "$tmp/a.elf" --pcs >"$tmp/r1"
check_golden "pcprof: one image, per pc" "$gold/tile.out" "$tmp/r1"
report "$tmp/pre.prof" --elf "$tmp/b.elf" --elf "$tmp/a.elf" >"$tmp/r2"
check_golden "pcprof: each core pair's image found by its code" "$gold/preload.out" "$tmp/r2"
report "$tmp/pre.prof" --elf "$tmp/a.elf:0-1" --elf "$tmp/b.elf:2-3" >"$tmp/r3"
check "pcprof: images by core ranges give the same report" diff <(sed 1d "$tmp/r2" | sort) <(sed 1d "$tmp/r3" | sort)
report "$tmp/pre.prof" --elf "$tmp/a.elf:0-3" >"$tmp/r4"
check_golden "pcprof: the wrong image for cores 2-3 (a word differs)" "$gold/wrong.out" "$tmp/r4"
report "$tmp/two.prof" --elf "$tmp/b.elf" --blocks 2 --top 1 >"$tmp/r5"
check_golden "pcprof: --blocks 2, the image of another trip count, --top 1" "$gold/blocks.out" "$tmp/r5"

# pcprof's errors: each case in tests/pcprof/errors/ against its golden.
for f in tests/pcprof/errors/*.prof; do
  n=$(basename "$f" .prof)
  (cd tests/pcprof/errors && "$PWD/../../../$pcprof" "$n.prof" --elf "$tmp/a.elf") >"$tmp/e.out" 2>&1; rc=$?
  sed "s|$tmp|TMP|g" "$tmp/e.out" >"$tmp/e.err"
  if [ $rc -eq 0 ]; then fail "pcprof: errors/$n.prof is refused" "exit 0"; continue; fi
  check_golden "pcprof: errors/$n.prof (exit $rc)" "tests/pcprof/errors/$n.err" "$tmp/e.err"
done
for c in "NOPROF" "$tmp/a.prof" "$tmp/a.prof --elf $tmp/a.elf:0-3 --elf $tmp/b.elf:3" "$tmp/a.prof --elf $tmp/a.elf --top 0" \
         "$tmp/a.prof --elf $tmp/a.elf --blocks 2" "$tmp/a.prof --elf $tmp/a.prof" "$tmp/a.prof --elf $tmp/none.elf"; do
  [ "$c" = NOPROF ] && c="--elf $tmp/a.elf"
  # shellcheck disable=SC2086
  "$pcprof" $c >/dev/null 2>>"$tmp/usage.raw"; echo "exit $?" >>"$tmp/usage.raw"
done
sed "s|$tmp|TMP|g" "$tmp/usage.raw" >"$tmp/usage.err"
check_golden "pcprof: usage and image errors" "$gold/usage.err" "$tmp/usage.err"
finish
