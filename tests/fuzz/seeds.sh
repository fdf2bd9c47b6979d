# tests/fuzz/seeds.sh: sourced by run.sh and fuzz.sh (from the top of the
# tree). tests/fuzz/NAME/seeds lists, one glob per line (# comments), files
# of the tree that seed harness NAME as they are, instead of copies in
# tests/fuzz/NAME/corpus/ that would drift from them.

# seeds_into NAME DIR: DIR holds a copy of each seed (named by its path).
seeds_into() {
  local list=tests/fuzz/$1/seeds f
  rm -rf "$2"
  mkdir -p "$2"
  [ -f "$list" ] || return 0
  # shellcheck disable=SC2013  # globs, word-split on purpose
  for f in $(sed -e 's/#.*//' "$list"); do
    [ -f "$f" ] && cp "$f" "$2/$(echo "$f" | tr / _)"
  done
}

# existing DIR...: the DIRs that exist and hold a file.
existing() {
  local d
  for d in "$@"; do [ -n "$(find "$d" -maxdepth 1 -type f 2>/dev/null | head -n 1)" ] && echo "$d"; done
}
