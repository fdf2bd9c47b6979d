# tests/op2/model_runs.sh: the OP2 test programs on the cycle model, sourced
# by tests/op2/run.sh (make test: every program on a tile and a board, a
# representative few on a box) and tests/op2/model.sh (make test-op2-model:
# every program on all three). Needs tests/lib.sh, $bin, $tmp and
# TEST_CFLAGS.
#
# Engine sim: the tinsel executable starts tsim itself (--config tile,
# board or box) with random message delays (tsim --delay-seed; each run its
# own seed). Each program checks itself against what seq computes: exactly
# where the order of INC contributions cannot matter, within op2_check.h's
# relative tolerance where it can (floating-point sums in another order),
# so PASSED means it agrees with seq. The tile has its own thread layout,
# so every program is also built with op2c --fw-config tile.

# The programs, one per line: NAME SOURCE. opt_arg and overlay are not
# among them: a kernel counting in a host global and dats sharing storage
# cannot run on devices (tests/tinsel checks op2c's errors).
model_programs() {
  local src
  for src in $(ls tests/op2/*.cpp tests/op2/*.c | grep -v airfoil_direct); do
    case $(basename "${src%.*}") in opt_arg|overlay) continue ;; esac
    echo "$(basename "${src%.*}") $src"
  done
}

# while_loop on the model: its Jacobi iterations stop at a residual of
# 1e-4 instead of 1e-12 (OP2_WHILE_TOL; the replay it is checked against
# uses the same threshold): 70 host-driven iterations instead of 293, each
# two invocations of ~40-50k cycles of device work (soft-double kernels and
# the softswitch's per-invocation protocol on 23 threads; the host round
# trips add ~1.1k cycles each: tsim's quiet wait), ~0.2 s of wall time per
# iteration on the tile model.
model_defines() { # NAME
  case $1 in while_loop) echo "-DOP2_WHILE_TOL=1e-4" ;; esac
}

# model_build NAME SOURCE: DIR/NAME_tinsel and its firmware for the board
# layout and the tile's, DIR being shared_dir: built once in make test,
# where tests/tinsel runs the same executables on the host's engines
# (tests/lib.sh shared_build). dp kernels need the enlarged instruction
# memory (op2c says so; the engine then runs tsim --imem enlarged).
model_op2c() { # NAME SOURCE DIR
  local name=$1 src=$2 dir=$3 imem
  imem=$(grep -q '"double"' "$src" && echo enlarged || echo real)
  # shellcheck disable=SC2046
  "$bin/op2c" --target tinsel --imem $imem --fw-config tile -O2 ${TEST_CFLAGS:-} $(model_defines "$name") \
    --gen-dir "$dir/$name.gen" -o "$dir/${name}_tinsel" "$src" >"$dir/$name.build" 2>&1
}
# model_exe NAME SOURCE LINK: model_build's executable, under the name LINK
# of a suite that runs it as its own (a symbolic link; the executable finds
# its firmware through /proc/self/exe). The build's status.
model_exe() {
  local dir
  dir=$(shared_dir)
  shared_build "model_$1" model_op2c "$1" "$2" "$dir" || return
  [ "$dir/${1}_tinsel" = "$3" ] || ln -sfn "$dir/${1}_tinsel" "$3"
}
model_build() {
  local name=$1 src=$2 dir
  dir=$(shared_dir)
  if ! shared_build "model_$name" model_op2c "$name" "$src" "$dir"; then
    fail "op2 $name builds for the tinsel target (board and tile firmware)" "$(tail -5 "$dir/$name.build")"
    return 1
  fi
}

# Begins: the engine's default (one routing-key send per invocation, which
# the board router fans out; OP2_TINSEL_BEGIN=threads: one per thread).
model_begin() { # CONFIG
  echo "${OP2_TINSEL_BEGIN:-key}"
}

# Seconds a run may take: while_loop's 140 invocations on the six-board box
# model take over 600 s (63 s on the board model).
model_timeout() { # NAME CONFIG
  case $1:$2 in while_loop:box) echo "${OP2_MODEL_TIMEOUT:-2400}" ;; *) echo "${OP2_MODEL_TIMEOUT:-600}" ;; esac
}

MODEL_SEED=0
# model_run NAME CONFIG: one run on the CONFIG model with the next seed.
model_run() {
  local name=$1 cfg=$2 out rc t0 cs
  MODEL_SEED=$((MODEL_SEED + 1))
  t0=${EPOCHREALTIME/./}
  out=$(cd "$tmp" && OP2_TINSEL_ENGINE=sim OP2_TINSEL_CONFIG=$cfg OP2_TINSEL_DELAY_SEED=$MODEL_SEED \
        OP2_TINSEL_BEGIN=$(model_begin "$cfg") \
        timeout "$(model_timeout "$name" "$cfg")" "$(shared_dir)/${name}_tinsel" 2>&1); rc=$?
  cs=$(( (${EPOCHREALTIME/./} - t0) / 10000 ))
  local what="op2 $name on the $cfg model (delay seed $MODEL_SEED, begin by $(model_begin "$cfg"), $((cs / 100)).$(printf %02d $((cs % 100))) s)"
  if [ $rc -eq 0 ] && grep -q "^$name PASSED$" <<<"$out" && grep -q "^op2 tinsel: summary (sim engine on $cfg" <<<"$out"; then
    pass "$what"
  else
    fail "$what" "exit $rc" "$(tail -25 <<<"$out")"
  fi
}

# model_suite CONFIGS BOX_SUBSET: every program on each of CONFIGS; on
# box, only the programs named in BOX_SUBSET ("all": every one); not the
# NAME:CONFIG pairs listed in MODEL_SKIP.
model_suite() {
  local configs=$1 subset=$2 name src cfg
  echo "op2 opt_arg: not on the model (its kernel counts in a host global; tests/tinsel checks op2c refuses it)"
  while read -r name src; do
    model_build "$name" "$src" || continue
    for cfg in $configs; do
      if [ "$cfg" = box ] && [ "$subset" != all ] && ! grep -qw "$name" <<<"$subset"; then continue; fi
      if grep -qw -- "$name:$cfg" <<<"${MODEL_SKIP:-}"; then
        echo "op2 $name on the $cfg model: in make test-op2-model only (time)"; continue
      fi
      model_run "$name" "$cfg"
    done
  done < <(model_programs)
}
