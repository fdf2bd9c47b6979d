# Helpers sourced by the bash test suites. Each suite ends with `finish`,
# which prints the plain "N passed, N failed" line that tests/run_suites.sh adds up.
T_PASS=0
T_FAIL=0

pass() { T_PASS=$((T_PASS + 1)); echo "PASS $1"; }

# fail NAME [DETAIL...]: count a failure and indent the details under it.
fail() {
  local name=$1; shift
  T_FAIL=$((T_FAIL + 1))
  echo "FAIL $name"
  [ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/    /' | head -n 40
}

# check NAME CMD...: pass when CMD exits 0; on failure show its output.
check() {
  local name=$1 out; shift
  if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

# check_golden NAME EXPECTED_FILE ACTUAL_FILE: pass when the files are equal.
check_golden() {
  # UPDATE=1 rewrites the golden from the fresh output (review the diff!).
  if [ "${UPDATE:-0}" = 1 ]; then cp "$3" "$2"; fi
  if diff -u "$2" "$3" >/dev/null 2>&1; then pass "$1"; else fail "$1" "$(diff -u "$2" "$3")"; fi
}

finish() {
  echo "$T_PASS passed, $T_FAIL failed"
  [ "$T_FAIL" -eq 0 ]
}
