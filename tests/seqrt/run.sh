#!/usr/bin/env bash
# tests/seqrt/run.sh: the sequential runtime's unit tests (no op2c involved).
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib.sh
BUILD=${BUILD:-build}
exe=$BUILD/bin/tests/seqrt_test
here=tests/seqrt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "seqrt unit" "$exe" unit

"$exe" output "$tmp" >"$tmp/stdout" 2>&1 || fail "seqrt output exits 0" "$(cat "$tmp/stdout")"
for f in q f i; do
  check_golden "txtfile $f.txt" "$here/golden/$f.txt" "$tmp/$f.txt"
done
sed -n '1,15p' "$tmp/stdout" >"$tmp/diag"
check_golden "diagnostic output" "$here/golden/diagnostics.txt" "$tmp/diag"
check "timing output row (OP2's columns)" \
  grep -Eq '^ +3; +0\.0000; +0\.0000\( +0\.0000\); +[0-9.]+\( +0\.0000\); +[0-9.]+; +; +touch_q $' "$tmp/stdout"
check "timing output header (OP2's)" \
  grep -qx '  count   plan time     MPI time(std)        time(std)           GB/s      GB/s   kernel name ' "$tmp/stdout"

# Binary file: int count, int dim, then the raw doubles (3 x 2 x 8 bytes).
size=$(stat -c %s "$tmp/q.bin" 2>/dev/null || echo 0)
header=$(od -A n -t d4 -N 8 "$tmp/q.bin" | tr -s ' ')
if [ "$size" -eq 56 ] && [ "$header" = " 3 2" ]; then pass "binfile header and size"
else fail "binfile header and size" "size $size, header '$header'"; fi

# Each error case must exit 1 with its message, and without a sanitizer report.
while IFS='|' read -r name expect; do
  out=$("$exe" error "$name" 2>&1); rc=$?
  if [ $rc -eq 1 ] && grep -qF -- "op2 error: " <<<"$out" && grep -qF -- "$expect" <<<"$out" &&
     ! grep -qE 'Sanitizer|runtime error' <<<"$out"; then
    pass "error $name"
  else
    fail "error $name" "exit $rc, expected message: $expect" "$out"
  fi
done < <("$exe" errors)

finish
