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

# Unit tests report their own counts; add them in (tests/lib.sh unit).
unit "libc (format, divide, sqrtf)" "$BUILD/bin/test_fwlib"
unit "software double" "$BUILD/bin/test_softdouble"
unit "softswitch core" "$BUILD/bin/test_softswitch"
unit "softswitch core on steps" "$BUILD/bin/test_softswitch_steps"
unit "softswitch core on steps alone (Tinsel's build)" "$BUILD/bin/test_softswitch_only"
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

# Bad input to the tools: a message, a non-zero exit, no crash. The ELF
# reader is sim/elf32.c (tsim's, the host link's, checkelf's and elf2img's);
# each hostile file below is hello.elf or a small image with a .bss,
# patched at one field (docs/limits.md "ELF reader").
printf 'not an elf' > "$tmp/junk.elf"
out=$("$CHECKELF" "$tmp/junk.elf" 2>&1); rc=$?
check "checkelf: junk input" test "$rc" -eq 1 -a "$out" = "checkelf: $tmp/junk.elf: error: not an ELF file"
head -c 100 "$FW/hello.elf" > "$tmp/short.elf"
out=$("$CHECKELF" "$tmp/short.elf" 2>&1); rc=$?
check "checkelf: truncated ELF" test "$rc" -eq 1 -a -n "$out"
"$CHECKELF" >/dev/null 2>&1
check "checkelf: usage" test $? -eq 2
# poke32 FILE OFFSET VALUE: a little-endian word into FILE; poke8 a byte.
poke32() { printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $(($3 & 255)) $((($3 >> 8) & 255)) $((($3 >> 16) & 255)) $((($3 >> 24) & 255)))" |
             dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
poke8() { printf "$(printf '\\%03o' $(($3 & 255)))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
# shdr FILE NAME [FIELD_OFFSET]: the file offset of section NAME's header (plus FIELD_OFFSET).
shdr() {
  local shoff idx
  shoff=$(riscv64-unknown-elf-readelf -h "$1" | awk '/Start of section headers/{print $5}')
  idx=$(riscv64-unknown-elf-readelf -SW "$1" | sed -n "s/^ *\[ *\([0-9]*\)\] $2 .*/\1/p")
  echo $((shoff + idx * 40 + ${3:-0}))
}
# hostile TOOL NAME WANT: TOOL (checkelf or elf2img) on $tmp/NAME.elf exits 1 printing exactly WANT.
hostile() {
  local out rc
  if [ "$1" = checkelf ]; then out=$("$CHECKELF" "$tmp/$2.elf" 2>&1); rc=$?
  else out=$("$BUILD/bin/elf2img" "$tmp/$2.elf" "$tmp/$2.code.img" "$tmp/$2.data.img" 2>&1); rc=$?; fi
  if [ "$rc" -eq 1 ] && [ "$out" = "$3" ]; then pass "$1 refuses $2"
  else fail "$1 refuses $2" "exit $rc (want 1)" "got:  $out" "want: $3"; fi
}
printf 'int big[4];\nint main(void) { big[1] = 3; return big[0]; }\n' > "$tmp/bss.c"
# shellcheck disable=SC2086
$FW_CC $FW_CFLAGS -c "$tmp/bss.c" -o "$tmp/bss.o" && $FW_CC $FW_LDFLAGS "$tmp/bss.o" $FW_LIBS $FW_LDLIBS -o "$tmp/bss.elf"
check "elf2img: an image with a .bss" "$BUILD/bin/elf2img" "$tmp/bss.elf" "$tmp/bss.code.img" "$tmp/bss.data.img"
names=$(shdr "$tmp/bss.elf" .shstrtab)
cp "$tmp/bss.elf" "$tmp/names_nobits.elf"
poke32 "$tmp/names_nobits.elf" $((names + 4)) 8; poke32 "$tmp/names_nobits.elf" $((names + 16)) 0xfffffff0
hostile checkelf names_nobits "checkelf: $tmp/names_nobits.elf: error: section name table (section 14) is SHT_NOBITS: it has no file data"
cp "$tmp/bss.elf" "$tmp/strtab_nobits.elf"
poke32 "$tmp/strtab_nobits.elf" "$(shdr "$tmp/bss.elf" .strtab 4)" 8; poke32 "$tmp/strtab_nobits.elf" "$(shdr "$tmp/bss.elf" .strtab 16)" 0x7ffffff0
hostile elf2img strtab_nobits "elf2img: $tmp/strtab_nobits.elf: error: symbol string table (section 13) is SHT_NOBITS: it has no file data"
cp "$tmp/bss.elf" "$tmp/name_no_nul.elf"
poke8 "$tmp/name_no_nul.elf" $(($(riscv64-unknown-elf-readelf -SW "$tmp/bss.elf" | awk '/\.shstrtab/{print "0x"$5 "+0x" $6}') - 1)) 65
hostile checkelf name_no_nul "checkelf: $tmp/name_no_nul.elf: error: section name table (section 14) does not end in a NUL"
cp "$tmp/bss.elf" "$tmp/name_outside.elf"; poke32 "$tmp/name_outside.elf" "$(shdr "$tmp/bss.elf" .text)" 0x7fffffff
hostile checkelf name_outside "checkelf: $tmp/name_outside.elf: error: section 1: name offset 2147483647 is outside the section name table (165 bytes)"
shoff=$(riscv64-unknown-elf-readelf -h "$tmp/bss.elf" | awk '/Start of section headers/{print $5}')
cp "$tmp/bss.elf" "$tmp/shdr_misaligned.elf"; poke32 "$tmp/shdr_misaligned.elf" 32 $((shoff - 1))
hostile checkelf shdr_misaligned "checkelf: $tmp/shdr_misaligned.elf: error: section header table at offset 0x$(printf %x $((shoff - 1))) with 40-byte entries is not 4-byte aligned"
cp "$tmp/bss.elf" "$tmp/shdr_outside.elf"; poke32 "$tmp/shdr_outside.elf" 32 0xfffffff0
hostile checkelf shdr_outside "checkelf: $tmp/shdr_outside.elf: error: section header table [0xfffffff0, +$(riscv64-unknown-elf-readelf -h "$tmp/bss.elf" | awk '/Number of section headers/{print $5}') x 40 bytes) lies outside the file ($(stat -c %s "$tmp/bss.elf") bytes)"
cp "$tmp/bss.elf" "$tmp/phdr_outside.elf"; poke32 "$tmp/phdr_outside.elf" 28 0x7ffffff0
hostile elf2img phdr_outside "elf2img: $tmp/phdr_outside.elf: error: program header table [0x7ffffff0, +$(riscv64-unknown-elf-readelf -h "$tmp/bss.elf" | awk '/Number of program headers/{print $5}') x 32 bytes) lies outside the file ($(stat -c %s "$tmp/bss.elf") bytes)"
cp "$tmp/bss.elf" "$tmp/symtab_partial.elf"; poke32 "$tmp/symtab_partial.elf" "$(shdr "$tmp/bss.elf" .symtab 20)" 0x13
hostile checkelf symtab_partial "checkelf: $tmp/symtab_partial.elf: error: symbol table .symtab: 19 bytes at offset 0x$(riscv64-unknown-elf-readelf -SW "$tmp/bss.elf" | awk '/\.symtab/{sub(/^0*/, "", $5); print $5}') is not whole aligned 16-byte entries"
text_bytes=$(printf '%x' "$(riscv64-unknown-elf-size -A "$tmp/bss.elf" | awk '$1 == ".text" {print $2}')")
cp "$tmp/bss.elf" "$tmp/text_outside.elf"; poke32 "$tmp/text_outside.elf" "$(shdr "$tmp/bss.elf" .text 16)" 0xffffff00
hostile checkelf text_outside "checkelf: $tmp/text_outside.elf: error: section .text [0xffffff00, +0x$text_bytes) lies outside the file ($(stat -c %s "$tmp/bss.elf") bytes)"
# A .bss of 0xffffffff bytes used to wrap elf2img's 32-bit offset and write forever.
cp "$tmp/bss.elf" "$tmp/bss_wraps.elf"; poke32 "$tmp/bss_wraps.elf" "$(shdr "$tmp/bss.elf" .bss 20)" 0xffffffff
hostile elf2img bss_wraps "elf2img: $tmp/bss_wraps.elf: error: section .bss [0x01800000, +0xffffffff) wraps past the 32-bit address space"
cp "$tmp/bss.elf" "$tmp/bss_too_big.elf"; poke32 "$tmp/bss_too_big.elf" "$(shdr "$tmp/bss.elf" .bss 20)" 0x7f000000
hostile elf2img bss_too_big "elf2img: $tmp/bss_too_big.elf: error: section .bss (0x7f000000 bytes at 0x01800000) does not fit in the DRAM globals [0x01800000, 0x40000000)"
check "elf2img: no data image from a refused ELF" test ! -e "$tmp/bss_too_big.data.img"
cp "$tmp/bss.elf" "$tmp/bss_256m.elf"; poke32 "$tmp/bss_256m.elf" "$(shdr "$tmp/bss.elf" .bss 20)" 0x10000000
hostile elf2img bss_256m "elf2img: $tmp/bss_256m.elf: error: the data image would hold at least 268435456 bytes (with section .bss, 0x10000000 bytes), over elf2img's limit of 16777216 bytes"
cp "$tmp/bss.elf" "$tmp/text_outside_imem.elf"; poke32 "$tmp/text_outside_imem.elf" "$(shdr "$tmp/bss.elf" .text 12)" 0x3000
hostile elf2img text_outside_imem "elf2img: $tmp/text_outside_imem.elf: error: section .text (0x$text_bytes bytes at 0x00003000) does not fit in instruction memory [0x00000000, 0x00002000)"
mkdir -p "$tmp/dir.elf"
hostile checkelf dir "checkelf: $tmp/dir.elf: error: is a directory, not an ELF file"
out=$("$CHECKELF" /dev/zero 2>&1); rc=$?
check "checkelf refuses /dev/zero" test "$rc" -eq 1 -a "$out" = "checkelf: /dev/zero: error: not a regular file (an ELF file must be one)"
out=$("$BUILD/bin/elf2img" /dev/zero "$tmp/z.code.img" "$tmp/z.data.img" 2>&1); rc=$?
check "elf2img refuses /dev/zero" test "$rc" -eq 1 -a "$out" = "elf2img: /dev/zero: error: not a regular file (an ELF file must be one)"
truncate -s 65M "$tmp/huge.elf"
hostile checkelf huge "checkelf: $tmp/huge.elf: error: the file is 68157440 bytes, over the 67108864-byte limit for an ELF file"

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
  # Data caches as on Tinsel (tests/firmware/stale.c): write-back, not
  # coherent. A reader on another core sees memory's old value until the
  # writer flushes, then its own stale line until it flushes too; eviction
  # writes back. --coherent-dcache shows what coherent caches would give.
  stale() { "$BUILD/bin/tsim" --config tile --all-threads --elf "$FW/sim/stale.elf" --quiet "$@" 2>&1; }
  out=$(stale); rc=$?
  if [ $rc -eq 0 ] && grep -qx "stale: 111 111 222 333" <<<"$out"; then
    pass "stale cache: no flush reads 111 (memory), then the reader's own stale line, 222 after both flush, 333 after eviction"
  else fail "stale cache: stale: 111 111 222 333 (exit 0)" "exit $rc" "$out"; fi
  out=$(stale --coherent-dcache); rc=$?
  if [ $rc -eq 0 ] && grep -qx "stale: 222 222 222 333" <<<"$out"; then pass "stale cache: --coherent-dcache sees every store at once"
  else fail "stale cache: --coherent-dcache gives stale: 222 222 222 333" "exit $rc" "$out"; fi
  # The benches below link their own main (which builds the image), the
  # simulator's boot and printf with the softswitch: ss_ring1000 has been 28
  # bytes over the core's 8 KiB since the counted events (45c85c3), the
  # others since the held begins of streamed invocations (issue 18). They
  # test the softswitch, not the budget (checkelf checks the product images,
  # and the softswitch's own size is printed at the end), so they run on the
  # model's enlarged instruction memory.
  # Cycles per local delivery (ss_poll = one send handler + one delivery).
  out=$("$BUILD/bin/tsim" --config core --imem enlarged --elf "$FW/sim/ss_local_bench1.elf" --quiet 2>&1); rc=$?
  check "tsim: softswitch local-delivery bench passes" test "$rc" -eq 0 || echo "$out" | tail -3
  grep "^ss local:" <<<"$out"
  out=$("$BUILD/bin/tsim" --config core --imem enlarged --elf "$FW/sim/ss_local_bench16.elf" --quiet 2>&1); rc=$?
  check "tsim: softswitch local-delivery bench, 16 threads" test "$rc" -eq 0 || echo "$out" | tail -3
  grep "^ss local:" <<<"$out"
  # 1000 devices on one thread: every one sends 2 and receives 2 (checked on the device).
  out=$("$BUILD/bin/tsim" --config core --imem enlarged --max-cycles 40000000 --elf "$FW/sim/ss_ring1000.elf" --quiet 2>&1); rc=$?
  check "tsim: 1000 devices in one thread" test "$rc" -eq 0 || echo "$out" | tail -3
  grep "^ss local:" <<<"$out"
  # Over the mailbox: all 64 threads of a tile, termination by tinselIdle.
  for net in ring mcast flood ping; do
    out=$("$BUILD/bin/tsim" --config tile --all-threads --max-cycles 20000000 --imem enlarged --elf "$FW/sim/ss_net_$net.elf" --quiet 2>&1); rc=$?
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

# Every function of the device's one list (op2_device_fns.def) compiles
# through the C++ headers, links as op2c links an image (firmware/lib's
# libm.o, then libfw and picolibc as a group, libgcc) and passes checkelf.
fwflags=$(grep -v '^-std=' "$BUILD/lib/firmware/cflags")
libs=$(sed -n '/^LIBS$/,$p' "$BUILD/lib/firmware/ldflags" | tail -n +2)
# shellcheck disable=SC2086  # one flag per word
if riscv64-unknown-elf-g++ $fwflags -std=c++17 -fno-exceptions -fno-rtti -Ifirmware/include/c++ -Ifirmware/include \
     -c tests/firmware/every_device_fn.cpp -o "$tmp/every.o" >"$tmp/every.log" 2>&1 &&
   riscv64-unknown-elf-gcc -march=rv32imf -mabi=ilp32f -nostdlib -nostartfiles -static -Wl,--gc-sections \
     -Wl,--entry=op2_every_device_fn -Wl,-Ttext=0x240 "$tmp/every.o" "$FW/lib/libm.o" $libs -o "$tmp/every.elf" \
     >>"$tmp/every.log" 2>&1; then
  check "every function kernels may call links and runs on real Tinsel (checkelf)" \
    "$CHECKELF" --quiet --budget 0x40000000 "$tmp/every.elf"
else
  fail "every function kernels may call compiles and links" "$(cat "$tmp/every.log")"
fi

# Figures: the softswitch's own code size (reported, not a test).
ss_text=$(riscv64-unknown-elf-size -A "$FW/softswitch/softswitch.o" | awk '$1 ~ /^\.text/ {s += $2} END {print s}')
echo "softswitch alone: $ss_text bytes of .text (of $(sed -n 's/^#define TinselAppInstrBytes \([0-9]*\)/\1/p' "$FW_GEN/tinsel_config.h"))"

finish
