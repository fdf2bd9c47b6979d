#!/usr/bin/env bash
# Run each test suite given as an argument (a command line), show its output,
# and add up the "N passed, N failed" line each suite ends with. A suite that
# exits non-zero without reporting a failure, or prints no such line, counts
# as one failure. The summary gives each suite's wall time. Ends with the
# plain total line.
#
# SUITE_JOBS=N (default 1) runs up to N suites at once. Each suite's output
# goes to a file of its own and is shown in one piece, under its "=== SUITE"
# line, when the suite ends, so outputs never mix; the summary keeps the
# order of the arguments. The longest suites start first: the seconds each
# took last time, from $BUILD/suite-seconds.txt (written at the end of every
# run) or else tests/suite-seconds.txt (measured, in the tree; a suite in
# neither counts as 30 s), so that no long suite is left to run alone at the
# end.
set -uo pipefail
jobs=${SUITE_JOBS:-1}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "run_suites: SUITE_JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
total_pass=0
total_fail=0
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
# What suites build once for all of them (tests/lib.sh shared_build).
export TEST_SHARED=$dir/shared
mkdir -p "$TEST_SHARED"
here=$(cd "$(dirname "$0")" && pwd)
times_out=${BUILD:-build}/suite-seconds.txt
times_in=$times_out
[ -f "$times_in" ] || times_in=$here/suite-seconds.txt

# The start order: by the seconds last measured, longest first (a suite
# measured nowhere counts as 30 s); ties keep the order of the arguments.
declare -A last=()
if [ -f "$times_in" ]; then
  while read -r s name; do
    [[ $s =~ ^[0-9]+$ ]] && last[$name]=$s
  done < <(sed -e 's/#.*//' "$times_in")
fi
n=$#
suites=("$@")
mapfile -t order < <(for ((i = 0; i < n; i++)); do
  printf '%d %d\n' "${last[${suites[i]}]:-30}" "$i"
done | sort -k1,1nr -k2,2n | awk '{print $2}')

declare -a secs=() passed=() failed=()
declare -A running=()

# finish_suite I: show suite I's output and add up its line.
finish_suite() {
  local i=$1 suite=${suites[$1]} rc line p f
  rc=$(cat "$dir/$i.rc" 2>/dev/null || echo 1)
  secs[i]=$(( $(cat "$dir/$i.end") - $(cat "$dir/$i.start") ))
  echo "=== $suite  (${secs[i]} s)"
  cat "$dir/$i.out"
  line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$dir/$i.out" | tail -n 1 | sed -E 's/^[A-Za-z]+: //')
  if [ -z "$line" ]; then
    p=0; f=1
    echo "run_suites: '$suite' printed no 'N passed, N failed' line (exit $rc)"
  else
    p=$(echo "$line" | awk '{print $1}')
    f=$(echo "$line" | awk '{print $3}')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
      echo "run_suites: '$suite' exited $rc with no failure counted"
      f=1
    fi
  fi
  passed[i]=$p; failed[i]=$f
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
}

# wait_one: wait for one running suite to end and show it.
wait_one() {
  local pid=
  wait -n -p pid "${!running[@]}"
  if [ -z "$pid" ] || [ -z "${running[$pid]:-}" ]; then
    echo "run_suites: lost track of the running suites" >&2; exit 2
  fi
  finish_suite "${running[$pid]}"
  unset "running[$pid]"
}

for i in "${order[@]}"; do
  while [ "${#running[@]}" -ge "$jobs" ]; do wait_one; done
  (
    echo "$EPOCHSECONDS" > "$dir/$i.start"
    bash -c "${suites[i]}" > "$dir/$i.out" 2>&1 < /dev/null
    echo $? > "$dir/$i.rc"
    echo "$EPOCHSECONDS" > "$dir/$i.end"
  ) &
  running[$!]=$i
  if [ "$jobs" -eq 1 ]; then wait_one; fi
done
while [ "${#running[@]}" -gt 0 ]; do wait_one; done

echo
echo "=== summary"
for ((i = 0; i < n; i++)); do
  printf '%-40s %5d passed, %3d failed  %4d s\n' "${suites[i]}" "${passed[i]}" "${failed[i]}" "${secs[i]}"
done
if mkdir -p "$(dirname "$times_out")" 2>/dev/null; then
  { echo "# seconds each suite took in the last run (tests/run_suites.sh reads it to start the longest first)"
    for ((i = 0; i < n; i++)); do echo "${secs[i]} ${suites[i]}"; done
  } > "$times_out.tmp" && mv -f "$times_out.tmp" "$times_out"
fi
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
