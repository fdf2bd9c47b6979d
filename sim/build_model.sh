#!/usr/bin/env bash
# sim/build_model.sh OUT MDIR PKG_SV: build one tsim model (called by
# sim/rules.mk, which exports VERILATOR, VL_FLAGS, VL_OPT (g++ optimisation
# of the generated code), RTL_SRCS, MAIN_CPP,
# CC, CFLAGS, LDFLAGS, DPI_CFLAGS (less Verilator's include directories,
# which this script asks Verilator for), DPI_SRCS (the C files compiled
# against the model's DPI header), COMMON_OBJS, MAKE). Works in a private
# directory and renames the results into place at the end, so two makes
# building the same model at once (several checkouts' worth of agents share
# build/) cannot corrupt each other's objects.
set -euo pipefail
out=$1 mdir=$2 pkg=$3
# make runs this line even under make -n (it names $(MAKE), for the
# jobserver): a dry run only says what it would build.
mkflags=${MAKEFLAGS:-}; mkflags=${mkflags%% *}
if [[ $mkflags != -* && $mkflags == *n* ]]; then
  echo "build_model.sh: would build $out (make -n)"
  exit 0
fi
work="$mdir.tmp.$$"
trap 'rm -rf "$work" "$out.tmp.$$"' EXIT
rm -rf "$work"
mkdir -p "$work" "$(dirname "$out")"
# Asked here, not in the makefiles: make parses them before make deps can
# have installed Verilator (tests/build/fresh.sh).
if ! vl_root=$($VERILATOR --getenv VERILATOR_ROOT 2>/dev/null) || [ -z "$vl_root" ] || [ ! -f "$vl_root/include/verilated.h" ]; then
  echo "build_model.sh: $VERILATOR --getenv VERILATOR_ROOT gave no Verilator include directory (\"${vl_root:-}\"); is verilator installed? (make deps)" >&2
  exit 1
fi
DPI_CFLAGS="$DPI_CFLAGS -I$vl_root/include -I$vl_root/include/vltstd"
# shellcheck disable=SC2086  # flag lists are word-split on purpose
$VERILATOR $VL_FLAGS --Mdir "$work" -o "$(realpath -m "$out.tmp.$$")" "$pkg" $RTL_SRCS "$MAIN_CPP"
dpi_objs=""
for src in $DPI_SRCS; do
  obj="$(realpath "$work")/$(basename "$src" .c).o"
  # shellcheck disable=SC2086
  $CC $CFLAGS $DPI_CFLAGS -I"$work" -c "$src" -o "$obj"
  dpi_objs="$dpi_objs $obj"
done
# shellcheck disable=SC2086
if ! $MAKE --no-print-directory -C "$work" -f Vtsim_top.mk OPT_FAST="$VL_OPT" OPT_GLOBAL="$VL_OPT" VM_PARALLEL_BUILDS=1 USER_CPPFLAGS="-I$PWD/sim $DPI_CFLAGS" USER_LDFLAGS="$LDFLAGS" \
     USER_LDLIBS="$dpi_objs $COMMON_OBJS -lm" >"$work/build.log" 2>&1; then
  tail -n 40 "$work/build.log"
  exit 1
fi
mv -f "$out.tmp.$$" "$out"
rm -rf "$mdir" && mv "$work" "$mdir" || true
