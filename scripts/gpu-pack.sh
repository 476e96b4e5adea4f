#!/usr/bin/env bash
# Builds the binaries for the GPU machine (preset `gpu`: sm_90, no GUI) and packs
# what scripts/gpu-check.sh needs into .gpu-carry/, to be named in the device
# tool's `carry`. The GPU machine has CUDA and PyTorch but none of our Debian
# libraries, so the shared libraries the binaries need beyond the CUDA toolkit, the
# C++ runtime and glibc travel along (scripts/lib/gpu-pack-libraries.sh says which).
#
# The device tool takes the repository's files (tracked and untracked-not-ignored)
# and the carried folder together, 64 MiB at most: the pack strips its binaries and
# fails, saying by how much, when the two do not fit. The build's parallelism is
# cmake's: CMAKE_BUILD_PARALLEL_LEVEL=2 on a shared machine.
#
# By default only the tests labelled gpu travel (with the programs the phases run):
# the whole suite's executables are about 90 MiB stripped, over the limit, and the
# CPU tests pass on the development machine and in CI. `--all-tests` packs them all,
# for a machine that takes more.
set -euo pipefail
all_tests=0
case "${1:-}" in
  --all-tests) all_tests=1 ;;
  "") ;;
  *) echo "usage: gpu-pack.sh [--all-tests]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
# shellcheck source=lib/gpu-limits.sh
source scripts/lib/gpu-limits.sh
# shellcheck source=lib/gpu-pack-libraries.sh
source scripts/lib/gpu-pack-libraries.sh

# In a worktree .git is a file: ask git where the exclude file is.
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu-carry/' "$exclude" 2>/dev/null || echo '/.gpu-carry/' >> "$exclude"
cmake --preset gpu
cmake --build --preset gpu

build="build-gpu"
carry=.gpu-carry
rm -rf "$carry"
mkdir -p "$carry/lib"
# The build tree without objects and archives: ctest needs its CTest files and executables in place.
rsync -a --exclude '*.o' --exclude '*.a' --exclude 'CMakeFiles/' --exclude '.ninja_*' "$build/" "$carry/$build/"
# Where the build lives here: CTest files hold absolute paths, recreated there by gpu-check.sh.
pwd > "$carry/source-dir.txt"
if ((all_tests)); then
  echo all > "$carry/packed-tests.txt"
else
  # Out: the executables only tests not labelled gpu run, and the benchmarks but the
  # one the overhead phase runs. Helpers the GPU tests start (gpu_record_workload) stay.
  commands() { ctest --test-dir "$build" "$@" -N -V | sed -n 's/.*Test command: \([^ ]*\).*/\1/p' | sort -u; }
  gpu_commands=$(commands -L gpu)
  commands -LE gpu | while IFS= read -r executable; do
    grep -qxF "$executable" <<< "$gpu_commands" || rm -f "$carry/${executable#"$PWD/"}"
  done
  find "$carry/$build/bench" -type f -perm -u+x ! -name '*.*' ! -name gpuprof_launch_benchmark -delete
  echo gpu > "$carry/packed-tests.txt"
fi

find "$carry/$build" -type f -perm -u+x \( -name '*.so' -o ! -name '*.*' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3}' | sort -u | gpu_travelling_libraries |
  while read -r library; do cp -L "$library" "$carry/lib/"; done

unstripped=$(gpu_tree_bytes "$carry")
gpu_strip_tree "$carry"
carried=$(gpu_tree_bytes "$carry")
repository=$(gpu_travelling_repository_bytes)
echo "gpuprof: carried libraries: $(find "$carry/lib" -mindepth 1 -printf "%f " | sed 's/ $//')"
echo "gpuprof: $carry: $(gpu_mib "$unstripped") before strip --strip-unneeded, $(gpu_mib "$carried") after"
gpu_check_travel "$repository" "$carried"
