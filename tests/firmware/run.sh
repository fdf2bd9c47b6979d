#!/usr/bin/env bash
# tests/firmware/run.sh: the firmware/ suite. Host unit tests of the libc
# and the softswitch; checkelf on every firmware image the build made (the
# proof that they run on real Tinsel); checkelf rejecting each instruction
# Tinsel lacks and an over-budget image; the boot loader's limits; elf2img.
# Reads BUILD (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
FW=$BUILD/fw
CHECKELF=$BUILD/bin/checkelf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Unit tests report their own counts; add them in.
unit() { # NAME EXE
  local out rc
  out=$("$2" 2>&1); rc=$?
  echo "$out" | grep '^FAIL' | sed 's/^/    /'
  if [[ $(echo "$out" | tail -n 1) =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    T_PASS=$((T_PASS + BASH_REMATCH[1])); T_FAIL=$((T_FAIL + BASH_REMATCH[2]))
    echo "$1: ${BASH_REMATCH[1]} checks passed, ${BASH_REMATCH[2]} failed"
    [ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -ne 0 ] || fail "$1" "exit $rc"
  else
    fail "$1" "exit $rc, no count line" "$out"
  fi
}
unit "libc (format, divide, sqrtf)" "$BUILD/bin/test_fwlib"
unit "software double" "$BUILD/bin/test_softdouble"
unit "softswitch core" "$BUILD/bin/test_softswitch"
unit "boot loader protocol" "$BUILD/bin/test_boot"

# Every image the build produced fits real Tinsel.
check "boot loader: <= 576 bytes, .text only" "$CHECKELF" --boot "$FW/boot.elf"
for elf in "$FW"/*.elf; do
  [ "$(basename "$elf")" = boot.elf ] && continue
  check "checkelf $(basename "$elf")" "$CHECKELF" "$elf"
done

# Build small images with the firmware flags (plus the twist under test).
. "$FW/fw_flags.sh"
build() { # NAME EXTRA_CFLAGS C_SOURCE
  printf '%s\n' "$3" > "$tmp/$1.c"
  # shellcheck disable=SC2086
  $FW_CC $FW_CFLAGS $2 -c "$tmp/$1.c" -o "$tmp/$1.o" &&
    $FW_CC $FW_LDFLAGS "$tmp/$1.o" $FW_LIBS $FW_LDLIBS -o "$tmp/$1.elf"
}
# rejects NAME EXPECTED_TEXT: checkelf fails on $tmp/NAME.elf and says EXPECTED_TEXT.
rejects() {
  local out rc
  out=$("$CHECKELF" "$tmp/$1.elf" 2>&1); rc=$?
  if [ $rc -ne 0 ] && grep -qF -- "$2" <<<"$out"; then pass "checkelf rejects $1"
  else fail "checkelf rejects $1" "exit $rc, want a line with: $2" "$out"; fi
}

# Flags that matter: -mno-div, -ffp-contract=off and -fno-builtin keep
# ordinary C on Tinsel's subset; undo each and checkelf must notice.
div_src='int main(void) { volatile int a = 7, b = 2; return a / b + a % b; }'
fma_src='float f(float a, float b, float c) { return a * b + c; }
int main(void) { volatile float x = 1.5f; return (int)f(x, x, x); }'
sqrt_src='int main(void) { volatile float x = 2.0f; return (int)__builtin_sqrtf(x); }'
if build div_ok "" "$div_src"; then check "C division builds with -mno-div" "$CHECKELF" "$tmp/div_ok.elf"
else fail "C division builds with -mno-div"; fi
build div "-mdiv" "$div_src" && rejects div "<main+0x"
rejects div "div (0x"
rejects div "no hardware divide"
build fma "-ffp-contract=fast" "$fma_src" && rejects fma "fmadd.s (0x"
build fsqrt "-fno-math-errno" "$sqrt_src" && rejects fsqrt "fsqrt.s (0x"
build sqrt_ok "" 'float sqrtf(float);
int main(void) { volatile float x = 2.0f; return (int)sqrtf(x); }' &&
  check "sqrtf is software" "$CHECKELF" "$tmp/sqrt_ok.elf"
# double is software (ours, not libgcc's, which uses csrrs and div).
build double_ok "" '#include <math.h>
volatile double a = 2.0, b = 3.0; volatile float f = 1.5f; volatile int i = 7; volatile long long l = 9;
int main(void) { double x = a + b - a * b / a; float g = (float)x + f; int c = (a < b) + (a == b) + (a >= b);
  return (int)(sqrt(x) + g + c + i + (double)l + (unsigned)b + (long long)a); }' &&
  check "double builds to Tinsel instructions only" "$CHECKELF" "$tmp/double_ok.elf"
# Every function of the Tinsel API exists with the reference's signature, and
# all of it compiles to instructions Tinsel has.
if build api "-Werror" "$(cat tests/firmware/api.c)"; then check "tinsel.h: the whole API builds and passes checkelf" "$CHECKELF" "$tmp/api.elf"
else fail "tinsel.h: the whole API builds"; fi
# The softswitch main with its optional statistics printout still builds.
# shellcheck disable=SC2086
if $FW_CC $FW_CFLAGS -DSS_PRINT_STATS -Werror -c firmware/softswitch/main.c -o "$tmp/main_stats.o"; then
  pass "softswitch main builds with -DSS_PRINT_STATS"
else fail "softswitch main builds with -DSS_PRINT_STATS"; fi
# Instructions gcc would only emit from assembly.
for case in "csrrs:csrr a0, 0xc00:Tinsel implements only csrrw" \
            "ecall:ecall:ecall" "ebreak:ebreak:ebreak" \
            "fminmax:fmin.s fa0, fa0, fa1:fmin.s" "fclass:fclass.s a0, fa0:fclass.s" \
            "double:.word 0x02b57553:no D extension" "compressed:.2byte 0x0001; .2byte 0x0001:compressed" \
            "amo:.word 0x0005202f:no A extension"; do
  IFS=: read -r name insn want <<<"$case"
  build "$name" "" "void __attribute__((noinline)) bad_$name(void) { __asm__ volatile(\"$insn\"); }
int main(void) { bad_$name(); return 0; }" && rejects "$name" "<bad_$name+0x"
  rejects "$name" "$want"
done
# fcvt.wu.s only warns (Tinsel converts as signed).
build fcvtwu "" 'int main(void) { volatile float x = 3.0f; return (int)(unsigned)x; }'
out=$("$CHECKELF" "$tmp/fcvtwu.elf" 2>&1)
if [ $? -eq 0 ] && grep -q 'warning.*fcvt.wu.s' <<<"$out"; then pass "fcvt.wu.s warns"; else fail "fcvt.wu.s warns" "$out"; fi

# Over the instruction budget: the sizes in the message.
build big "" 'int main(void) { __asm__ volatile(".rept 2000\n nop\n .endr"); return 0; }'
rejects big ".text is"
rejects big "over the 7616-byte instruction budget per core pair by"
out=$("$CHECKELF" --budget 100000 "$tmp/big.elf" 2>&1)
check "--budget raises the limit (an enlarged imem model)" test $? -eq 0

# The boot loader may not have data.
printf 'int counter = 5;\nvoid boot_main(void) { for (;;) counter++; }\n' > "$tmp/bootdata.c"
$FW_CC $FW_CFLAGS -c "$tmp/bootdata.c" -o "$tmp/bootdata.o"
$FW_CC -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -static -L"$FW_GEN" -Tfirmware/link/boot.ld \
  "$FW/boot/entry.S.o" "$tmp/bootdata.o" -o "$tmp/bootdata.elf"
out=$("$CHECKELF" --boot "$tmp/bootdata.elf" 2>&1)
if [ $? -ne 0 ] && grep -q 'data section .data' <<<"$out"; then pass "boot loader with data rejected"
else fail "boot loader with data rejected" "$out"; fi

# Bad input to the tools: a message, a non-zero exit, no crash.
printf 'not an elf' > "$tmp/junk.elf"
out=$("$CHECKELF" "$tmp/junk.elf" 2>&1); rc=$?
check "checkelf: junk input" test "$rc" -eq 1 -a "$out" = "checkelf: $tmp/junk.elf: not an ELF file"
head -c 100 "$FW/hello.elf" > "$tmp/short.elf"
out=$("$CHECKELF" "$tmp/short.elf" 2>&1); rc=$?
check "checkelf: truncated ELF" test "$rc" -eq 1 -a -n "$out"
"$CHECKELF" >/dev/null 2>&1
check "checkelf: usage" test $? -eq 2

# elf2img: code at the app base, one word per line, matching .text; data
# holds the read-only strings (in DRAM) and the zeroed bss.
"$BUILD/bin/elf2img" "$FW/hello.elf" "$tmp/code.img" "$tmp/data.img"
text_bytes=$(riscv64-unknown-elf-size -A "$FW/hello.elf" | awk '$1==".text"{print $2}')
check "code image starts at the app base" test "$(head -n 1 "$tmp/code.img")" = "@00000240"
check "code image has every .text word" test "$(grep -vc '^@' "$tmp/code.img")" -eq $(((text_bytes + 3) / 4))
first_word=$(riscv64-unknown-elf-objdump -d "$FW/hello.elf" | awk '/^ *240:/{print $2; exit}')
check "code image word 0 is the entry's first instruction" test "$(sed -n 2p "$tmp/code.img")" = "$first_word"
check "data image is at the DRAM globals" grep -qx "@$(printf '%08x' "$(sed -n 's/^#define TinselDRAMBase \(0x[0-9a-f]*\).*/\1/p' "$FW_GEN/tinsel_config.h")")" "$tmp/data.img"
# "hell" of "hello from thread", little-endian.
check "data image holds the strings" grep -qx 6c6c6568 "$tmp/data.img"

# On the cycle model (sim/README.md): the 16 threads of a core run tinsel.h
# and the libc through the real boot entry; thread 0 prints on the debug link.
if [ -x "$BUILD/bin/tsim" ]; then
  out=$("$BUILD/bin/tsim" --config core --elf "$FW/sim/smoke.elf" --quiet 2>&1); rc=$?
  check "tsim smoke: PASS" test "$rc" -eq 0
  if grep -q "^smoke: thread 0x0 of 16: .*sqrtf(2) 0x3fb504f3, ok$" <<<"$out"; then pass "tsim smoke: report on the debug link"
  else fail "tsim smoke: report on the debug link" "$out"; fi
  n=$(grep -o "^emit: core 0 thread [0-9]*: 0x000000[0-9a-f]*" <<<"$out" | awk '{t=$5; sub(":","",t); if (sprintf("0x%08x", t) == $6) n++} END {print n+0}')
  check "tsim smoke: 16 threads, each with its own tinselId ($n)" test "$n" -eq 16
  # Cycles per local delivery (ss_poll = one send handler + one delivery).
  out=$("$BUILD/bin/tsim" --config core --elf "$FW/sim/ss_local_bench1.elf" --quiet 2>&1); rc=$?
  check "tsim: softswitch local-delivery bench passes" test "$rc" -eq 0
  grep "^ss local:" <<<"$out"
  out=$("$BUILD/bin/tsim" --config core --elf "$FW/sim/ss_local_bench16.elf" --quiet 2>&1); rc=$?
  check "tsim: softswitch local-delivery bench, 16 threads" test "$rc" -eq 0
  grep "^ss local:" <<<"$out"
  # 1000 devices on one thread: every one sends 2 and receives 2 (checked on the device).
  out=$("$BUILD/bin/tsim" --config core --max-cycles 40000000 --elf "$FW/sim/ss_ring1000.elf" --quiet 2>&1); rc=$?
  check "tsim: 1000 devices in one thread" test "$rc" -eq 0
  grep "^ss local:" <<<"$out"
  # Over the mailbox: all 64 threads of a tile, termination by tinselIdle.
  for net in ring mcast flood ping; do
    out=$("$BUILD/bin/tsim" --config tile --all-threads --max-cycles 20000000 --elf "$FW/sim/ss_net_$net.elf" --quiet 2>&1); rc=$?
    check "tsim: softswitch over the mailbox, $net, 64 threads" test "$rc" -eq 0
    grep "^ss net" <<<"$out" || echo "$out" | tail -n 3
  done
  # Across a whole board (16 mailboxes on the NoC, 1024 threads;
  # tests/firmware/ss_board.c): each receiving device checks that every
  # message came exactly once from the right sender. The board model runs
  # ~0.1-0.2 M cycles/s here, so the all-to-all reaches 4 threads of every
  # mailbox (65536 deliveries, ~9 s) rather than all 1024 (a million, -DPEERS=64);
  # the 1000-device fan-out is 2 messages (~1300 cycles per delivery, ~24 s).
  board_elf() { # NAME FLAGS: build ss_board.c into $tmp/NAME.elf
    # shellcheck disable=SC2086
    $FW_CC $FW_CFLAGS $2 -c tests/firmware/ss_board.c -o "$tmp/$1.o" &&
      $FW_CC -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -static -Wl,--gc-sections -L"$FW_GEN" \
        -Ttests/firmware/sim.ld "$FW/boot/entry.S.o" "$FW/sim/sim_boot_all.o" "$FW/softswitch/softswitch.o" \
        "$tmp/$1.o" $FW_LIBS $FW_LDLIBS -o "$tmp/$1.elf"
  }
  # --imem enlarged: the harness (its checks, printf) and the softswitch,
  # compiled for speed without -msave-restore, exceed a core pair's 8 KiB;
  # what must fit real Tinsel is each OP2 image (op2c checks it, checkelf
  # below) and the softswitch alone (its size is printed at the end).
  board_run() { "$BUILD/bin/tsim" --config board --all-threads --max-cycles 20000000 --imem enlarged \
                  --elf "$tmp/$1.elf" --quiet 2>&1; }
  for case in "ring:-DMODE=0 -DSENDS=4" "all-to-all:-DMODE=1 -DSENDS=1 -DPEERS=4" \
              "fan-out to 1000 devices:-DMODE=2 -DSENDS=2 -DFAN_DEVICES=1000"; do
    IFS=: read -r name flags <<<"$case"
    if board_elf board "$flags"; then
      out=$(board_run board); rc=$?
      check "tsim: softswitch across a board, $name, 1024 threads" test "$rc" -eq 0
      grep "^ss board" <<<"$out" || echo "$out" | tail -n 3
    else fail "build the board test image ($name)"; fi
  done
  # The check can fail: one thread sends sequence number 0 twice (and never 1);
  # its receiver (thread 765 in the ring) must see it.
  if board_elf board_dup "-DMODE=0 -DSENDS=4 -DDUPLICATE_FROM=700"; then
    out=$(board_run board_dup); rc=$?
    if [ "$rc" -ne 0 ] && grep -q "^ss board ring.* 1 failed threads$" <<<"$out"; then
      pass "tsim: board ring notices a duplicated message"
    else fail "tsim: board ring notices a duplicated message" "exit $rc" "$out"; fi
  else fail "build the board test image (duplicate)"; fi
else
  fail "tsim smoke" "no $BUILD/bin/tsim (make all builds it)"
fi

# Figures: the softswitch's own code size (reported, not a test).
ss_text=$(riscv64-unknown-elf-size -A "$FW/softswitch/softswitch.o" | awk '$1 ~ /^\.text/ {s += $2} END {print s}')
echo "softswitch alone: $ss_text bytes of .text (of $(sed -n 's/^#define TinselAppInstrBytes \([0-9]*\)/\1/p' "$FW_GEN/tinsel_config.h"))"

finish
