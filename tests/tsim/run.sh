#!/usr/bin/env bash
# tests/tsim/run.sh: the runner's own behaviour: argument errors, ELF errors,
# tohost exit codes, --max-cycles, the tinsel/full profile split, halts,
# all threads of a tile, and --trace. Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
tsim=$BUILD/bin/tsim
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=riscv64-unknown-elf-gcc
get() { "$BUILD/bin/boardgen" --config core --get "$1"; }  # a parameter of configuration core

# build NAME SOURCE [CPPFLAGS...]: link a test program for configuration core.
build() {
  local name=$1 src=$2; shift 2
  printf 'INCLUDE %s\nINCLUDE %s\n' "$PWD/$BUILD/gen/boards/core/tinsel.ld" "$PWD/tests/tsim/link.ld" > "$tmp/link.ld"
  $CC -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -x assembler-with-cpp -I"$BUILD/gen/boards/core" "$@" \
    -T "$tmp/link.ld" "tests/tsim/$src" -o "$tmp/$name.elf" 2>"$tmp/cc.err" \
    || fail "build $name" "$(cat "$tmp/cc.err")"
}

# expect NAME WANT_RC WANT_STDERR_REGEX ARGS...: run tsim; check exit status
# and that some stderr line matches the (extended) regex.
expect() {
  local name=$1 want_rc=$2 want=$3 rc; shift 3
  "$tsim" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
  if [ "$rc" -eq "$want_rc" ] && grep -Eq -- "$want" "$tmp/err"; then pass "$name"
  else fail "$name" "exit $rc (want $want_rc), want stderr matching: $want" "$(head -n 5 "$tmp/err")"; fi
}

build pass exit.S
build code7 exit.S -DVALUE=7
build code0 exit.S -DVALUE=0
build big exit.S -DVALUE=0x1001
build spin exit.S -DSPIN
build notohost exit.S -DNO_TOHOST
build fartext exit.S -Wl,--section-start=.text=0x3000
build fardata exit.S -Wl,--section-start=.data=0x90000000
build div profile.S -DCHECK=14
build mulh profile.S '-DOP=mulh a0, a1, a2' -DCHECK=0
build misaligned profile.S '-DOP=lw a0, 1(a3)' -DCHECK=0xf0123456
build unmapped profile.S '-DOP=lui a3, 0x90000; lw a0, 0(a3)'
build csrrs profile.S '-DOP=csrrs a0, 0xf14, zero' -DCHECK=0
build busy busy.S -DITERS=50 -DNTHREADS=64
build fpu busy.S -DITERS=5 -DNTHREADS=16
build illegal profile.S "-DOP=.word 0xffffffff"
build ecall profile.S -DOP=ecall
build fmin profile.S "-DOP=fmin.s fa0, fa1, fa2"
build fmadd profile.S "-DOP=fmadd.s fa0, fa1, fa2, fa3"
build csrbad profile.S "-DOP=csrrw a0, 0x7c0, zero"
build jumpout profile.S "-DOP=jr a3"
build newthread newthread.S -Wl,--section-start=.text=0
build loop loop.S
build loopmul loop.S "-DBODY=mul t2, t1, t1"
build loopfdiv loop.S "-DBODY=fdiv.s f1, f2, f3"
build looplw loop.S "-DBODY=lw t2, 0(a0)" "-DINIT=la a0, tohost"

# Argument errors: exit 64 and say what is wrong.
elf=$tmp/pass.elf
expect "no arguments" 64 '^tsim: missing --config$'
expect "unknown option" 64 '^tsim: unknown option --frob$' --frob
expect "missing value" 64 '^tsim: missing value for --elf$' --config core --elf
expect "unknown configuration" 64 '^tsim: unknown configuration "rack" \(expected core, tile, board, box or cluster\)$' --config rack --elf "$elf"
expect "unknown profile" 64 '^tsim: unknown profile "rv64" \(expected tinsel or full\)$' --config core --elf "$elf" --profile rv64
expect "bad --max-cycles" 64 '^tsim: --max-cycles wants a positive integer, not "10k"$' --config core --elf "$elf" --max-cycles 10k
expect "missing --elf" 64 '^tsim: missing --elf$' --config core
expect "usage line" 64 '^usage: tsim --config core\|tile\|board\|box\|cluster --elf FILE' --config core

# ELF errors: exit 65, naming the file.
expect "missing file" 65 "^tsim: $tmp/none.elf: error: cannot open: No such file or directory$" --config core --elf "$tmp/none.elf"
echo "not an elf" > "$tmp/text.elf"
expect "not an ELF" 65 "^tsim: $tmp/text.elf: error: not an ELF file$" --config core --elf "$tmp/text.elf"
cp "$elf" "$tmp/x86.elf" && printf '\003\000' | dd of="$tmp/x86.elf" bs=1 seek=18 conv=notrunc status=none
expect "not RISC-V" 65 "error: not a RISC-V ELF \(e_machine 3\)$" --config core --elf "$tmp/x86.elf"
head -c 100 "$elf" > "$tmp/short.elf"
expect "truncated ELF" 65 "error: (program|section) header table \[0x[0-9a-f]+, \+[0-9]+ x (32|40) bytes\) lies outside the file \(100 bytes\)$" --config core --elf "$tmp/short.elf"
# The reader is shared with checkelf and elf2img (tests/firmware has the hostile ELF cases).
expect "directory as ELF" 65 "^tsim: $tmp: error: is a directory, not an ELF file$" --config core --elf "$tmp"
expect "/dev/zero as ELF" 65 "^tsim: /dev/zero: error: not a regular file \(an ELF file must be one\)$" --config core --elf /dev/zero
expect "text outside instruction memory" 65 "error: section \.text \[0x00003000, 0x[0-9a-f]{8}\) lies outside instruction memory \[0, 0x2000\)$" --config core --elf "$tmp/fartext.elf"
expect "data outside every region" 65 "error: section \.data \[0x90000000, 0x90000004\) lies outside every memory region" --config core --elf "$tmp/fardata.elf"
# No tohost (sim/README.md "Runs without tohost"): said at load; a thread
# that spins forever is neither killed nor idle, so --max-cycles ends it.
expect "no tohost: said at load" 124 "no symbol tohost: the run ends when every thread is killed or the board is idle" \
  --config core --elf "$tmp/notohost.elf" --max-cycles 5000
expect "no tohost: --max-cycles names the missing end" 124 \
  '^tsim: error: --max-cycles 5000 exceeded without every thread killed or idle \(the program has no tohost\)$' \
  --config core --elf "$tmp/notohost.elf" --max-cycles 5000

# tohost: 1 passes; V fails with V>>1, capped at 63, never 0.
expect "tohost 1 passes" 0 '^tsim: PASS \(tohost = 1\) after [0-9]+ cycles$' --config core --elf "$elf"
expect "tohost 7 exits 3" 3 '^tsim: FAIL \(tohost = 7, code 3\) after [0-9]+ cycles$' --config core --elf "$tmp/code7.elf"
expect "tohost 0 exits 1" 1 '^tsim: FAIL \(tohost = 0, code 0\)' --config core --elf "$tmp/code0.elf"
expect "tohost 0x1001 exits 63" 63 '^tsim: FAIL \(tohost = 4097, code 2048\)' --config core --elf "$tmp/big.elf"
expect "--max-cycles exceeded" 124 '^tsim: error: --max-cycles 1000 exceeded without a store to tohost$' --config core --elf "$tmp/spin.elf" --max-cycles 1000
expect "statistics" 0 '^tsim: core 0: retired 4 idle [0-9]+ susp-mem 1 susp-fpu 0 susp-mailbox 0 retry 0$' --config core --elf "$elf"
expect "--quiet has no statistics" 0 'PASS' --config core --elf "$elf" --quiet
check "--quiet: no statistics lines" sh -c "! grep -q 'tsim: cycles' '$tmp/err'"

# Profiles: tinsel halts naming the instruction and pc; full runs it.
pc() { printf '0x%08x' "0x$(riscv64-unknown-elf-nm "$tmp/$1.elf" | awk '$3 == "culprit" {print $1}')"; }
expect "div halts under tinsel" 125 "^tsim: board 0, core 0, thread 0, pc $(pc div): instruction 0x02c5c533 \(div\): not in profile tinsel$" --config core --elf "$tmp/div.elf"
expect "div runs under full" 0 'PASS' --config core --elf "$tmp/div.elf" --profile full
expect "mulh runs under tinsel" 0 'PASS' --config core --elf "$tmp/mulh.elf"
expect "csrrs halts under tinsel" 125 "pc $(pc csrrs): instruction 0xf1402573 \(csrrs\): not in profile tinsel$" --config core --elf "$tmp/csrrs.elf"
expect "csrrs reads HartId under full" 0 'PASS' --config core --elf "$tmp/csrrs.elf" --profile full
expect "misaligned lw halts under tinsel" 125 "pc $(pc misaligned): instruction 0x0016a503 \(lw\): misaligned address 0x[0-9a-f]{8}: not in profile tinsel$" --config core --elf "$tmp/misaligned.elf"
expect "misaligned lw works under full" 0 'PASS' --config core --elf "$tmp/misaligned.elf" --profile full
expect "unmapped address halts" 125 "\(lw\): address 0x90000000 is in no memory region$" --config core --elf "$tmp/unmapped.elf" --profile full

expect "illegal instruction halts" 125 "pc $(pc illegal): instruction 0xffffffff \(illegal\): illegal instruction$" --config core --elf "$tmp/illegal.elf" --profile full
expect "ecall halts under tinsel" 125 "\(ecall\): not in profile tinsel$" --config core --elf "$tmp/ecall.elf"
expect "ecall is a no-op under full" 0 PASS --config core --elf "$tmp/ecall.elf" --profile full
expect "fmin.s halts under tinsel" 125 "\(fmin.s\): not in profile tinsel$" --config core --elf "$tmp/fmin.elf"
expect "fmadd.s halts under tinsel" 125 "\(fmadd.s\): not in profile tinsel$" --config core --elf "$tmp/fmadd.elf"
expect "fmadd.s runs under full" 0 PASS --config core --elf "$tmp/fmadd.elf" --profile full
expect "unknown CSR halts" 125 "\(csrrw\): unknown CSR 0x7c0$" --config core --elf "$tmp/csrbad.elf"
expect "pc outside instruction memory halts" 125 "^tsim: board 0, core 0, thread 0, pc 0x01800004: outside instruction memory \[0, 0x2000\)$" --config core --elf "$tmp/jumpout.elf"
expect "NewThread and KillThread" 0 PASS --config core --elf "$tmp/newthread.elf"

# Threads: all 64 threads of a tile run and meet; the dispatcher picks the model.
expect "all threads of a tile" 0 'PASS' --config tile --elf "$tmp/busy.elf" --all-threads
expect "tile has 4 cores" 0 '^tsim: core 3: retired [1-9][0-9]* ' --config tile --elf "$tmp/busy.elf" --all-threads
expect "one thread started: the others wait forever" 124 'max-cycles' --config core --elf "$tmp/fpu.elf" --max-cycles 20000

# Memories: instruction writes through CSRs; the interleaved DRAM alias.
logpart=$(get LogBytesPerDRAMPartition); logline=$(get LogBytesPerLine)
partbits=$((30 - logpart))
# Partition 1, line 1, byte 4 of the alias is line 1 << partbits | partition 1 of the upper half.
iaddr=$(( 0xc0000000 + (1 << logpart) + (1 << logline) + 4 ))
uaddr=$(( 0x40000000 + (1 << (logline + partbits)) + (1 << logline) + 4 ))
build memories memories.S -DIWORD=$(( $(get InstrsPerCore) - 64 )) -DIADDR=$iaddr -DUADDR=$uaddr
expect "imem via CSRs 0x800/0x801; interleaved alias = upper DRAM" 0 PASS --config core --elf "$tmp/memories.elf"

# Timing: one thread issues every PipelineStages cycles; a suspended one
# waits the unit latency on top (boards/tinsel.cfg).
stages=$(get PipelineStages)
cycles() { "$tsim" --config core --elf "$tmp/$1.elf" 2>&1 | sed -n "s/^tsim: cycles //p"; }
within() { # NAME GOT WANT: GOT in [WANT, WANT + 64)
  if [ -n "$2" ] && [ "$2" -ge "$3" ] && [ "$2" -lt $(($3 + 64)) ]; then pass "$1"; else fail "$1" "cycles $2, want $3 .. $(($3 + 63))"; fi
}
within "one thread: an instruction every PipelineStages cycles" "$(cycles loop)" $((2000 * stages))
within "mul adds IntMultLatency" "$(cycles loopmul)" $((1000 * (3 * stages + $(get IntMultLatency))))
within "fdiv.s adds FPDivLatency" "$(cycles loopfdiv)" $((1000 * (3 * stages + $(get FPDivLatency))))
within "lw hit adds DCacheHitLatency (one miss)" "$(cycles looplw)" $((1000 * (3 * stages + $(get DCacheHitLatency)) + $(get DRAMLatency)))

# The scratchpad has its own port (ports.S): loads split between it and the
# data cache take under 3/4 of the cycles of the same loads all through the
# cache (about 0.63 on a tile); the fast engine's estimate is exact here.
build ports ports.S -DITERS=200 -DNTHREADS=64
build ports_split ports.S -DITERS=200 -DNTHREADS=64 -DSPLIT
tcycles() { "$tsim" --engine "$1" --config tile --elf "$tmp/$2.elf" --all-threads 2>&1 | sed -n "s/^tsim: cycles //p"; }
shared=$(tcycles cycle ports) split=$(tcycles cycle ports_split)
if [ -n "$shared" ] && [ -n "$split" ] && [ $((4 * split)) -lt $((3 * shared)) ]; then
  pass "scratchpad and data cache: two ports ($split cycles split, $shared through the cache)"
else
  fail "scratchpad and data cache: two ports" "cycles $split split, $shared through the cache: want split < 3/4"
fi
fshared=$(tcycles fast ports) fsplit=$(tcycles fast ports_split)
check "scratchpad port: the fast engine's estimate is the cycle model's ($fsplit, $fshared)" \
  test "$fsplit:$fshared" = "$split:$shared"

# Cycle-exactness (sim/README.md, "Performance"): the models skip the work
# of idle cores, tiles, meshes and routers; a run must still give the same
# cycles, counters and per-thread values. Goldens recorded with the model
# before that optimisation: clocks.S (staggered threads on every core read
# CSRs Cycle and CPUIdleCount, then one thread runs alone) on a tile and a
# board, and messages with a delay seed (tests/router/msgbench.c on a board).
# UPDATE=1 rewrites them: only for a deliberate change of timing.
build clocks clocks.S
exact() { # NAME CONFIG ELF ARGS...: statistics (file and stderr) and output against tests/tsim/golden/NAME.txt
  local name=$1 c=$2 elf=$3; shift 3
  if [ ! -f "$elf" ]; then fail "cycle-exact: $name" "missing $elf (make SAN=1 BUILD=$BUILD all)"; return; fi
  "$tsim" --config "$c" --elf "$elf" --stats-file "$tmp/$name.stats" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  { grep -v -e '^host-cpu-seconds' -e '^host\.wait' "$tmp/$name.stats"
    grep -E '^tsim: (PASS|FAIL|cycles|core [0-9]+:|tile [0-9]+ (cache|mailbox):|messages:)' "$tmp/$name.err"
    grep -E " thread (0|5|15): " "$tmp/$name.out"; } >"$tmp/$name.txt"  # a few threads per core
  check_golden "cycle-exact: $name" "tests/tsim/golden/$name.txt" "$tmp/$name.txt"
}
exact clocks_tile tile "$tmp/clocks.elf" --all-threads
exact clocks_board board "$tmp/clocks.elf" --all-threads --delay-seed 9
exact msgbench_all_board_seed3 board "$BUILD/tests/router/bench_all-board.elf" --all-threads --delay-seed 3

# The dispatcher without its models.
mkdir -p "$tmp/bin" && cp "$tsim" "$tmp/bin/tsim"
tsim_saved=$tsim; tsim=$tmp/bin/tsim
expect "dispatcher: missing model" 126 "^tsim: no model for configuration tile \($tmp/bin/tsim-tile: No such file or directory\): run make$" --config tile --elf "$elf"
expect "dispatcher: missing trace model" 126 "tsim-board-trace: No such file or directory\): run make tsim-traces$" --config board --elf "$elf" --trace "$tmp/x.fst"
tsim=$tsim_saved

# Trace: an FST file appears.
expect "--trace runs" 0 'PASS' --config core --elf "$elf" --trace "$tmp/wave.fst"
check "--trace writes the FST file" test -s "$tmp/wave.fst"

finish
