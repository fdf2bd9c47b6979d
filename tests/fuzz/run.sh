#!/usr/bin/env bash
# tests/fuzz/run.sh: the fuzz harnesses in make test (tests/fuzz/README.md).
# For each harness: replay its seed corpus (tests/fuzz/NAME/corpus/ and the
# tree's files tests/fuzz/NAME/seeds names) and every saved reproducer
# (tests/fuzz/NAME/regress/: crashes, hangs and leaks found before, now
# regression cases), then fuzz for FUZZ_TEST_SECONDS (default 4) from the
# seed corpus. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
. tests/fuzz/seeds.sh
BUILD=${BUILD:-build}
secs=${FUZZ_TEST_SECONDS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
opts=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=2048)

for mk in tests/fuzz/*/harness.mk; do
  name=$(basename "$(dirname "$mk")")
  exe=$BUILD/fuzz/$name
  dir=tests/fuzz/$name
  if [ ! -x "$exe" ]; then fail "$name: harness built" "no $exe (make BUILD=$BUILD $exe)"; continue; fi
  # Its inputs: the corpus, the seeds taken from the tree, the reproducers.
  seeds_into "$name" "$tmp/$name.seeds"
  mapfile -t inputs < <(existing "$dir/corpus" "$tmp/$name.seeds" "$dir/regress")
  n=0
  [ ${#inputs[@]} -eq 0 ] || n=$(find "${inputs[@]}" -maxdepth 1 -type f | wc -l)
  if [ "$n" -eq 0 ]; then fail "$name: corpus" "$dir/corpus is empty and $dir/seeds names nothing"; continue; fi
  mkdir -p "$tmp/$name.art"
  # Replay: every file once (libFuzzer runs the files it is given).
  if find "${inputs[@]}" -maxdepth 1 -type f -print0 |
       xargs -0 -n 200 "$exe" "${opts[@]}" -artifact_prefix="$tmp/$name.art/" > "$tmp/$name.replay" 2>&1; then
    pass "$name: replays its $n corpus and regression inputs"
  else
    fail "$name: replays its $n corpus and regression inputs" "$(grep -E 'ERROR|SUMMARY|Running:|==[0-9]+==' "$tmp/$name.replay" | tail -n 12)"
  fi
  # A harness whose library cannot survive mutated inputs in a short run
  # says why in tests/fuzz/NAME/no-short-run; make fuzz still runs it.
  if [ -f "$dir/no-short-run" ]; then
    echo "SKIP $name: no short run here: $(grep -v '^#' "$dir/no-short-run" | head -n 1) (make fuzz FUZZ=$name runs it)"
    continue
  fi
  # A short run from the seeds, with the harness's dictionary if it has one.
  mkdir -p "$tmp/$name.corpus"
  dict=()
  [ -f "$dir/dict" ] && dict=(-dict="$dir/dict")
  if "$exe" "${opts[@]}" "${dict[@]}" -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$tmp/$name.art/" \
       "$tmp/$name.corpus" $(existing "$dir/corpus" "$tmp/$name.seeds") > "$tmp/$name.fuzz" 2>&1; then
    execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$tmp/$name.fuzz" | grep -Eo '[0-9]+$')
    pass "$name: fuzzed ${secs} s, ${execs:-?} inputs, nothing found"
  else
    fail "$name: fuzzed ${secs} s" "$(grep -E 'ERROR|SUMMARY|Test unit written|==[0-9]+==' "$tmp/$name.fuzz" | tail -n 12)" \
      "save the reproducer in $dir/regress/ once fixed (the input: $(ls "$tmp/$name.art" | head -n 1))"
  fi
done
finish
