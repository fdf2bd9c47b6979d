# Helpers sourced by the bash test suites. Each suite ends with `finish`,
# which prints the plain "N passed, N failed" line that tests/run_suites.sh adds up.
T_PASS=0
T_FAIL=0

# TEST_TIMES=1 (for measuring a suite, never read by a check) ends each
# verdict with the seconds since the one before (T_SINCE), to find the slow checks.
T_LAST=${EPOCHREALTIME/./}
T_SINCE=
t_since() {
  [ "${TEST_TIMES:-0}" = 1 ] || return 0
  local now=${EPOCHREALTIME/./}
  T_SINCE=$(printf '  [%d.%02d s]' $(((now - T_LAST) / 1000000)) $(((now - T_LAST) / 10000 % 100)))
  T_LAST=$now
}

pass() { T_PASS=$((T_PASS + 1)); t_since; echo "PASS $1$T_SINCE"; }

# fail NAME [DETAIL...]: count a failure and indent the details under it.
fail() {
  local name=$1; shift
  T_FAIL=$((T_FAIL + 1))
  t_since; echo "FAIL $name$T_SINCE"
  [ $# -eq 0 ] || printf '%s\n' "$@" | sed 's/^/    /' | head -n 40
}

# shared_build KEY CMD...: CMD once per make test for every suite that asks.
# tests/run_suites.sh makes TEST_SHARED, a directory of its run, where such
# builds put what they make (shared_dir); the first suite to ask runs CMD
# under a lock on KEY, the others wait for it and get its exit status. A
# suite run alone (no TEST_SHARED) runs CMD itself, into its own $tmp.
shared_build() {
  local key=$1; shift
  if [ -z "${TEST_SHARED:-}" ]; then "$@"; return; fi
  (
    flock 9
    [ -f "$TEST_SHARED/$key.rc" ] || { "$@"; echo $? >"$TEST_SHARED/$key.rc"; }
    exit "$(cat "$TEST_SHARED/$key.rc")"
  ) 9>"$TEST_SHARED/$key.lock"
}
shared_dir() { echo "${TEST_SHARED:-$tmp}"; }

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

# unit NAME EXE: run a unit-test program that ends with its own
# "N passed, N failed" line; add its counts in (a failing exit without a
# failed check counts as one failure).
unit() {
  local out rc
  out=$("$2" 2>&1); rc=$?
  echo "$out" | grep '^FAIL' | sed 's/^/    /'
  if [[ $(echo "$out" | tail -n 1) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    T_PASS=$((T_PASS + BASH_REMATCH[1])); T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
    echo "$1: ${BASH_REMATCH[1]} checks passed, ${BASH_REMATCH[2]} failed"
    [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail "$1" "exit $rc"
  else
    fail "$1" "exit $rc, no count line" "$out"
  fi
}

finish() {
  echo "$T_PASS passed, $T_FAIL failed"
  [ "$T_FAIL" -eq 0 ]
}
