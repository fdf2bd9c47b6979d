#!/usr/bin/env bash
# tests/mbox/run.sh: the mailbox and NoC firmware tests. Runs every ELF of
# tests.list through tsim with --all-threads: `pass` programs must store 1 to
# tohost; `halt` programs break a mailbox rule and tsim must stop (exit 125)
# naming the thread and the rule; `deadlock` programs must be reported by
# the watchdog (exit 123) with the threads that wait. Then checks tsim's message statistics:
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
# run NAME CONFIG [OPTION...]: sets out, rc and secs; keeps the output in OUT[NAME-CONFIG].
run() {
  local t0=${EPOCHREALTIME/./} name=$1 cfg=$2
  shift 2
  out=$("$tsim" --config "$cfg" --all-threads --max-cycles "$MAX_CYCLES" "$@" --elf "$dir/$name-$cfg.elf" 2>&1)
  rc=$?
  local us=$(( ${EPOCHREALTIME/./} - t0 ))
  secs=$(printf "%d.%02d" $((us / 1000000)) $((us % 1000000 / 10000)))
  OUT[$name-$cfg]=$out
}

while read -r name cfg expect _; do
  case $name in ''|'#'*) continue ;; esac
  if [ "$expect" = long ]; then
    [ "${MBOX_LONG:-0}" = 1 ] || continue
    expect=pass
  fi
  # Board runs take seconds: they show the progress line (idle: --quiet must hide it).
  opts=()
  [ "$cfg" = board ] && opts=(--progress)
  [ "$name-$cfg" = idle-board ] && opts+=(--quiet)
  run "$name" "$cfg" "${opts[@]}"
  summary=$(grep -o 'messages: sent [0-9]* .*' <<<"$out")
  case $expect in
    pass)
      if [ "$rc" -eq 0 ] && grep -q '^tsim: PASS (tohost = 1)' <<<"$out"; then
        pass "$name ($cfg, $(grep -o 'after [0-9]* cycles' <<<"$out"), ${secs}s): $summary"
      else
        fail "$name ($cfg)" "exit $rc" "$(grep -E '^(tsim: (PASS|FAIL|error|board)|emit:)|mailbox:|messages:' <<<"$out" | head -n 12)"
      fi ;;
    deadlock)
      if [ "$rc" -eq 123 ] && grep -q '^tsim: error: deadlock: ' <<<"$out" &&
         grep -q '^tsim:   2 threads (core.thread 0.0 0.1): in WaitUntil(CAN_RECV)' <<<"$out"; then
        pass "$name ($cfg) reported: $(grep -o 'deadlock: .*' <<<"$out" | cut -c1-80)... $(grep '^tsim:   2 threads' <<<"$out" | cut -c8-)"
      else
        fail "$name ($cfg) reported by the watchdog" "exit $rc (want 123)" "$(grep '^tsim:' <<<"$out" | head -n 5)"
      fi ;;
    order)
      # Seeds 1, 2, 3 (delays up to 300 cycles), then 1 again: each passes
      # (per-source order held), the orders differ, seed 1 repeats exactly.
      runs=()
      for seed in 1 2 3 1; do
        run "$name" "$cfg" --quiet --delay-seed "$seed" --delay-max 300
        runs+=("$(grep -o 'after [0-9]* cycles' <<<"$out") $(grep -o 'emit: .*' <<<"$out" | awk '{ print $6 }')")
        [ "$rc" -eq 0 ] || break
      done
      distinct=$(printf '%s\n' "${runs[@]:0:3}" | awk '{ print $4 }' | sort -u | wc -l)
      check "$name ($cfg): --delay-seed 1 2 3 keep per-source order (${runs[*]})" test "${#runs[@]}" -eq 4 -a "$rc" -eq 0
      check "$name ($cfg): different seeds give different arrival orders ($distinct of 3 distinct)" test "$distinct" -ge 2
      check "$name ($cfg): the same seed gives the same run (${runs[0]} / ${runs[3]:-none})" test "${runs[0]}" = "${runs[3]:-}" ;;
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
prog=$(grep -c '^tsim: progress: cycle [0-9]*, [0-9.]* M cycles/s, [0-9]* messages$' <<<"${OUT[flood-board]:-}")
check "flood (board, --progress) printed progress lines ($prog; $(grep -m1 -o 'progress: .*' <<<"${OUT[flood-board]:-}"))" test "$prog" -ge 1
quiet=$(grep -c 'progress:' <<<"${OUT[idle-board]:-}")
check "idle (board, --progress --quiet) printed no progress line ($quiet)" test "$quiet" -eq 0 -a -n "${OUT[idle-board]:-}"
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
