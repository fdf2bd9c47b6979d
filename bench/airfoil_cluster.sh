#!/usr/bin/env bash
# bench/airfoil_cluster.sh: issue 19 item 5, the full-size run. airfoil sp
# on the 48-board cluster configuration on tsim's fast engine (apps/sim.sh:
# the OP2 tinsel executable with OP2_TINSEL_ENGINE=sim, then seq on the same
# mesh and iterations, PASSED or FAILED), under /usr/bin/time -v, stopped
# after LIMIT seconds if it has not finished. Prints every line of the run
# with the time of day, then a summary: each tsim run (the OP2 program
# starts one per load of the instance: five in airfoil's first iteration)
# with its last simulated cycle, messages and wall time from the fast
# engine's progress lines; the peak resident memory of each process (its
# VmHWM, sampled every 5 s: mpirun's ranks too); the outcome.
#
# Reads BUILD (default build), MESH (default $BUILD/meshes/naca_400x600.dat,
# made with meshgen 400 600 when missing), ITERS (1), RANKS (2; empty: one
# process, no mpirun), LIMIT (1800 s), NICE (5), OUT (a directory to keep
# the log, run.log, and the memory samples, mem.log; default a temporary
# one, removed). Needs $BUILD/bin/{airfoil_sp_tinsel,airfoil_sp,tsim,
# tsim-fast-board,meshgen} and $BUILD/fw/boot.elf. Not part of make bench
# (it takes LIMIT): run it by hand. sim/README.md "The full-size run".
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
bin=$BUILD/bin
mesh=${MESH:-$BUILD/meshes/naca_400x600.dat}
limit=${LIMIT:-1800}
for f in "$bin/airfoil_sp_tinsel" "$bin/airfoil_sp" "$bin/tsim" "$bin/tsim-fast-board" "$BUILD/fw/boot.elf"; do
  [ -e "$f" ] || { echo "bench: $f is missing (make BUILD=$BUILD it first)" >&2; exit 2; }
done
if [ ! -s "$mesh" ]; then
  mkdir -p "$(dirname "$mesh")"
  echo "bench: generating $mesh (meshgen 400 600)"
  "$bin/meshgen" 400 600 -o "$mesh" >/dev/null || { echo "bench: meshgen 400 600 failed" >&2; exit 1; }
fi
if [ -n "${OUT:-}" ]; then
  mkdir -p "$OUT" && out=$OUT
else
  out=$(mktemp -d) && trap 'rm -rf "$out"' EXIT
fi
log=$out/run.log
mem=$out/mem.log
: >"$mem"

# The run, its own process group under timeout (which stops the whole group
# at LIMIT: the OP2 program stops its tsim, mpirun its ranks).
export APP=airfoil VARIANT=sp EXE=$bin/airfoil_sp_tinsel SEQ=$bin/airfoil_sp MESH=$mesh ITERS=${ITERS:-1} \
  PRINT_EVERY=1 CONFIG=cluster ENGINE=fast OP2_TINSEL_STATS=1 OP2_TINSEL_TSIM=$PWD/$bin/tsim
if [ -n "${RANKS-2}" ]; then export RANKS=${RANKS-2}; else unset RANKS; fi
start=$(date +%s)
# Every line stamped with the time of day as it comes (the progress lines
# carry none).
stamp() { while IFS= read -r l; do printf '%(%T)T %s\n' -1 "$l"; done; }
timeout -s TERM "$limit" /usr/bin/time -v nice -n "${NICE:-5}" apps/sim.sh > >(stamp >"$log") 2>&1 &
run=$!

# Every 5 s, each descendant's VmHWM (kB), name and pid.
descendants() {
  ps -eo pid=,ppid= | awk -v root="$1" '{ parent[$1] = $2 }
    END { for (p in parent) for (q = p; q in parent; q = parent[q]) if (q == root) { print p; break } }'
}
while kill -0 "$run" 2>/dev/null; do
  for p in $(descendants "$run"); do
    h=$(awk '/^VmHWM/ { print $2 }' "/proc/$p/status" 2>/dev/null)
    n=$(awk '{ print $2 }' "/proc/$p/stat" 2>/dev/null)
    [ -n "$h" ] && echo "$p $n $h" >>"$mem"
  done
  sleep 5
done
wait "$run"
rc=$?
end=$(date +%s)

sleep 1 # the stamper's last lines
cat "$log"

echo
echo "bench: airfoil sp, $(head -c 200 "$mesh" | awk 'NR == 1 { print $2 " cells"; exit }'), cluster (48 boards)," \
     "$([ -n "${RANKS:-}" ] && echo "$RANKS MPI ranks" || echo "one process"), ITERS=${ITERS:-1}, limit $limit s"
# tsim runs: a progress cycle lower than the one before starts a new run;
# its wall time from its first to its last progress line.
awk 'function secs(t, a) { split(t, a, ":"); return a[1] * 3600 + a[2] * 60 + a[3] }
     function show(s) { printf "  tsim run %d: last progress cycle %d, %d messages, %.0f s of wall between its first and last progress lines\n", n, last, lastm, s }
     $2 == "tsim:" && $3 == "progress:" && $4 == "cycle" { c = $5 + 0; m = $9 + 0; t = secs($1)
       if (!seen || c < last) { if (seen) show(tl - t0); n++; t0 = t }
       if (t < t0) t += 86400
       last = c; lastm = m; tl = t; seen = 1 }
     $2 == "simulated" && $3 == "cycles" { total = $4 }
     END { if (seen) show(tl - t0)
           if (total) printf "  simulated cycles (the OP2 summary, every run) %d\n", total }' "$log"
echo "  peak resident memory (VmHWM, sampled every 5 s):"
sort -k3,3n "$mem" | awk '{ peak[$2] = $3 > peak[$2] ? $3 : peak[$2]; pid[$2] = $1 }
  END { for (n in peak) printf "    %-22s %7.0f MB\n", n, peak[n] / 1024 }' | sort
grep -E 'Maximum resident|Elapsed \(wall' "$log" | sed -E 's/^[0-9:]+\s+/  \/usr\/bin\/time: /'
echo "  wall $((end - start)) s; exit status $rc$([ $rc = 124 ] && echo " (stopped at the limit: not finished, no check against seq)")"
grep -qE " PASSED$" "$log" && echo "  PASSED against seq"
exit $([ $rc = 0 ] && echo 0 || echo 1)
