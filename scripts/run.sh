#!/usr/bin/env bash
# The main job: installs missing packages, builds, and analyses a trace.
# Until recorded samples exist it generates a synthetic 4-GPU training trace,
# describes it and prints its report (text on the terminal, HTML and JSON in out/).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh
cmake --preset release
cmake --build --preset release

gpuprof=build-release/cli/gpuprof
mkdir -p out
trace=out/synthetic-4gpu.sqlite
echo
echo "gpuprof: no recorded samples yet; generating a synthetic 4-GPU training trace ($trace)"
"$gpuprof" synth -o "$trace" --devices 4 --steps 30 --input-memory mixed --force
echo
"$gpuprof" info "$trace"
echo
"$gpuprof" report "$trace" --sections devices,transfers,kernels,gaps --top 10
"$gpuprof" report "$trace" --format html -o out/synthetic-4gpu-report.html
"$gpuprof" report "$trace" --format json -o out/synthetic-4gpu-report.json
echo
echo "gpuprof: reports written to out/synthetic-4gpu-report.html and out/synthetic-4gpu-report.json"
