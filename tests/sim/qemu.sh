#!/usr/bin/env bash
# tests/sim/qemu.sh ELF...: run the single-thread test bodies, linked with
# crt0_qemu.S, under qemu-riscv32 user mode. This checks the tests and their
# expected values against QEMU's RISC-V model, independently of ours; it is
# not part of make test (qemu-user is not in mk/packages.txt). On a failure
# the exit status is the failed check number (mod 256) and the output shows
# the check number, the result and the expected value in hex.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
command -v qemu-riscv32 >/dev/null || { echo "qemu.sh: qemu-riscv32 not found (apt-get install qemu-user)"; exit 1; }
for elf in "$@"; do
  out=$(timeout 60 qemu-riscv32 "$elf" 2>&1)
  rc=$?
  if [ $rc -eq 0 ]; then pass "qemu $(basename "$elf")"; else fail "qemu $(basename "$elf")" "exit $rc" "$out"; fi
done
finish
