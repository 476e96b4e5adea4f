#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages gpuprof builds with, skipping those already
# present. Runs as root, or through sudo when not root. The CUDA toolkit is not a
# Debian package: when /usr/local/cuda exists the collector and workloads are
# built too, otherwise the analyzer, CLI and GUI are built without them.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkgconf git rsync
  libsqlite3-dev sqlite3 zlib1g-dev libfmt-dev libcli11-dev rapidjson-dev libiberty-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-dev
  qt6-base-dev qt6-charts-dev libqt6svg6-dev libqt6opengl6-dev libgl-dev
  # tests/scripts/gpu_check_test.sh: gpu-check.sh's helpers and the profiler comparison are python3 (with sqlite3),
  # as on the GPU machine.
  python3
  # `man gpuprof` and completion (scripts/install-shell-files.sh installs the page and the scripts); zsh
  # (small) so tests/cli/shell_completion_test.cpp checks the zsh completion in a real zsh.
  man-db bash-completion zsh
)
# Headless Chromium renders the HTML reports in the tests (label html). Ubuntu ships it only
# as a snap, which does not run in containers or chroots: there that test says it skipped.
if grep -qx 'ID=debian' /etc/os-release 2>/dev/null; then
  packages+=(chromium)
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "gpuprof: all build dependencies are installed"
  exit 0
fi

as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "gpuprof: packages are missing and this is neither root nor sudo; as root run: apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  as_root=(sudo)
fi
echo "gpuprof: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
