#!/usr/bin/env bash
# tests/mbox/run.sh: the mailbox and NoC firmware tests. Runs every ELF of
# tests.list through tsim with --all-threads: `pass` programs must store 1 to
# tohost; `halt` programs break a mailbox rule and tsim must stop (exit 125)
# naming the thread and the rule. Then checks tsim's message statistics:
# the multicast flood filled every receive queue, the unicast flood filled
# the receive pool, and both made the mailbox back-pressure (stalled > 0).
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
dir=$BUILD/tests/mbox
MAX_CYCLES=${MAX_CYCLES:-50000000}

if [ ! -x "$tsim" ]; then
  fail "tsim is built" "$tsim is missing: run make BUILD=$BUILD all"
  finish
  exit 1
fi

declare -A OUT
# run NAME CONFIG: sets out, rc and secs; keeps the output in OUT[NAME-CONFIG].
run() {
  local t0=${EPOCHREALTIME/./}
  out=$("$tsim" --config "$2" --all-threads --max-cycles "$MAX_CYCLES" --elf "$dir/$1-$2.elf" 2>&1)
  rc=$?
  local us=$(( ${EPOCHREALTIME/./} - t0 ))
  secs=$(printf "%d.%02d" $((us / 1000000)) $((us % 1000000 / 10000)))
  OUT[$1-$2]=$out
}

while read -r name cfg expect _; do
  case $name in ''|'#'*) continue ;; esac
  if [ "$expect" = long ]; then
    [ "${MBOX_LONG:-0}" = 1 ] || continue
    expect=pass
  fi
  run "$name" "$cfg"
  summary=$(grep -o 'messages: sent [0-9]* .*' <<<"$out")
  case $expect in
    pass)
      if [ "$rc" -eq 0 ] && grep -q '^tsim: PASS (tohost = 1)' <<<"$out"; then
        pass "$name ($cfg, $(grep -o 'after [0-9]* cycles' <<<"$out"), ${secs}s): $summary"
      else
        fail "$name ($cfg)" "exit $rc" "$(grep -E '^(tsim: (PASS|FAIL|error|board)|emit:)|mailbox:|messages:' <<<"$out" | head -n 12)"
      fi ;;
    halt)
      if [ "$rc" -eq 125 ] && grep -q '^tsim: board 0, core 0, thread 0: mailbox: ' <<<"$out"; then
        pass "$name ($cfg) halts: $(grep -o 'mailbox: .*' <<<"$out" | head -n 1)"
      else
        fail "$name ($cfg) halts with a mailbox error" "exit $rc (want 125)" "$(grep '^tsim:' <<<"$out" | head -n 5)"
      fi ;;
  esac
done < tests/mbox/tests.list

# stat NAME-CONFIG FIELD: the FIELD value of tsim's "messages:" line.
stat() { grep -o "messages: .*" <<<"${OUT[$1]:-}" | grep -o "$2 [0-9]*" | awk '{ print $2 }'; }
queue=$((1 << $("$BUILD/bin/boardgen" --config tile --get LogMsgPtrQueueSize)))
pool=$("$BUILD/bin/boardgen" --config tile --get RecvSlotsPerMailbox)
for cfg in tile board; do
  q=$(stat "multicast-$cfg" queue-max)
  check "multicast ($cfg) filled the receive queues (queue-max ${q:-?}, size $queue)" test "${q:-0}" -eq "$queue"
  p=$(stat "flood-$cfg" pool-max)
  check "flood ($cfg) filled the receive pool (pool-max ${p:-?}, size $pool)" test "${p:-0}" -eq "$pool"
  for t in multicast flood; do
    s=$(grep -o 'stalled [0-9]*' <<<"${OUT[$t-$cfg]:-}" | awk '{ n += $2 } END { print n + 0 }')
    check "$t ($cfg) back-pressured the network (stalled $s cycles)" test "$s" -gt 0
  done
done

finish
