#!/usr/bin/env bash
# The README's test command. Installs what the tests need when it can (Catch2 and pip as root
# through apt-get, NumPy 2 and SciPy through pip), otherwise says what to install; then configures,
# builds and tests with one of CMake's presets (CMakePresets.json) and prints ctest's summary.
#
#   scripts/test.sh            preset `gpu` when nvidia-smi sees a GPU, else `cpu`
#   scripts/test.sh PRESET     cpu | gpu
#
# Environment: CUNP_NO_INSTALL=1 only checks and reports; CMAKE_GENERATOR,
# CMAKE_BUILD_PARALLEL_LEVEL and CTEST_PARALLEL_LEVEL are honoured (defaults: Ninja when present,
# all cores).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

say() { printf '\n== %s\n' "$*"; }
note() { printf '   %s\n' "$@"; }

if [[ $# -gt 1 ]]; then echo "usage: scripts/test.sh [cpu|gpu]" >&2; exit 2; fi
preset=${1:-}
if [[ -z $preset ]]; then
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    preset=gpu
  else
    preset=cpu
  fi
fi
case $preset in
  cpu) what="cpu tests under ASan and UBSan; GPU tests compiled by nvcc for sm_90, not run" ;;
  gpu) what="every test, on the GPU that nvidia-smi lists" ;;
  *) echo "usage: scripts/test.sh [cpu|gpu]" >&2; exit 2 ;;
esac
say "cunp tests, preset '$preset': $what"

can_install=0
[[ ${CUNP_NO_INSTALL:-0} != 1 ]] && can_install=1
as_root=0
[[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1 && as_root=1
apt_updated=0
apt_update() {
  [[ $apt_updated -eq 1 ]] || DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
    note "apt-get update failed; trying with the package lists there are"
  apt_updated=1
}
apt_install() {
  apt_update
  note "apt-get install -y $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
missing=()  # what the user has to install by hand

# --- Compilers and CMake -------------------------------------------------------------------------
if ! command -v nvcc >/dev/null 2>&1 && [[ -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
command -v nvcc >/dev/null 2>&1 ||
  missing+=("the CUDA toolkit 13 (nvcc and CCCL): https://developer.nvidia.com/cuda-downloads")
command -v c++ >/dev/null 2>&1 || missing+=("a C++20 compiler: apt-get install g++")
if ! command -v cmake >/dev/null 2>&1; then
  missing+=("CMake 3.25 or newer: apt-get install cmake, or python3 -m pip install cmake")
else
  cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
  if [[ $(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -n1) != 3.25 ]]; then
    missing+=("CMake 3.25 or newer (found $cmake_version): python3 -m pip install cmake")
  fi
fi

# --- Catch2 2 (Debian 12, Ubuntu 22.04) or 3 (Debian 13, Ubuntu 24.04): apt's catch2 either way --
catch2_found() {
  local d
  for d in .deps/catch2/lib/cmake/Catch2 ${Catch2_DIR:-} /usr/lib/cmake/Catch2 \
           /usr/lib/*/cmake/Catch2 /usr/local/lib/cmake/Catch2 /usr/local/lib/*/cmake/Catch2 \
           /usr/share/Catch2/cmake /usr/local/share/Catch2/cmake; do
    grep -qs 'PACKAGE_VERSION "[23]\.' "$d/Catch2ConfigVersion.cmake" && return 0
  done
  return 1
}
if ! catch2_found; then
  if [[ $can_install -eq 1 && $as_root -eq 1 ]]; then
    say "installing Catch2 (apt)"
    apt_install catch2 python3-pip || true
  fi
  if ! catch2_found; then
    missing+=("Catch2 2 or 3: apt-get install catch2 (Debian, Ubuntu); elsewhere install Catch2
     from source (cmake -S Catch2 -B b -DCATCH_BUILD_TESTING=OFF && cmake --install b)")
  fi
fi

# --- Python with NumPy 2 and SciPy (the golden data are their own outputs) ---------------------
golden_python() {
  "$1" -c 'import sys, numpy, scipy; sys.exit(int(numpy.__version__.split(".")[0]) < 2)' 2>/dev/null
}
venv=$root/build-venv
py=$(command -v python3 || true)
if [[ -z $py ]]; then
  missing+=("Python 3 with NumPy 2 and SciPy: apt-get install python3 python3-pip")
elif ! golden_python "$py"; then
  if [[ -x $venv/bin/python ]] && golden_python "$venv/bin/python"; then
    py=$venv/bin/python
  elif [[ $can_install -eq 1 ]]; then
    say "installing NumPy 2 and SciPy for $py (pip)"
    if ! "$py" -m pip --version >/dev/null 2>&1 && [[ $as_root -eq 1 ]]; then
      apt_install python3-pip || true
    fi
    log=$(mktemp)
    if "$py" -m pip install --quiet 'numpy>=2' scipy >"$log" 2>&1; then
      :
    elif grep -q externally-managed "$log"; then
      note "$py is managed by the system's package manager (PEP 668), so pip may not install" \
           "into it. NumPy goes into a virtual environment for the tests instead: $venv"
      if ! "$py" -m venv "$venv" >/dev/null 2>&1 && [[ $as_root -eq 1 ]]; then
        rm -rf "$venv"
        apt_install python3-venv || true
        "$py" -m venv "$venv" >/dev/null 2>&1 || true
      fi
      if [[ -x $venv/bin/python ]] && "$venv/bin/python" -m pip install --quiet 'numpy>=2' scipy; then
        py=$venv/bin/python
      else
        note "no virtual environment could be made (apt-get install python3-venv fixes that);" \
             "installing with pip's --break-system-packages instead"
        "$py" -m pip install --quiet --break-system-packages 'numpy>=2' scipy || true
      fi
    else
      cat "$log"
    fi
    rm -f "$log"
  fi
  golden_python "$py" || missing+=("NumPy 2 and SciPy for $py: $py -m pip install 'numpy>=2' scipy
     (where the system manages that Python: apt-get install python3-venv, then run this script
     again)")
fi

if [[ ${#missing[@]} -gt 0 ]]; then
  say "missing; please install:"
  for m in "${missing[@]}"; do printf ' - %s\n' "$m"; done
  [[ $as_root -eq 0 && $can_install -eq 1 ]] && note "(run as root to let this script use apt-get)"
  exit 1
fi
tools="cmake $(cmake --version | head -n1 | cut -d' ' -f3)"
tools+=", nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
note "$tools, $py with $("$py" -c 'import numpy, scipy; print("numpy", numpy.__version__, "scipy", scipy.__version__)')"

# --- Configure, build, test (the steps of `cmake --workflow --preset $preset`) -------------------
build=$root/build-$preset
if [[ -z ${CMAKE_GENERATOR:-} && ! -f $build/CMakeCache.txt ]] && command -v ninja >/dev/null; then
  export CMAKE_GENERATOR=Ninja
fi
jobs=$(nproc 2>/dev/null || echo 2)
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$jobs}
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$jobs}

say "configure (cmake --preset $preset)"
cmake --preset "$preset" -DPython3_EXECUTABLE="$py"
say "build (cmake --build --preset $preset, $CMAKE_BUILD_PARALLEL_LEVEL jobs)"
start=$SECONDS
cmake --build --preset "$preset"
note "built in $((SECONDS - start)) s"
say "test (ctest --preset $preset)"
ctest --preset "$preset"
