#!/usr/bin/env bash
# tests/compat/sim.sh: Tinsel-style programs on tsim beyond booting them
# (tests/compat/run.sh): without a host link (tsim --elf, no tohost) hello
# ends with every thread killed and idle.elf idle; over the DebugLink, the
# QueryIn config: slots.elf (extra send slot), slots_east.elf (a disabled
# link) and the box's outer links. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
T=$BUILD/tests/compat
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0
for f in "$T/compat_host" "$T/hello.elf" "$T/tile/hello.elf" "$tsim"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit; }
done

# --elf without tohost (sim/README.md "Runs without tohost"): main returns
# into the kill stub at 0; the run ends when every thread is killed, and
# a run whose threads all wait for messages that never come ends idle.
elf_run() {   # elf_run NAME CONFIG ELF [TSIM OPTION...]
  local name=$1 cfg=$2 elf=$3 rc; shift 3
  timeout 300 "$tsim" --config "$cfg" --elf "$elf" --quiet "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; rc=$?
  echo "$rc" > "$tmp/$name.rc"
}
for f in "$T/tile/idle.elf" "$T/slots.elf" "$T/slots_east.elf"; do
  [ -e "$f" ] || fail "built: $f" "run make BUILD=$BUILD all"
done
elf_run hello1 board "$T/hello.elf"
if [ "$(cat "$tmp/hello1.rc")" = 0 ] && grep -q '^tsim: every thread killed: no thread alive after' "$tmp/hello1.err" &&
   [ "$(cat "$tmp/hello1.out")" = "hello from thread 0x0" ]; then
  pass "tsim --elf hello (no tohost, main returns): one line, then $(grep -o 'every thread killed.*cycles' "$tmp/hello1.err" | head -n 1)"
else
  fail "tsim --elf hello (no tohost): ends with every thread killed, exit 0" "exit $(cat "$tmp/hello1.rc")" \
    "$(head -c 600 "$tmp/hello1.out")" "$(grep -v '^tsim: \(core\|tile\)' "$tmp/hello1.err" | head -n 8)"
fi
elf_run hello_all tile "$T/tile/hello.elf" --all-threads
n=$(grep -c '^hello from thread 0x' "$tmp/hello_all.out"); u=$(sort -u "$tmp/hello_all.out" | grep -c '^hello from thread 0x')
if [ "$(cat "$tmp/hello_all.rc")" = 0 ] && [ "$n" = 64 ] && [ "$u" = 64 ] &&
   grep -q '^tsim: every thread killed' "$tmp/hello_all.err"; then
  pass "tsim --elf --all-threads hello on a tile: each of the 64 threads printed its line once, every thread killed"
else
  fail "tsim --elf --all-threads hello on a tile: 64 distinct lines, every thread killed" \
    "exit $(cat "$tmp/hello_all.rc"), $n lines, $u distinct" "$(grep -v '^tsim: \(core\|tile\)' "$tmp/hello_all.err" | head -n 8)"
fi
if [ -e "$T/tile/idle.elf" ]; then
  elf_run idle tile "$T/tile/idle.elf" --all-threads
  line=$(grep '^tsim: idle:' "$tmp/idle.err")
  if [ "$(cat "$tmp/idle.rc")" = 0 ] && [ "$(grep -c 'heard from' "$tmp/idle.out")" = 32 ] &&
     grep -q '^tsim: idle: 64 threads waiting (64 in WaitUntil(CAN_RECV), 0 in WaitUntil(CAN_SEND), 0 in tinselIdle), no message in flight' <<<"$line"; then
    pass "tsim --elf idle.elf (threads wait forever): 32 messages, then \"${line#tsim: }\""
  else
    fail "tsim --elf idle.elf: ends idle, exit 0" "exit $(cat "$tmp/idle.rc")" "$(grep -v '^tsim: \(core\|tile\)' "$tmp/idle.err" | head -n 8)"
  fi
fi
# (Programs with tohost still end by it: tests/tsim.)

# The DebugLink's QueryIn config (tinsel.md §11, sim/README.md "Host link"):
# bit 4 reserves the extra send slot (the receive pool starts at slot 128
# instead of 64); bits 0-3 disable the box's outer links (a message for
# them waits in the board router instead of leaving the model).
qrun() {   # qrun NAME CONFIG QUERY_CONFIG APP EXPECT [COMPAT_HOST OPTION...]
  local name=$1 cfg=$2 q=$3 app=$4 expect=$5 host debug; shift 5
  host=unix:$tmp/$name.sock debug=unix:@op2-poets-compat-$$-$name
  "$tsim" --config "$cfg" --hostlink "$host" --debuglink "$debug" >"$tmp/$name.tout" 2>"$tmp/$name.terr" &
  local pid=$!
  timeout 300 "$T/compat_host" --config "$cfg" --query-config "$q" --expect "$expect" "$@" "$host" "$debug" "$app" \
    >"$tmp/$name.out" 2>&1
  echo $? > "$tmp/$name.hrc"
  wait "$pid"; echo $? > "$tmp/$name.trc"
}
lowest() { grep -o 'lowest slot [0-9]*' "$tmp/$1.out" | grep -o '[0-9]*$' || echo -1; }
qrun slots10 board 0x10 "$T/slots.elf" ", 0 in slots 64..127" --cores 1
if [ "$(cat "$tmp/slots10.hrc")" = 0 ] && [ "$(cat "$tmp/slots10.trc")" = 0 ] && [ "$(lowest slots10)" -ge 128 ] &&
   grep -q 'senders sum 120' "$tmp/slots10.out" && grep -q 'reserves the extra send slot' "$tmp/slots10.terr"; then
  pass "QueryIn config 0x10: the extra send slot reserved; no message lands in slots 64..127 ($(grep -o 'lowest slot [0-9]*' "$tmp/slots10.out"))"
else
  fail "QueryIn config 0x10: the receive pool starts at slot 128" "$(cat "$tmp/slots10.out")" "$(grep debuglink "$tmp/slots10.terr")"
fi
qrun slots00 board 0 "$T/slots.elf" "slots: 15 received" --cores 1
if [ "$(cat "$tmp/slots00.hrc")" = 0 ] && [ "$(lowest slots00)" -ge 64 ] && [ "$(lowest slots00)" -lt 128 ] &&
   ! grep -q 'extra send slot' "$tmp/slots00.terr"; then
  pass "QueryIn config 0: no extra send slot; messages land in slots 64..127 too ($(grep -o 'lowest slot [0-9]*' "$tmp/slots00.out"))"
else
  fail "QueryIn config 0: the receive pool starts at slot 64" "$(cat "$tmp/slots00.out")"
fi
qrun east04 board 0x04 "$T/slots_east.elf" "slots: sent east" --cores 1
if [ "$(cat "$tmp/east04.hrc")" = 0 ] && [ "$(cat "$tmp/east04.trc")" = 0 ] &&
   grep -q 'links disabled: east' "$tmp/east04.terr" && ! grep -q 'left board' "$tmp/east04.terr" &&
   grep -q 'board 0: a message waited in the board router for its east link' "$tmp/east04.terr"; then
  pass "QueryIn config 0x04 on a board: its east link disabled; a message east waits in the board router"
else
  fail "QueryIn config 0x04: east link disabled, the message held" "$(cat "$tmp/east04.out")" "$(grep -v '^tsim: \(core\|tile\|board\)' "$tmp/east04.terr" | head -n 8)"
fi
qrun east00 board 0 "$T/slots_east.elf" "slots: sent east" --cores 1
if [ "$(cat "$tmp/east00.trc")" != 0 ] && grep -qi 'left board 0 through its east link' "$tmp/east00.terr"; then
  pass "QueryIn config 0: the east link enabled; the message leaves the model (tsim stops, naming the link)"
else
  fail "QueryIn config 0: the message east leaves through the East link" "tsim exit $(cat "$tmp/east00.trc")" "$(grep -v '^tsim: \(core\|tile\|board\)' "$tmp/east00.terr" | head -n 8)"
fi
# The box (3 x 2 boards): config 0x07 as HostLink sends it for a lone box:
# north of the top row, south of the bottom row, east of the east column.
qrun box07 box 0x07 "$T/hello.elf" "hello from thread" --cores 1
want="board 0 (x 0, y 0 of the 3x2 box): links disabled: south
board 1 (x 1, y 0 of the 3x2 box): links disabled: south
board 2 (x 2, y 0 of the 3x2 box): links disabled: south, east
board 3 (x 0, y 1 of the 3x2 box): links disabled: north
board 4 (x 1, y 1 of the 3x2 box): links disabled: north
board 5 (x 2, y 1 of the 3x2 box): links disabled: north, east"
got=$(grep -o 'board [0-9] (x .*' "$tmp/box07.terr" | sort)
if [ "$(cat "$tmp/box07.hrc")" = 0 ] && [ "$got" = "$want" ]; then
  pass "QueryIn config 0x07 on the box: each board's outer links disabled as Tinsel's DebugLink does"
else
  fail "QueryIn config 0x07 on the box: outer links disabled" "got: $got" "$(cat "$tmp/box07.out" | head -n 5)"
fi
finish
