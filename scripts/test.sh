#!/usr/bin/env bash
# The test suite: installs missing packages, builds everything, and runs every
# test but those labelled `gpu` (they need a GPU) and `fuzz` (long-running).
# Tests labelled `external` read ../shared/data/external and skip without it.
# Then every fuzz target runs once over its saved inputs (Clang, ASan + UBSan,
# build-fuzz/): scripts/fuzz-regression.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh

# A compiler cache, when the machine has one that works (ccache fails every
# compile when its folder cannot be written, so it is tried first): CI builds
# a fresh clone each time, and most of its compiles repeat. Paths are hashed
# relative to the clone, so clones in other folders share the entries.
compiler_cache_works() {
  command -v ccache > /dev/null || return 1
  local probe
  probe=$(mktemp -d) || return 1
  echo 'int main(void) { return 0; }' > "$probe/probe.c"
  local status=0
  ccache cc -c "$probe/probe.c" -o "$probe/probe.o" > /dev/null 2>&1 || status=1
  rm -rf "$probe"
  return $status
}
if [[ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]] && compiler_cache_works; then
  export CMAKE_C_COMPILER_LAUNCHER=ccache CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$PWD"
fi

cmake --preset release
cmake --build --preset release
ctest --preset release -LE "gpu|fuzz" --no-tests=error
# The 10 M-event report beside a bare SQLite scan of the same file, with each stage's share: printed in every
# CI log, never failing on time (targets and history: docs/performance.md).
build-release/bench/gpuprof_report_bench
scripts/fuzz-regression.sh
