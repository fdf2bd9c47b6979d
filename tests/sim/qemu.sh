#!/usr/bin/env bash
# tests/sim/qemu.sh [ELF...]: run the single-thread test bodies, linked with
# crt0_qemu.S, under qemu-riscv32 user mode (default: every ELF in
# $BUILD/tests/sim/qemu). This checks the tests' expected values against
# QEMU's RISC-V, independently of our model. On a failure the exit status is
# the failed check number (mod 256) and the output shows check numbers,
# results and expected values in hex. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
if ! command -v qemu-riscv32 >/dev/null; then
  fail "qemu-riscv32 is installed" "not found: make deps (package qemu-user)"
  finish
  exit 1
fi
if [ $# -eq 0 ]; then
  shopt -s nullglob
  set -- "$BUILD"/tests/sim/qemu/*.elf
  [ $# -gt 0 ] || { fail "qemu ELFs are built" "none in $BUILD/tests/sim/qemu: make BUILD=$BUILD all"; finish; exit 1; }
fi
for elf in "$@"; do
  out=$(timeout 60 qemu-riscv32 "$elf" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then pass "qemu $(basename "$elf")"; else fail "qemu $(basename "$elf")" "exit $rc" "$out"; fi
done
finish
