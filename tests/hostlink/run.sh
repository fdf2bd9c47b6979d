#!/usr/bin/env bash
# tests/hostlink/run.sh: the host link. The library's unit test against a
# fake server; then tsim serves a board over local sockets and a host
# program on libhostlink (boot_test) boots it: the test app on every core,
# 1024 hellos, a ping and an echo per thread, a DebugLink line, hl_load of
# what the app stored; tsim exits 0 when the host closes and writes its
# statistics file; the same library boots a tile and a box (geometry at run
# time). A host that connects and waits must find tsim asleep,
# not clocking; a host message that reaches a quiet tile at any point of
# tsim's quiet count is answered (300 echoes, each after its own pause,
# with and without delays); a wrong socket path fails with a clear message; a
# malformed header, a message to an absent host or board, and bad tsim
# options stop tsim with a clear message. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
T=$BUILD/tests/hostlink
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
tsim_pid=
trap '[ -n "$tsim_pid" ] && kill "$tsim_pid" 2>/dev/null; rm -rf "$tmp"' EXIT

for f in "$T/test_hostlink" "$T/boot_test" "$T/app.elf" "$T/off_board_host.elf" "$T/off_board_board.elf" "$T/echo.elf" "$tsim"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit 1; }
done

# The unit test reports its own counts; add them in.
out=$(timeout 60 "$T/test_hostlink" 2>&1); rc=$?
echo "$out" | grep '^FAIL' | sed 's/^/    /'
if [[ $(echo "$out" | tail -n 1) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
  T_PASS=$((T_PASS + BASH_REMATCH[1])); T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
  echo "libhostlink against a fake server: ${BASH_REMATCH[1]} checks passed, ${BASH_REMATCH[2]} failed"
  [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail "test_hostlink" "exit $rc"
else
  fail "test_hostlink" "exit $rc, no count line" "$out"
fi

# stat FILE KEY: a value from tsim's --stats-file.
stat() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# serve NAME [TSIM OPTION...]: start tsim on the board with a host link and
# a DebugLink (sockets HOST, DEBUG); its output in $tmp/NAME.{out,err}.
serve() {
  local name=$1; shift
  HOST=unix:$tmp/$name.sock DEBUG=unix:@op2-poets-hostlink-$$-$name
  "$tsim" --config board --hostlink "$HOST" --debuglink "$DEBUG" --stats-file "$tmp/$name.stats" "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" &
  tsim_pid=$!
}
# finished: wait for tsim; sets trc.
finished() { wait "$tsim_pid"; trc=$?; tsim_pid=; }

# ---- boot a board and talk to it
serve boot
t0=${EPOCHREALTIME/./}
out=$(timeout 300 "$T/boot_test" "$HOST" "$DEBUG" "$T/app.elf" 2>&1); brc=$?
finished
secs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
while IFS= read -r line; do
  case $line in
    ok\ *) pass "boot: ${line#ok }" ;;
    FAILED\ *) fail "boot: ${line#FAILED }" ;;
  esac
done <<<"$out"
[ $brc -eq 0 ] || fail "boot_test exits 0" "exit $brc" "$out"
err=$(cat "$tmp/boot.err")
check "tsim said where it listens" grep -q "^tsim: hostlink: listening on $HOST\$" "$tmp/boot.err"
if [ $trc -eq 0 ] && grep -q '^tsim: hostlink: the host closed the link after [0-9]* cycles' <<<"$err"; then
  pass "tsim exits 0 when the host closes ($(grep -o 'after [0-9]* cycles' <<<"$err"), $((secs / 100)).$((secs % 100)) s wall)"
else
  fail "tsim exits 0 when the host closes" "exit $trc" "$(grep '^tsim: [a-z]' <<<"$err" | grep -v '^tsim: \(core\|tile\)' | head -n 8)"
fi
line=$(grep '^tsim: host link: ' <<<"$err")
check "statistics: host link line ($line)" grep -q 'host->board messages [1-9][0-9]* flits [0-9]*, board->host messages [0-9]* flits' <<<"$line"
s=$tmp/boot.stats
to_host=$(stat "$s" host.to-host.messages); to_board=$(stat "$s" host.to-board.messages)
# Board -> host: 1024 hellos, 1024 echoes, 64 start acks, and hl_load's
# replies of 4 words: a cache line (8 words) per core (tests/hostlink/wire.h).
check "stats file: $to_host messages to the host (2048 + 64 acks + 128 load replies)" test "${to_host:-0}" -eq $((2048 + 64 + 128))
check "stats file: $to_board messages to the board, flits $(stat "$s" host.to-board.flits)" test "${to_board:-0}" -gt 1024
keys=$(awk '{ print $1 }' "$s" | grep -c -E '^(exit|cycles|retired|core\.63\.retired|core\.0\.idle|messages\.sent|messages\.received|host\.to-host\.flits|link\.W\.out\.flits)$')
check "stats file has the documented keys ($keys of 9)" test "$keys" -eq 9

# ---- the same on a tile and on a box: one library and boot_test, the
# geometry from boards/ at run time (hl_geometry_load); tsim-tile boots its
# own tile-built boot loader, the tile's app is built for the tile's layout.
# On the box, cores 0..3 of each of the six boards (a box-wide boot).
# other_config NAME APP TSIM_OPTION... -- BOOT_TEST_OPTION...
other_config() {
  local name=$1 app=$2 topts=() bopts=()
  shift 2
  while [ $# -gt 0 ] && [ "$1" != -- ]; do topts+=("$1"); shift; done
  shift
  bopts=("$@")
  HOST=unix:$tmp/$name.sock DEBUG=unix:@op2-poets-hostlink-$$-$name
  "$tsim" --config "$name" --hostlink "$HOST" --debuglink "$DEBUG" "${topts[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  tsim_pid=$!
  t0=${EPOCHREALTIME/./}
  out=$(timeout 300 "$T/boot_test" --config "$name" "${bopts[@]}" "$HOST" "$DEBUG" "$app" 2>&1); brc=$?
  finished
  secs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
  oks=$(grep -c '^ok ' <<<"$out")
  check "$name: boot_test's 5 checks pass ($oks; $(grep -o 'hello from every thread ([0-9 of]*)' <<<"$out"); $(grep -o 'DebugLink StdOut: [0-9]* of [0-9]* lines' <<<"$out")), tsim exits $trc, $((secs / 100)).$((secs % 100)) s" \
    test "$oks" -eq 5 -a $brc -eq 0 -a $trc -eq 0
  [ "$oks" -eq 5 ] || echo "$out" | sed 's/^/    /'
}
if [ -f "$T/tile/app.elf" ]; then
  other_config tile "$T/tile/app.elf" --
else
  fail "the tile's app is built" "run make BUILD=$BUILD all"
fi
other_config box "$T/app.elf" -- --cores 4

# ---- a host that connects and waits: tsim sleeps (no CPU, no watchdog)
serve idle --watchdog 5000
out=$(timeout 60 "$T/boot_test" --idle 1500 "$HOST" "$DEBUG" 2>&1); brc=$?
finished
cpu=$(stat "$tmp/idle.stats" host-cpu-seconds); cycles=$(stat "$tmp/idle.stats" cycles); waits=$(stat "$tmp/idle.stats" host.waits)
check "an idle host: tsim exits 0 (exit $trc), the watchdog silent" test $trc -eq 0 -a $brc -eq 0
check "an idle host: tsim waited ($waits waits, $cycles cycles, ${cpu}s CPU over 1.5 s)" \
  awk -v c="${cpu:-9}" -v w="${waits:-0}" 'BEGIN { exit !(c < 0.5 && w >= 1) }'

# ---- a host message that reaches a quiet board at any point of tsim's
# count of quiet cycles is answered (boot_test --echo, echo.c: 300
# messages, each after its own pause). tsim used to sleep with a message it
# had just taken late in the count still in the board router (MacLatency,
# counted as no movement): the host waited for the answer forever.
for delay in "" "--delay-seed 3"; do
  HOST=unix:$tmp/echo.sock
  # shellcheck disable=SC2086
  "$tsim" --config tile --hostlink "$HOST" --elf "$T/echo.elf" --stats-file "$tmp/echo.stats" $delay \
    >"$tmp/echo.out" 2>"$tmp/echo.err" &
  tsim_pid=$!
  out=$(timeout 120 "$T/boot_test" --echo 300 tile "$HOST" 2>&1); brc=$?
  finished
  check "a host message at any point of the quiet count is answered (tile${delay:+, $delay}): $out; tsim exits $trc, waited $(stat "$tmp/echo.stats" host.waits) times" \
    test $brc -eq 0 -a $trc -eq 0
done

# ---- errors
serve bad
out=$(timeout 60 "$T/boot_test" --bad-header "$HOST" 2>&1); brc=$?
finished
check "a malformed header stops tsim (exit $trc): $(grep -o 'protocol error.*' "$tmp/bad.err")" \
  test $trc -eq 125 -a $brc -eq 0 -a -n "$(grep 'hostlink: protocol error from the host: header 1 .* word 2 (0x07000000) is not (flits - 1) << 24 with at most 4 flits' "$tmp/bad.err")"
# raw NBYTES WORD...: tsim on the tile with echo.elf; a bare host sends the
# first NBYTES of the words (boot_test --raw) and closes; tsim's stderr in
# $tmp/raw.err, its exit in trc.
raw() {
  HOST=unix:$tmp/raw.sock
  timeout 120 "$tsim" --config tile --hostlink "$HOST" --elf "$T/echo.elf" >"$tmp/raw.out" 2>"$tmp/raw.err" &
  tsim_pid=$!
  timeout 60 "$T/boot_test" --raw "$HOST" "$@" >"$tmp/raw.host" 2>&1
  finished
}
# raw_check NAME WANT_EXIT WANT_STDERR_LINE
raw_check() {
  if [ "$trc" -eq "$2" ] && grep -qxF -- "$3" "$tmp/raw.err"; then pass "$1 (exit $trc): $3"
  else fail "$1" "exit $trc (want $2)" "want: $3" "got:  $(grep '^tsim: hostlink' "$tmp/raw.err")"; fi
}
# A message for a thread that does not exist used to circle the NoC and vanish (exit 0).
raw 32 1000 0 0 0 1 2 3 4
raw_check "a message to an address above the boards stops tsim" 125 "tsim: hostlink: protocol error from the host: header 1 {dest 0x00001000, NM 0, 1 flits, key 0x00000000} at byte 0: destination 0x00001000 (board (0, 0), mailbox (0, 0), core 0, thread 0; bits 0x00001000 above the board address) is not a thread of this run, which has boards (0..0, 0..0), mailboxes (0..0, 0..0) on each, 4 cores of 16 threads on each mailbox"
raw 64 0 0 0 0 1 2 3 4 40 0 0 0 1 2 3 4
raw_check "a message to another board than the run's stops tsim" 125 "tsim: hostlink: protocol error from the host: header 2 {dest 0x00000040, NM 0, 1 flits, key 0x00000000} at byte 32: destination 0x00000040 (board (1, 0), mailbox (0, 0), core 0, thread 0) is not a thread of this run, which has boards (0..0, 0..0), mailboxes (0..0, 0..0) on each, 4 cores of 16 threads on each mailbox"
raw 32 4000 0 0 0 1 2 3 4
raw_check "a keyed send to a key with no beats stops tsim" 125 "tsim: hostlink: protocol error from the host: header 1 {dest 0x00004000, NM 0, 1 flits, key 0x00000000} at byte 0: a keyed send to key 0x00000000, which has no beats (its low 5 bits are 0): it would reach no thread"
# A message cut short by the host's close used to be dropped without a word.
raw 56 0 0 3000000 0 1 2 3 4 5 6 7 8 9 a b c d e f 10
raw_check "a message cut short by the close is reported" 125 "tsim: hostlink: error: the host closed the link in the middle of message 1 of 1 under header 1 {dest 0x00000000, NM 0, 4 flits, key 0x00000000} (at byte 16): 40 of its 64 bytes had come"
raw 41 0 0 0 0 1 2 3 4 5 0 0 0
raw_check "a header cut short by the close is reported" 125 "tsim: hostlink: error: the host closed the link in the middle of header 2 (at byte 32): 9 of its 16 bytes had come"
for m in host board; do
  out=$("$tsim" --config tile --elf "$T/off_board_$m.elf" 2>&1); rc=$?
  msg=$(grep -o 'mailbox: message to .*' <<<"$out")
  check "a message to the $m with nothing behind the link stops tsim (exit $rc): $msg" test $rc -eq 125 -a -n "$msg"
done
out=$(HOSTLINK_CONNECT_ATTEMPTS=3 timeout 30 "$T/boot_test" "unix:$tmp/nowhere.sock" "unix:$tmp/nowhere2.sock" "$T/app.elf" 2>&1); rc=$?
check "a wrong socket path fails clearly: $out" \
  grep -q "hl_open: host link: unix:$tmp/nowhere.sock: cannot connect: No such file or directory (3 attempts" <<<"$out"
check "... and exits non-zero ($rc)" test $rc -ne 0
for args in "--debuglink unix:@x --elf x.elf" "--hostlink tcp:1234" "--hostlink unix:@a --debuglink unix:@a" \
            "--hostlink unix:@a --boot b.elf --elf x.elf"; do
  # shellcheck disable=SC2086
  out=$("$tsim" --config board $args 2>&1); rc=$?
  check "tsim $args: usage error ($(head -n 1 <<<"$out"))" test $rc -eq 64
done
touch "$tmp/file"
out=$("$tsim" --config tile --hostlink "unix:$tmp/file" 2>&1); rc=$?
check "tsim refuses to replace a file that is not a socket ($out)" test $rc -eq 65 -a -f "$tmp/file"

finish
