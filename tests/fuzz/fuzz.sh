#!/usr/bin/env bash
# tests/fuzz/fuzz.sh NAME...: make fuzz. Runs each harness for FUZZ_SECONDS
# (default 60) on $BUILD/fuzz/NAME.corpus, seeded from tests/fuzz/NAME/corpus/
# and the tree's files tests/fuzz/NAME/seeds names;
# crashes, hangs and leaks go to $BUILD/fuzz/NAME.artifacts/. Prints each
# harness's executions, coverage and findings, and a total line; exits 1
# when anything was found.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
. tests/fuzz/seeds.sh
secs=${FUZZ_SECONDS:-60}
found=0
printf '%-12s %8s %12s %10s %8s %8s\n' harness seconds executions exec/s cov findings
for name in "$@"; do
  exe=$BUILD/fuzz/$name corpus=$BUILD/fuzz/$name.corpus art=$BUILD/fuzz/$name.artifacts
  mkdir -p "$corpus" "$art"
  seeds_into "$name" "$BUILD/fuzz/$name.seeds"
  log=$BUILD/fuzz/$name.log
  dict=() # tests/fuzz/NAME/dict: a libFuzzer dictionary, when the harness has one
  [ -f "tests/fuzz/$name/dict" ] && dict=(-dict="tests/fuzz/$name/dict")
  "$exe" "${dict[@]}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_total_time="$secs" -print_final_stats=1 \
    -artifact_prefix="$art/" "$corpus" $(existing "tests/fuzz/$name/corpus" "$BUILD/fuzz/$name.seeds") > "$log" 2>&1
  rc=$?
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
  rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$')
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 | grep -Eo '[0-9]+')
  n=$(find "$art" -type f | wc -l)
  [ "$rc" -eq 0 ] && [ "$n" -eq 0 ] || found=1
  printf '%-12s %8s %12s %10s %8s %8s\n' "$name" "$secs" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$n"
  [ "$rc" -eq 0 ] || grep -E 'SUMMARY|ERROR' "$log" | head -n 3 | sed 's/^/    /'
done
[ "$found" -eq 0 ] && echo "fuzz: nothing found" || echo "fuzz: findings in $BUILD/fuzz/*.artifacts (logs $BUILD/fuzz/*.log)"
exit "$found"
