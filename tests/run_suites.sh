#!/usr/bin/env bash
# Run each test suite given as an argument (a command line), show its output,
# and add up the "N passed, N failed" line each suite ends with. A suite that
# exits non-zero without reporting a failure, or prints no such line, counts
# as one failure. The summary gives each suite's wall time. Ends with the
# plain total line.
set -uo pipefail
total_pass=0
total_fail=0
summary=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT

for suite in "$@"; do
  echo "=== $suite"
  started=$SECONDS
  bash -c "$suite" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 | sed -E 's/^[A-Za-z]+: //')
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
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  summary+=("$(printf '%-40s %5d passed, %3d failed  %4d s' "$suite" "$p" "$f" $((SECONDS - started)))")
done

echo
echo "=== summary"
printf '%s\n' "${summary[@]}"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
