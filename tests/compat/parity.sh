#!/usr/bin/env bash
# tests/compat/parity.sh: do our headers offer Tinsel 0.8.3's whole
# application surface? For every name in tests/compat/parity.list, a use of
# it is compiled against firmware/include as device C and C++ (riscv64 gcc
# and g++ with Tinsel's own flags, $BUILD/tests/compat/tinsel_flags) and,
# for the names shared with host code, as host C and C++, which are also run
# for the run-time checks. One PASS/FAIL line per name. Reads BUILD
# (default build).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib.sh
BUILD=${BUILD:-build}
GEN=$BUILD/gen/boards/cluster   # Tinsel's config.h describes the cluster
flags_file=$BUILD/tests/compat/tinsel_flags
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in "$GEN/tinsel_config.h" "$flags_file"; do
  [ -e "$f" ] || { fail "built: $f" "run make BUILD=$BUILD all"; finish; exit; }
done
read -r -a tinsel_flags < "$flags_file"

# The list: NAME | WHERE | USE (NAME may itself hold a "|": operator|).
names=() wheres=() uses=()
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  names+=("${line%% | *}")
  rest=${line#* | }
  wheres+=("${rest%% | *}")
  uses+=("${rest#* | }")
done < tests/compat/parity.list
n=${#names[@]}

# write_uses DIR INDEX...: DIR/parity_uses.inc, line k the k-th given use.
write_uses() {
  local dir=$1 i use table=""; shift
  mkdir -p "$dir"
  : > "$dir/parity_uses.inc"
  for i in "$@"; do
    use=${uses[$i]}
    if [[ $use == global:* ]]; then
      printf '%s static int parity_use_%d(void) { return 0; }\n' "${use#global: }" "$i"
    else
      printf 'static int parity_use_%d(void) { %s return 0; }\n' "$i" "$use"
    fi >> "$dir/parity_uses.inc"
    table+="parity_use_$i, "
  done
  printf 'static int (*const parity_uses[])(void) = { %s};\n' "$table" >> "$dir/parity_uses.inc"
}

# try LANG WHERE CMD...: compiles (and on the host runs) the uses of the
# names in WHERE with CMD, which ends in the source file; "-I DIR" is added.
# A use that fails is dropped and the rest compiled again, so each verdict
# stands on its own. Sets why[i] for each name that failed.
declare -A why
try() {
  local lang=$1 where=$2 dir=$tmp/$1 out i k tries; shift 2
  local todo=()
  for ((i = 0; i < n; i++)); do [[ $where == *"${wheres[$i]}"* ]] && todo+=("$i"); done
  for ((tries = 0; tries < 8 && ${#todo[@]}; tries++)); do
    write_uses "$dir" "${todo[@]}"
    if out=$("$@" -I "$dir" -o "$dir/out" 2>&1); then
      [[ $lang == host* ]] || return 0
      out=$("$dir/out" 2>&1) || { for i in "${todo[@]}"; do why[$i]+="$lang: exit $?; "; done; return; }
      for k in $out; do why[${todo[$((k - 1))]}]+="$lang: run-time check failed; "; done
      return 0
    fi
    # The lines of parity_uses.inc with errors name the uses that failed.
    local bad=() keep=()
    for k in $(grep -o 'parity_uses\.inc:[0-9]*:[0-9]*: error' <<<"$out" | cut -d: -f2 | sort -un); do
      ((k <= ${#todo[@]})) || continue
      i=${todo[$((k - 1))]}
      bad+=("$i")
      why[$i]+="$lang: $(grep -m1 "parity_uses\.inc:$k:[0-9]*: error" <<<"$out" | sed 's/.*error: //'); "
    done
    if ((${#bad[@]} == 0)); then   # an error elsewhere: every name fails
      for i in "${todo[@]}"; do why[$i]+="$lang: $(grep -m1 error <<<"$out"); "; done
      return
    fi
    for i in "${todo[@]}"; do [[ " ${bad[*]} " == *" $i "* ]] || keep+=("$i"); done
    todo=("${keep[@]}")
  done
}

inc=(-I firmware/include -I "$GEN")
host_inc=(-I "$GEN" -idirafter firmware/include)   # the host's libc headers first
try "device C" dev,host riscv64-unknown-elf-gcc "${tinsel_flags[@]}" -Werror "${inc[@]}" -c tests/compat/parity.c
try "device C++" dev,host riscv64-unknown-elf-g++ "${tinsel_flags[@]}" -DTINSEL -Werror "${inc[@]}" -c tests/compat/parity.cpp
try "host C" host cc -std=c11 -Wall -Wextra -Werror "${host_inc[@]}" tests/compat/parity.c
try "host C++" host c++ -Wall -Wextra -Werror "${host_inc[@]}" tests/compat/parity.cpp

for ((i = 0; i < n; i++)); do
  langs="device C, C++"
  [ "${wheres[$i]}" = host ] && langs+="; host C, C++"
  if [ -z "${why[$i]:-}" ]; then pass "${names[$i]} ($langs)"; else fail "${names[$i]} ($langs)" "${why[$i]}"; fi
done
finish
