#!/usr/bin/env bash
# tests/compat/run.sh: Tinsel-style programs on the models through
# libhostlink (tests/compat/rules.mk): hello (entry `j main`, main returns)
# booted by compat_host on a board (DebugLink over TCP), a tile and the
# first cores of a box: each thread prints once, thread 0 returns to the
# boot loader. Then, built with Tinsel's own flags (-mabi=ilp32), hello and
# ring.cpp (C++, POLite-style). The socket names: tests/compat/sockname.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
T=$BUILD/tests/compat
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0
for f in "$T/compat_host" "$T/hello.elf" "$T/tile/hello.elf" "$T/hello_ilp32.elf" "$T/tile/ring.elf" "$T/ring.elf" "$tsim"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit; }
done

# on CONFIG APP [COMPAT_HOST OPTION...]: tsim serving CONFIG, compat_host
# booting APP. The host link is an abstract socket with the padded name,
# bound and reached as pciestreamd and HostLink do (a name of its own per
# run). DEBUG (default a local socket) is the DebugLink's address;
# NAME (default hello) names the program in the verdicts.
on() {
  local cfg=$1 app=$2 out trc brc secs t0; shift 2
  local host=unix:@op2-poets-pciestream-$$-$cfg debug=${DEBUG:-unix:@op2-poets-compat-$$-$cfg}
  "$tsim" --config "$cfg" --hostlink "$host" --debuglink "$debug" >"$tmp/$cfg.out" 2>"$tmp/$cfg.err" &
  local pid=$!
  t0=${EPOCHREALTIME/./}
  out=$(timeout 300 "$T/compat_host" --config "$cfg" "$@" "$host" "$debug" "$app" 2>&1); brc=$?
  wait "$pid"; trc=$?
  secs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
  while IFS= read -r line; do
    case $line in
      ok\ *) pass "${NAME:-hello} on the $cfg model: ${line#ok } ($((secs / 100)).$((secs % 100)) s)" ;;
      FAILED\ *) fail "${NAME:-hello} on the $cfg model: ${line#FAILED }" "$(grep -v '^ok\|^FAILED' <<<"$out" | head -n 5)" ;;
    esac
  done <<<"$out"
  [ $brc -eq 0 ] || grep -q '^FAILED' <<<"$out" || fail "${NAME:-hello} on the $cfg model: compat_host exits 0" "exit $brc" "$out"
  [ $trc -eq 0 ] || fail "${NAME:-hello} on the $cfg model: tsim exits 0" "exit $trc" "$(tail -n 5 "$tmp/$cfg.err")"
}
if [ -x "$T/sockname" ]; then
  "$T/sockname" > "$tmp/sockname.out" 2>&1
  while IFS= read -r line; do
    case $line in PASS\ *) pass "${line#PASS }" ;; FAIL\ *) fail "${line#FAIL }" ;; esac
  done < "$tmp/sockname.out"
  grep -q "passed, 0 failed" "$tmp/sockname.out" || grep -q "^FAIL" "$tmp/sockname.out" || fail "sockname runs" "$(cat "$tmp/sockname.out")"
else
  fail "built: $T/sockname"
fi
# The board with its DebugLink over TCP on the loopback, as boardctrld
# serves it (a port of its own per run); the box (six boards and the
# bridge on link 6: QueryIn on links 0-6, then EnIdle) on a local socket.
DEBUG=127.0.0.1:$((20000 + $$ % 20000)) on board "$T/hello.elf"
check "the board's DebugLink was TCP" grep -q "debuglink: listening on 127.0.0.1:" "$tmp/board.err"
on tile "$T/tile/hello.elf"
on box "$T/hello.elf" --cores 2
if grep -q 'ignored' "$tmp/box.err"; then
  fail "the box's DebugLink handshake: no packet ignored" "$(grep ignored "$tmp/box.err" | head -n 3)"
else
  pass "the box's DebugLink handshake: every link answered, EnIdle to the bridge (link 6)"
fi
# Built with Tinsel's flags (-mabi=ilp32) against libfw's ilp32 build:
# hello, and ring.cpp (C++, POLite-style: a token round each core's 16
# threads, checked; it prints the hello line only if every token was right).
NAME="hello (ilp32)" on tile "$T/tile/hello_ilp32.elf"
NAME="ring (C++, ilp32)" on tile "$T/tile/ring.elf"
NAME="ring (C++, ilp32)" on board "$T/ring.elf"
NAME="ring (C++, ilp32)" on box "$T/ring.elf" --cores 2
finish
