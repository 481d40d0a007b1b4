#!/usr/bin/env bash
# Run on this machine before using the GPU machine, which has no Catch2 and cannot download it:
# copies Catch2 (2 or 3: headers, CMake package, libraries) into .deps/catch2, laid out as an
# install prefix, so that the device tool can carry it (carry: [".deps"]). The presets look there
# first (Catch2_ROOT); scripts/gpu-check.sh and scripts/gpu-pack.sh also point Catch2_DIR at it.
#
#   scripts/prepare-gpu-deps.sh           the Catch2 installed here (apt-get install catch2 as
#                                         root when there is none)
#   scripts/prepare-gpu-deps.sh FILE.deb  a Catch2 package of another release, unpacked instead:
#                                         Ubuntu 24.04's catch2 (3.x) for the GPU host, whose
#                                         glibc and compiler built it (its libCatch2.a does not
#                                         link on Debian 12: it needs glibc 2.38)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest=$root/.deps/catch2

if [[ $# -gt 1 || ${1:-} == -* ]]; then
  echo "usage: scripts/prepare-gpu-deps.sh [catch2.deb]" >&2
  exit 2
fi
if [[ $# -eq 1 ]]; then
  deb=$(realpath "$1")
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  dpkg-deb -x "$deb" "$tmp"
  version_file=$(find "$tmp" -path '*/usr/lib/*cmake/Catch2/Catch2ConfigVersion.cmake' | head -n1)
  if [[ -z $version_file ]]; then
    echo "$deb holds no Catch2 CMake package (Debian 13 splits it: take libcatch2-dev)" >&2
    exit 1
  fi
  rm -rf "$dest" "$tmp/usr/share/doc"
  mkdir -p "$root/.deps"
  mv "$tmp/usr" "$dest"
  version_file=$dest/${version_file#"$tmp/usr/"}
else
  # Catch2's CMake package, as apt installs it: in /usr/lib/cmake, or /usr/lib/<arch>/cmake.
  installed() {
    local f
    for f in /usr/lib/cmake/Catch2/Catch2Config.cmake /usr/lib/*/cmake/Catch2/Catch2Config.cmake; do
      [[ -f $f ]] && dirname "$f" && return 0
    done
    return 1
  }
  if ! installed >/dev/null && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq catch2 >/dev/null
  fi
  package=$(installed || echo /none)
  version_file=$package/Catch2ConfigVersion.cmake
  if ! grep -qs 'PACKAGE_VERSION "[23]\.' "$version_file"; then
    echo "no Catch2 2 or 3 here: apt-get install catch2 (Debian, Ubuntu)" >&2
    exit 1
  fi
  # The libraries sit beside cmake/ (/usr/lib or /usr/lib/<arch>), which the package's
  # Catch2Targets.cmake finds relative to itself.
  libdir=$(dirname "$(dirname "$package")")
  rm -rf "$dest"
  mkdir -p "$dest/include" "$dest/${libdir#/usr/}/cmake"
  cp -r /usr/include/catch2 "$dest/include/"
  cp -r "$package" "$dest/${libdir#/usr/}/cmake/"
  # Catch2Targets-*.cmake refuses to load when a library it names is missing.
  cp "$libdir"/libCatch2*.a "$dest/${libdir#/usr/}/"
  version_file=$dest/${libdir#/usr/}/cmake/Catch2/Catch2ConfigVersion.cmake
fi
# Never committed, whatever the top-level .gitignore says.
printf '*\n' >"$root/.deps/.gitignore"

version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")/\1/p' "$version_file")
echo "Catch2 $version copied to .deps/catch2 ($(du -sh "$dest" | cut -f1))."
echo "On the GPU machine: run(carry=[\".deps\"], command=\"scripts/gpu-check.sh\")"
