#!/usr/bin/env bash
# op2c's own tests: golden diagnostics (diag/*.cpp against *.expect), golden
# IR dumps (ir/*.cpp against *.ir), protocol dumps (*.protocol), XML output, and the driver's options.
# UPDATE=1 rewrites the golden files from op2c's current output (review the
# diff before committing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$root/tests/lib.sh"
OP2C="$root/${BUILD:-build}/bin/op2c"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

golden() { # name expected actual
  if [ "${UPDATE:-0}" = 1 ]; then cp "$3" "$2"; fi
  check_golden "$1" "$2" "$3"
}

# Diagnostics: op2c must fail with exactly the expected messages.
cd "$here/diag"
for src in *.cpp; do
  name=${src%.cpp}
  "$OP2C" --dump-ir "$src" >/dev/null 2>"$tmp/$name.err"
  rc=$?
  if [ $rc -ne 1 ]; then
    fail "diag/$name" "expected exit status 1, got $rc" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "diag/$name" "$name.expect" "$tmp/$name.err"
done

# Warnings: op2c succeeds and says exactly this.
cd "$here/warn"
for src in *.cpp; do
  name=${src%.cpp}
  if ! "$OP2C" -I ../diag --dump-ir "$src" >/dev/null 2>"$tmp/$name.err"; then
    fail "warn/$name" "op2c failed" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "warn/$name" "$name.expect" "$tmp/$name.err"
done

# Diagnostics of the POETS graph (--emit-xml): limits of the hardware.
cd "$here/graph_diag"
for src in *.cpp; do
  name=${src%.cpp}
  # The mesh declarations are the diagnostics suite's (diag/mesh.h).
  "$OP2C" -I ../diag --emit-xml "$tmp/$name.xml" "$src" >/dev/null 2>"$tmp/$name.err"
  rc=$?
  if [ $rc -ne 1 ]; then
    fail "graph_diag/$name" "expected exit status 1, got $rc" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "graph_diag/$name" "$name.expect" "$tmp/$name.err"
done

# IR dumps of valid programs.
cd "$here/ir"
for src in *.c *.cpp; do
  [ -e "$src" ] || continue
  name=${src%.*}
  if ! "$OP2C" --dump-ir -I include "$src" >"$tmp/$name.ir" 2>"$tmp/$name.err"; then
    fail "ir/$name" "op2c failed" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "ir/$name" "$name.ir" "$tmp/$name.ir"
done

# Protocol lowering (seed 000) of the same programs.
for src in *.c *.cpp; do
  name=${src%.*}
  if ! "$OP2C" --dump-protocol -I include "$src" >"$tmp/$name.protocol" 2>"$tmp/$name.err"; then
    fail "protocol/$name" "op2c failed" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "protocol/$name" "$name.protocol" "$tmp/$name.protocol"
done

# Loop-chain analysis (docs/schedule.md) of the same programs, of airfoil
# (dp and sp are the same program shape) and of the op2 suite's
# dependence programs (tests/op2/dep_*.cpp, which run on every engine).
schedule_golden() { # name dir source [op2c options]
  local name=$1 dir=$2 src=$3; shift 3
  if (cd "$dir" && "$OP2C" --dump-schedule "$@" "$src") >"$tmp/$name.schedule" 2>"$tmp/$name.err"; then
    golden "schedule/$name" "$here/ir/$name.schedule" "$tmp/$name.schedule"
  else
    fail "schedule/$name" "op2c failed" "$(cat "$tmp/$name.err")"
  fi
}
for src in *.c *.cpp; do
  schedule_golden "${src%.*}" . "$src" -I include
done
schedule_golden airfoil "$root/apps/airfoil/dp" airfoil.cpp
for src in "$root"/tests/op2/dep_*.cpp; do
  schedule_golden "$(basename "$src" .cpp)" "$root/tests/op2" "$(basename "$src")"
done

# --transform (docs/transform.md) on tests/op2/fuse_chain.cpp: the legal
# scripts' schedules (fused invocations), the illegal ones' errors, each
# naming what forbids it; the fused program on seq and on the tinsel
# functional and softswitch engines gives the unfused results (its own
# replay); a fused call in a branch of its own stops the program.
tdir=$here/transform
for tf in "$tdir"/*.tf; do
  name=$(basename "$tf" .tf)
  [ "$name" = branch ] && continue
  (cd "$root" && "$OP2C" --dump-schedule --transform "tests/compiler/transform/$name.tf" -I tests/op2 \
     tests/op2/fuse_chain.cpp) >"$tmp/tf.out" 2>"$tmp/tf.err"
  rc=$?
  case $name in
  err_*) if [ $rc -ne 1 ]; then fail "transform/$name" "expected exit status 1, got $rc"
         else golden "transform/$name" "$tdir/$name.expect" "$tmp/tf.err"; fi ;;
  *) if [ $rc -ne 0 ]; then fail "transform/$name" "op2c failed" "$(cat "$tmp/tf.err")"
     else golden "transform/$name" "$tdir/$name.schedule" "$tmp/tf.out"; fi ;;
  esac
done
for tf in all chain; do
  for target in seq tinsel; do
    if (cd "$root" && "$OP2C" --target $target -O2 ${TEST_CFLAGS:-} --gen-dir "$tmp/fc_$tf$target.gen" \
          --transform "tests/compiler/transform/$tf.tf" -I tests/op2 -o "$tmp/fc_$tf$target" tests/op2/fuse_chain.cpp) \
          >"$tmp/fc.build" 2>&1; then
      engines=$([ $target = seq ] && echo seq || echo "functional softswitch")
      for e in $engines; do
        check "transform/$tf: fused fuse_chain PASSED on $e" \
          bash -c "cd '$tmp' && OP2_TINSEL_ENGINE=$e ./fc_$tf$target | grep -qx 'fuse_chain PASSED'"
      done
    else
      fail "transform/$tf: fuse_chain builds for $target" "$(tail -5 "$tmp/fc.build")"
    fi
  done
done
if "$OP2C" -O2 ${TEST_CFLAGS:-} --transform "$tdir/branch.tf" -o "$tmp/branch" "$tdir/branch.cpp" >"$tmp/br.build" 2>&1; then
  (cd "$tmp" && ./branch) >"$tmp/br.out" 2>&1
  check "transform/branch: a fused call that ran alone stops the program" bash -c "[ $? -eq 1 ] &&
    grep -q 'op2: fused loop fused_twice_once: call 2 of 2 ran after call 0' '$tmp/br.out'"
else
  fail "transform/branch builds" "$(tail -5 "$tmp/br.build")"
fi
"$OP2C" --transform "$tmp/no_such.tf" "$tdir/branch.cpp" >"$tmp/nr.out" 2>&1
check "transform/unreadable script: an error" bash -c "[ $? -eq 1 ] && grep -q 'cannot read transform script' '$tmp/nr.out'"

# Reads through the same map slot sharing a message: the program the op2
# suite also runs on every engine.
if "$OP2C" --dump-protocol "$root/tests/op2/merged_reads.cpp" >"$tmp/merged_reads.protocol" 2>"$tmp/merged_reads.err"; then
  golden "protocol/merged_reads" merged_reads.protocol "$tmp/merged_reads.protocol"
else
  fail "protocol/merged_reads" "op2c failed" "$(cat "$tmp/merged_reads.err")"
fi

# An element's writes sharing a message (write groups), the same way.
if "$OP2C" --dump-protocol "$root/tests/op2/merged_writes.cpp" >"$tmp/merged_writes.protocol" 2>"$tmp/merged_writes.err"; then
  golden "protocol/merged_writes" merged_writes.protocol "$tmp/merged_writes.protocol"
else
  fail "protocol/merged_writes" "op2c failed" "$(cat "$tmp/merged_writes.err")"
fi

# The POETS graph type (XML v4) of the same programs.
for src in scanner.cpp; do
  name=${src%.*}
  if ! "$OP2C" --emit-xml "$tmp/$name.graph.xml" -I include "$src" 2>"$tmp/$name.err"; then
    fail "graph/$name" "op2c failed" "$(cat "$tmp/$name.err")"
    continue
  fi
  golden "graph/$name" "$name.graph.xml" "$tmp/$name.graph.xml"
done

# Conformance (poets_check, docs/graph-type.md): the graph XML goldens and
# freshly written airfoil graph types follow the rules of graph_schema's
# readers (type alone: the instance is the runtime's, tests/tinsel/run.sh);
# files that break a rule fail with FILE:LINE: error: lines.
CHECK="$root/${BUILD:-build}/bin/poets_check"
RNG="$root/compiler/tools/poets-v4-op2c.rng" # the same files against our RELAX NG schema (xmllint)
# The handlers, shared code and OnInit compile in the scope graph_schema's
# generated code gives them (poets_check --code): as C++ (the language of
# their simulators), and C sources' as C too.
code_compiles() { # name xml source
  if ! "$CHECK" --type-only --code "$tmp/code.c" "$2" >"$tmp/code.err" 2>&1; then
    fail "conform/$1: code" "poets_check --code failed" "$(cat "$tmp/code.err")"
  elif ! ${CXX:-c++} -std=gnu++17 -fsyntax-only -x c++ "$tmp/code.c" >"$tmp/code.err" 2>&1; then
    fail "conform/$1: code compiles as C++" "$(head -20 "$tmp/code.err")"
  else
    pass "conform/$1: code compiles as C++"
    if [ "${3##*.}" = c ]; then
      check "conform/$1: code compiles as C" ${CC:-cc} -std=c11 -fsyntax-only -Werror=implicit-function-declaration \
        -x c "$tmp/code.c"
    fi
  fi
}
for xml in *.graph.xml; do
  check "conform/$xml" "$CHECK" --type-only "$xml"
  check "conform/$xml: RELAX NG" xmllint --noout --relaxng "$RNG" "$xml"
  code_compiles "$xml" "$xml" scanner.cpp
done
for v in sp dp; do
  if "$OP2C" --emit-xml "$tmp/airfoil_$v.graph.xml" "$root/apps/airfoil/$v/airfoil.cpp" 2>"$tmp/airfoil.err"; then
    check "conform/airfoil_$v graph type" "$CHECK" --type-only "$tmp/airfoil_$v.graph.xml"
    check "conform/airfoil_$v graph type: RELAX NG" xmllint --noout --relaxng "$RNG" "$tmp/airfoil_$v.graph.xml"
    code_compiles "airfoil_$v" "$tmp/airfoil_$v.graph.xml" airfoil.cpp
  else
    fail "conform/airfoil_$v graph type" "op2c failed" "$(cat "$tmp/airfoil.err")"
  fi
done
# Every OP2 test program's graph type too, but airfoil_direct.cpp (the
# oracle: no op_par_loop) and overlay.cpp (op2c refuses op_decl_dat_overlay
# on POETS).
for src in "$root"/tests/op2/*.cpp "$root"/tests/op2/*.c; do
  name=$(basename "${src%.*}")
  case $name in airfoil_direct|overlay) continue ;; esac
  if "$OP2C" --emit-xml "$tmp/op2_$name.graph.xml" "$src" 2>"$tmp/op2.err"; then
    check "conform/op2/$name graph type" "$CHECK" --type-only "$tmp/op2_$name.graph.xml"
    # opt_arg: its kernel counts in a host global, which the tinsel target refuses (tests/tinsel).
    [ $name = opt_arg ] || code_compiles "op2/$name" "$tmp/op2_$name.graph.xml" "$src"
  else
    fail "conform/op2/$name graph type" "op2c failed" "$(cat "$tmp/op2.err")"
  fi
done
# The schema rejects what we do not write: a device type whose State is
# missing (here renamed), an element it does not know.
rng_reject() { # name expected-substring file
  if xmllint --noout --relaxng "$RNG" "$3" >"$tmp/rng.out" 2>&1; then fail "conform/RELAX NG rejects $1" "xmllint accepted it"
  elif grep -qF -- "$2" "$tmp/rng.out"; then pass "conform/RELAX NG rejects $1"
  else fail "conform/RELAX NG rejects $1" "expected: $2" "got: $(cat "$tmp/rng.out")"; fi
}
sed '0,/<State>/s/<State>/<Status>/; 0,/<\/State>/s/<\/State>/<\/Status>/' scanner.graph.xml >"$tmp/nostate.xml"
rng_reject "a DeviceType without State" "fails to validate" "$tmp/nostate.xml"
sed '0,/<MessageTypes>/s/<MessageTypes>/<Bogus\/><MessageTypes>/' scanner.graph.xml >"$tmp/bogus.xml"
rng_reject "an unknown element" "Bogus" "$tmp/bogus.xml"
reject() { # name expected-substring file [option]
  local name=$1 want=$2 xml=$3; shift 3
  "$CHECK" "$@" "$xml" >"$tmp/check.out" 2>&1; local rc=$?
  if [ $rc -eq 1 ] && grep -qF -- "$want" "$tmp/check.out"; then pass "conform/rejects $name"
  else fail "conform/rejects $name" "exit $rc; expected: $want" "got: $(cat "$tmp/check.out")"; fi
  # The streaming reader (--stream, and files over 64 MiB) says the same.
  "$CHECK" --stream "$@" "$xml" >"$tmp/stream.out" 2>&1; local src=$?
  if [ $src -eq $rc ] && cmp -s "$tmp/check.out" "$tmp/stream.out"; then pass "conform/rejects $name, streaming"
  else fail "conform/rejects $name, streaming" "exit $src, tree $rc" "$(diff "$tmp/check.out" "$tmp/stream.out")"; fi
}
sed 's/int32_t gbl3\[1\];]]><\/Message>/int gbl3[1];]]><\/Message>/' scanner.graph.xml >"$tmp/int.xml"
reject "int in a declaration" "$tmp/int.xml:89: error: declaration: 'int' is not a type graph_schema's readers accept" \
  "$tmp/int.xml" --type-only
sed '/<ExternalType/,/<\/ExternalType>/{/<Properties\/>/d}' scanner.graph.xml >"$tmp/noprops.xml"
reject "an ExternalType without Properties" "error: ExternalType 'controller' has no <Properties>" "$tmp/noprops.xml" --type-only
sed 's/int32_t flux_1_idx/int32_t int32_total; int32_t flux_1_idx/; s/uint16_t maybe_write_recv_total;/uint16_t maybe_write_recv_total; uint8_t structure;/' \
  scanner.graph.xml >"$tmp/prefix.xml"
reject "a member name a type name starts" "member name 'structure' starts with 'struct'" "$tmp/prefix.xml" --type-only
reject "a type without its instance" "error: Graphs has no GraphInstance" scanner.graph.xml
# An instance with a named initialiser, one value short, and an edge to a missing pin.
sed '/<\/Graphs>/d' scanner.graph.xml >"$tmp/inst.xml"
cat >>"$tmp/inst.xml" <<'EOF'
  <GraphInstance id="i" graphTypeId="op2_scanner" P="{{1.5, 2, -3e-2, 4}}">
    <DeviceInstances>
      <ExtI id="host" type="controller"/>
      <DevI id="n0" type="set_nodes" P="{.index = 0}"/>
      <DevI id="n1" type="set_nodes" P="{1, 2, 2, 0, 0}"/>
      <DevI id="n2" type="set_nodes" P="{2, 1, 1, 0, 0, 70000}"/>
    </DeviceInstances>
    <EdgeInstances>
      <EdgeI path="n0:flux_1_begin-host:flux_1_begin"/>
      <EdgeI path="n0:no_such_pin-host:flux_1_begin"/>
    </EdgeInstances>
  </GraphInstance>
</Graphs>
EOF
reject "a named initialiser" "P of device 'n0': '.index' is not a decimal integer for int32_t 'index'" "$tmp/inst.xml"
reject "an initialiser one value short" "P of device 'n1': expected ',' before 'maybe_write_recv_total', got '}'" "$tmp/inst.xml"
reject "a value out of range" "P of device 'n2': 70000 is out of the range of uint16_t 'maybe_write_recv_total'" "$tmp/inst.xml"
reject "an edge to a missing pin" "edge 'n0:no_such_pin-host:flux_1_begin': device type 'set_nodes' has no input pin 'no_such_pin'" "$tmp/inst.xml"
check "conform/only those four: the rest of that instance passes" test "$(grep -c ': error: ' "$tmp/check.out")" -eq 4
"$CHECK" /nonexistent.xml 2>"$tmp/check.out"
check "conform/an unreadable file: exit 2" test $? -eq 2

# The seq back end: each valid program checks its own results.
for src in *.c *.cpp; do
  name=${src%.*}
  if "$OP2C" -I include ${TEST_CFLAGS:-} -o "$tmp/$name" "$src" 2>"$tmp/$name.err"; then
    check "seq/$name" "$tmp/$name"
  else
    fail "seq/$name" "op2c failed" "$(cat "$tmp/$name.err")"
  fi
done

# XML: well-formed (libxml2's xmllint is not assumed), with the kernel source.
cd "$here/ir"
if "$OP2C" --emit-ir-xml "$tmp/scanner.xml" -I include scanner.cpp &&
   grep -q '<op2-ir version="1">' "$tmp/scanner.xml" &&
   grep -q '<func name="flux" role="kernel"' "$tmp/scanner.xml" &&
   grep -q 'CDATA\[inline void flux' "$tmp/scanner.xml"; then
  pass "xml/scanner"
else
  fail "xml/scanner" "$(head -c 2000 "$tmp/scanner.xml" 2>/dev/null)"
fi
if "$OP2C" --emit-ir-xml /nonexistent/dir/x.xml -I include scanner.cpp 2>"$tmp/xml.err"; then
  fail "xml/unwritable" "op2c succeeded writing to a missing directory"
else
  check "xml/unwritable" grep -q "cannot open '/nonexistent/dir/x.xml' for writing" "$tmp/xml.err"
fi

# XML 1.0 cannot carry control characters or bytes that are not UTF-8, and
# "]]>" ends a CDATA section: a kernel's comment holding it is split across
# two sections; a name or source with such a byte is an error, not a file
# no parser reads.
kernel_src() { # comment set-name
  printf 'inline void k(double *a) { /* %s */ *a = 1; }\nop_set s;\nvoid run(double *x) {\n' "$1"
  printf '  s = op_decl_set(2, "%s");\n  op_dat d = op_decl_dat(s, 1, "double", x, "d");\n' "$2"
  printf '  op_par_loop(k, "k", s, op_arg_dat(d, -1, OP_ID, 1, "double", OP_RW));\n}\n'
}
kernel_src ']]>' s >"$tmp/cdata_end.c"
if "$OP2C" --emit-ir-xml "$tmp/cdata_end.xml" "$tmp/cdata_end.c" && grep -qF '/* ]]]]><![CDATA[> */' "$tmp/cdata_end.xml"; then
  pass "xml/cdata-end-in-source"
else
  fail "xml/cdata-end-in-source" "$(grep -F 'CDATA' "$tmp/cdata_end.xml" 2>/dev/null)"
fi
kernel_src x 's\001' >"$tmp/control_name.c"
kernel_src "caf$(printf '\351')" s >"$tmp/latin1_source.c"

# Driver.
expect_fail() { # name expected-substring args...
  local name=$1 want=$2; shift 2
  if "$OP2C" "$@" >"$tmp/out" 2>&1; then
    fail "driver/$name" "op2c $* succeeded"
  elif grep -qF -- "$want" "$tmp/out"; then
    pass "driver/$name"
  else
    fail "driver/$name" "expected: $want" "got: $(cat "$tmp/out")"
  fi
}
check "driver/help" bash -c "'$OP2C' --help | grep -q 'usage: op2c'"
check "driver/targets" bash -c "'$OP2C' -t '?' | grep -q '^seq '"
# --gen-dir DIR is made when missing (OP2's users name a fresh one), and a
# path that cannot be a directory is an error naming it.
check "driver/gen-dir-made" "$OP2C" --target seq ${TEST_CFLAGS:-} --gen-dir "$tmp/newgen" -o "$tmp/newgen.exe" "$root/tests/op2/arg_idx.cpp"
check "driver/gen-dir-has-translation" test -s "$tmp/newgen/0_arg_idx.cpp"
: >"$tmp/afile"
expect_fail gen-dir-file "op2c: error: cannot create --gen-dir '$tmp/afile/x'" --target seq ${TEST_CFLAGS:-} --gen-dir "$tmp/afile/x" \
  -o "$tmp/x.exe" "$root/tests/op2/arg_idx.cpp"
expect_fail no-sources "op2c: error: no source files"
# --dump-schedule analyses only a program the front end accepts: its errors, exit 1.
expect_fail schedule-needs-valid-program "idx_range.cpp:7:31: error: idx 2 is outside the range of map 'pedge'" \
  --dump-schedule "$here/diag/idx_range.cpp"
check "driver/help-dump-schedule" bash -c "'$OP2C' --help | grep -q '^  --dump-schedule '"
# More dependences than it lists (docs/limits.md): 1500 loops on one dat make 1.1 million.
{ printf '#include "op_seq.h"\ninline void k(int *a) { *a += 1; }\nint main(int argc, char **argv) {\n'
  printf '  op_init(argc, argv, 1);\n  op_set s = op_decl_set(2, "s");\n  op_dat d = op_decl_dat(s, 1, "int", NULL, "d");\n'
  for _ in $(seq 1500); do echo '  op_par_loop(k, "k", s, op_arg_dat(d, -1, OP_ID, 1, "int", OP_RW));'; done
  printf '  return 0;\n}\n'; } >"$tmp/many_deps.cpp"
expect_fail schedule-too-many-deps "many_deps.cpp: more than 1048576 dependences between invocations; --dump-schedule lists at most that many" \
  --dump-schedule "$tmp/many_deps.cpp"
expect_fail unknown-option "op2c: error: unknown option '--frobnicate'" --frobnicate x.cpp
expect_fail unknown-target "op2c: error: unknown target 'gpu'" -t gpu x.cpp
expect_fail missing-file "op2c: error: cannot read 'no_such_file.cpp': No such file or directory" no_such_file.cpp
expect_fail missing-value "op2c: error: option '-o' needs a value" scanner.cpp -o
expect_fail xml-control-char "op2c: error: cannot write '$tmp/x.xml': the value of attribute 'name' has byte 0x01 at offset 1, which XML cannot carry" --emit-ir-xml "$tmp/x.xml" "$tmp/control_name.c"
expect_fail xml-not-utf8 "op2c: error: cannot write '$tmp/g.xml': a text section (source code) has byte 0xe9 at offset" --emit-xml "$tmp/g.xml" "$tmp/latin1_source.c"
# Sources that are not regular files, or too large (docs/limits.md): refused
# before reading (op2c /dev/zero never returned).
expect_fail not-regular "op2c: error: cannot read '/dev/zero': not a regular file" --dump-ir /dev/zero
expect_fail directory "op2c: error: cannot read '$here': is a directory" --dump-ir "$here"
truncate -s 17M "$tmp/huge.cpp"
expect_fail too-large "op2c: error: cannot read '$tmp/huge.cpp': larger than 16777216 bytes (17825792)" --dump-ir "$tmp/huge.cpp"
# More tokens in one source than the budget (2097152): 'a;' 1.1 million times.
yes 'a;' | head -n 1100000 >"$tmp/tokens.c"
expect_fail too-many-tokens "error: more than 2097152 tokens in the translation unit (sources, headers and macro expansions)" --dump-ir "$tmp/tokens.c"

finish
