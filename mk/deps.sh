#!/usr/bin/env bash
# Check that every Debian package in mk/packages.txt is installed; install the
# missing ones with apt-get when root, otherwise print the exact command.
# --dry-run (make -n): say what is missing and the command, install nothing.
set -euo pipefail
dry=0
[ "${1:-}" = --dry-run ] && dry=1
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t pkgs < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/packages.txt" | awk '{print $1}')

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "deps: not a Debian system; make sure these are installed: ${pkgs[*]}" >&2
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ $status == "install ok installed" ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#pkgs[@]} packages present"
  exit 0
fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ $dry -eq 1 ]; then
  echo "deps: missing packages: ${missing[*]} (dry run; would run: apt-get update && $cmd)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps: missing packages: ${missing[*]}" >&2
  echo "deps: run as root:  apt-get update && $cmd" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd >/dev/null
echo "deps: installed ${#missing[@]} packages"
