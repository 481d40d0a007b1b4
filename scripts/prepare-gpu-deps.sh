#!/usr/bin/env bash
# Run on this (Debian 12) machine before using the GPU machine, which has no Catch2 and cannot
# download it: copies Catch2 2.13's header, CMake package and main library into .deps/catch2, laid
# out as an install prefix, so that the device tool can carry it (carry: [".deps"]). The presets
# look there first (Catch2_ROOT); scripts/gpu-check.sh also points Catch2_DIR at it.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ ! -f /usr/include/catch2/catch.hpp && $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq catch2 >/dev/null
fi
version_file=/usr/lib/cmake/Catch2/Catch2ConfigVersion.cmake
if ! grep -qs 'PACKAGE_VERSION "2\.' "$version_file"; then
  echo "no Catch2 2.x here ($version_file): apt-get install catch2 on Debian 12 or Ubuntu 22.04" >&2
  exit 1
fi

dest=$root/.deps/catch2
rm -rf "$dest"
mkdir -p "$dest/include" "$dest/lib/cmake"
cp -r /usr/include/catch2 "$dest/include/"
cp -r /usr/lib/cmake/Catch2 "$dest/lib/cmake/"
# Catch2Targets-none.cmake refuses to load when the library it names is missing.
cp /usr/lib/libCatch2WithMain.a "$dest/lib/"
# Never committed, whatever the top-level .gitignore says.
printf '*\n' >"$root/.deps/.gitignore"

version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$version_file")
echo "Catch2 $version copied to .deps/catch2 ($(du -sh "$dest" | cut -f1))."
echo "On the GPU machine: run(carry=[\".deps\"], command=\"scripts/gpu-check.sh\")"
