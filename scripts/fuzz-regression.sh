#!/usr/bin/env bash
# Builds the libFuzzer targets (preset `fuzz`: Clang, ASan and UBSan, every
# gpuprof library instrumented, only the fuzz targets and what they link, in
# build-fuzz/) and runs each once over its saved inputs: the seeds and every
# input that once crashed (tests/fuzz/regressions/). A regression run, no
# mutation; part of CI (scripts/test.sh). Long fuzzing runs: tests/fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

cmake --preset fuzz
cmake --build --preset fuzz
ctest --preset fuzz-regression
