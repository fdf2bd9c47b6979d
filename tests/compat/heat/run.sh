#!/usr/bin/env bash
# tests/compat/heat/run.sh: the POLite-style heat app (heat.cpp, heat_host.c)
# on the tile, board and box models: tsim serves the configuration over the
# host link and the DebugLink; heat_host places the grid with METIS, builds
# the routing keys and router tables, boots the threads through the boot
# loaders and checks every cell's final temperature against the host's
# float computation. The steps end by step counters in the messages
# (POLite's heat-gals) or, in the --sync runs, by the hardware's idle
# detection (heat-sync). Reads BUILD (default build); HEAT_ARGS adds
# heat_host options to every run (e.g. "--steps 50"); HEAT_SYNC_BOX=1 adds
# the box with --sync.
set -uo pipefail
cd "$(dirname "$0")/../../.."
. tests/lib.sh
BUILD=${BUILD:-build}
T=$BUILD/tests/compat/heat
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
export ASAN_OPTIONS=detect_leaks=0
for f in "$T/heat_host" "$T/heat.elf" "$T/tile/heat.elf" "$tsim"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit; }
done

# heat CONFIG APP [--sync] [HEAT_HOST OPTION...]: tsim serving CONFIG,
# heat_host running APP on it. DEBUG (default a local socket) is the
# DebugLink.
heat() {
  local cfg=$1 app=$2 out trc brc secs t0 cycles name=heat; shift 2
  [ "${1:-}" != --sync ] || name="heat --sync"
  local host=unix:@op2-poets-pciestream-heat-$$-$cfg debug=${DEBUG:-unix:@op2-poets-heat-$$-$cfg}  # padded, as pciestreamd
  "$tsim" --config "$cfg" --hostlink "$host" --debuglink "$debug" >"$tmp/$cfg.out" 2>"$tmp/$cfg.err" &
  local pid=$!
  t0=${EPOCHREALTIME/./}
  # shellcheck disable=SC2086
  out=$(timeout 300 "$T/heat_host" --config "$cfg" "$@" ${HEAT_ARGS:-} "$host" "$debug" "$app" 2>&1); brc=$?
  wait "$pid"; trc=$?
  printf '%s\n' "$out" >"$tmp/$cfg.host"
  secs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
  cycles=$(sed -n 's/^tsim: cycles \([0-9]*\)$/\1/p' "$tmp/$cfg.err")
  while IFS= read -r line; do
    case $line in
      ok\ every\ cell*) pass "$name on the $cfg model: ${line#ok } (tsim: ${cycles:-?} cycles in all, $((secs / 100)).$((secs % 100)) s)" ;;
      ok\ *) pass "$name on the $cfg model: ${line#ok }" ;;
      FAILED\ *) fail "$name on the $cfg model: ${line#FAILED }" "$(grep -v '^ok\|^FAILED' <<<"$out" | head -n 5)" ;;
    esac
  done <<<"$out"
  [ $brc -eq 0 ] || grep -q '^FAILED' <<<"$out" || fail "$name on the $cfg model: heat_host exits 0" "exit $brc" "$out"
  [ $trc -eq 0 ] || fail "$name on the $cfg model: tsim exits 0" "exit $trc" "$(tail -n 5 "$tmp/$cfg.err")"
}

# A tile: 4 cells a thread, all on one mailbox. A board: one cell a
# thread over its 16 mailboxes, with the DebugLink over TCP as boardctrld
# serves it. A box: the grid over six boards, on the first two mailboxes
# of each (all 16 take 256 cores to boot: 14 s here when quiet, a minute
# when the machine is busy); the cells on other boards are reached through
# routing keys and the board routers' tables.
heat tile "$T/tile/heat.elf" --width 16 --height 16 --steps 20
DEBUG=127.0.0.1:$((20000 + ($$ + 7) % 20000)) heat board "$T/heat.elf" --width 32 --height 32 --steps 20
heat box "$T/heat.elf" --mailboxes 2 --width 16 --height 16 --steps 20
keys=$(sed -n 's/.* \([0-9]*\) routing key, \([0-9]*\) router records.*/\1 \2/p' "$tmp/box.host")
if [ -n "$keys" ] && [ "${keys% *}" -gt 0 ] && [ "${keys#* }" -gt 0 ]; then
  pass "heat on the box model: cells on other boards reached by ${keys% *} routing-key sends a step, ${keys#* } router records"
else
  fail "heat on the box model: cells on other boards reached by routing keys" "$(cat "$tmp/box.host")"
fi
# The same ended by idle detection (POLite's heat-sync): every thread of
# every core takes part, so all cores are booted. On the box that is 384
# cores, 35 to 50 s here: only with HEAT_SYNC_BOX=1 (docs/tinsel-compat.md
# has its figures).
heat tile "$T/tile/heat.elf" --sync --width 16 --height 16 --steps 20
heat board "$T/heat.elf" --sync --width 16 --height 16 --steps 20
[ "${HEAT_SYNC_BOX:-0}" = 0 ] || heat box "$T/heat.elf" --sync --width 16 --height 16 --steps 20
finish
