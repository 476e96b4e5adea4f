#!/usr/bin/env bash
# The test suite: installs missing packages, builds everything, and runs every
# test but those labelled `gpu` (they need a GPU) and `fuzz` (long-running).
# Tests labelled `external` read ../shared/data/external and skip without it.
# Then every fuzz target runs once over its saved inputs (Clang, ASan + UBSan,
# build-fuzz/): scripts/fuzz-regression.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh
cmake --preset release
cmake --build --preset release
ctest --preset release -LE "gpu|fuzz" --no-tests=error
scripts/fuzz-regression.sh
