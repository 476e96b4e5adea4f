#!/usr/bin/env bash
# Issue 36's CUDA-graph check without a GPU, with fake programs on a fake PATH:
#  - scripts/gpu/launch_idle_per_step.py on a hand-made gpuprof trace: launch-bound idle (the GPU idle
#    before a call that came after it went idle) apart from other idle (queued work held back, gaps
#    inside a graph launch), the gap between two steps in the later one, the warm-up's wait left out;
#  - the phase `graphs` (scripts/lib/gpu-graphs.sh): GRU recorded with --cuda-graphs off and on, off
#    against on for GRU and LSTM alternating, auto's decision, FAILED rows when runs fail.
#   gpu_graphs_test.sh REPOSITORY
# The fake programs are written in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016
set -uo pipefail
repo=${1:?usage: gpu_graphs_test.sh REPOSITORY}
work=$(mktemp -d)
[[ -n "${GPU_CHECK_TEST_KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT
problems=0
real_python=$(command -v python3)
calls=$work/calls.log
# shellcheck source=gpu_check_fixtures.sh
source "$repo/tests/scripts/gpu_check_fixtures.sh"

# Steps 9 (warm-up), 10 (launched call by call) and 11 (one graph launch); times in µs.
"$real_python" - "$(trace_schema)" "$work/idle.sqlite" << 'EOF'
import sqlite3, sys
schema, path = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
db.executescript(open(schema).read())
db.execute("insert into strings values (1, 'cudaLaunchKernel'), (2, 'cudaGraphLaunch'), (3, 'k'), (4, 'cudaMemcpyAsync')")
for step, (first, last) in {9: (0, 1000), 10: (1000, 2000), 11: (2000, 3000)}.items():
    db.execute("insert into strings values (?, ?)", (10 + step, f"step {step}"))
    db.execute("insert into ranges (process_id, thread_id, start_ns, end_ns, name_id) values (1, 1, ?, ?, ?)",
               (first * 1000, last * 1000, 10 + step))
def call(correlation, start, name=1):
    db.execute("insert into api_calls (process_id, thread_id, start_ns, end_ns, correlation_id, name_id, kind) "
               "values (1, 1, ?, ?, ?, ?, 1)", (start * 1000, start * 1000 + 5, correlation, name))
def kernel(correlation, start, end):
    db.execute("insert into kernels (device, context, stream, start_ns, end_ns, correlation_id, name_id) "
               "values (0, 1, 7, ?, ?, ?, 3)", (start * 1000, end * 1000, correlation))
# warm-up: the gap after it (the wait before timing) is left out
call(1, 100); kernel(1, 200, 300)
# step 10: 1250 -> 1420 idle before a call made at 1400: 170 launch-bound; a copy queued at 1410 starts
# 30 after the kernel before it ends: other idle; span 1150-1600
call(2, 1100); kernel(2, 1150, 1250)
call(3, 1400); kernel(3, 1420, 1500)
call(4, 1410, 4)
db.execute("insert into memcpys (device, context, stream, start_ns, end_ns, correlation_id, copy_kind, bytes) "
           "values (0, 1, 7, 1530000, 1600000, 4, 8, 64)")
# step 11: the graph launch comes at 2100, the GPU idle since 1600: 600 launch-bound (between the steps);
# its nodes 2200-2300 and 2350-2400 share the call: the 50 between them is other idle; span 1600-2400
call(5, 2100, 2); kernel(5, 2200, 2300); kernel(5, 2350, 2400)
db.commit()
EOF
idle_script=$repo/scripts/gpu/launch_idle_per_step.py
check "launch-bound idle apart from other idle, between steps in the later one, the warm-up's wait left out" \
  "0 launch-bound idle ms/step 0.385 of span 0.625 (62 %), other idle 0.040 over 2 steps (2 works/step)" \
  "$("$real_python" "$idle_script" "$work/idle.sqlite" --warmup 10 > "$work/idle.txt"; echo "$? $(cat "$work/idle.txt")")"
check "the graph step alone, after the warm-up's wait: its inner gap is not launch-bound" \
  "launch-bound idle ms/step 0.000 of span 0.200 (0 %), other idle 0.050 over 1 steps (2 works/step)" \
  "$("$real_python" "$idle_script" "$work/idle.sqlite" --warmup 11)"
"$real_python" "$idle_script" "$work/idle.sqlite" --warmup 12 > /dev/null 2>&1
check "no step after the warm-up: exit 1" "1" "$?"
echo "not a trace" > "$work/bad.sqlite"
"$real_python" "$idle_script" "$work/bad.sqlite" > /dev/null 2>&1
check "an unreadable trace: exit 2" "2" "$?"

mkdir -p "$work/cuda12/lib64" "$work/cuda12/extras/CUPTI/lib64" "$work/carry/lib"
build=$work/source/build-gpu
echo "$work/source" > "$work/carry/source-dir.txt"
make_no_ctest_path
ln -s "$real_python" "$work/no-ctest/python3"
script "$build/cli/gpuprof" \
  'case "$1" in info) echo "fake info of $2"; exit 0 ;; esac' \
  'while [ "$1" != -- ]; do [ "$1" = -o ] && cp "$FAKE_TRACE" "$2"; shift; done; shift; exec "$@"'
script "$build/workloads/gpuprof-workload" 'echo "$*" >> "$FAKE_CALLS.workload"' \
  'mode=off; previous=""; for a in "$@"; do [ "$previous" = --cuda-graphs ] && mode=$a; previous=$a; done' \
  'while [ $# -gt 0 ]; do [ "$1" = --summary ] && echo "{\"samples_per_second\": 1234.56}" > "$2"; shift; done' \
  'echo "cuda graphs: $mode (fake)"'
FAKE_TRACE=$work/idle.sqlite FAKE_PATH=$(fake_path "$work/bin") gpu_check graphs "$work/graphs" > /dev/null 2>&1
check "graphs: idle off and on, auto's decision, then each pair's medians" \
  "0 gru fp32 256 --cuda-graphs off idle launch-bound idle ms/step 0.385 of span 0.625 (62 %), other idle 0.040 over 2 steps (2 works/step); cuda graphs: off (fake)
gru fp32 256 --cuda-graphs on idle launch-bound idle ms/step 0.385 of span 0.625 (62 %), other idle 0.040 over 2 steps (2 works/step); cuda graphs: on (fake)
A/B gru fp32 batch 256 cuda graphs off 1234.6, on 1234.6 samples/s (medians of 3)
gru fp32 256 --cuda-graphs auto cuda graphs: auto (fake)
A/B lstm fp32 batch 256 cuda graphs off 1234.6, on 1234.6 samples/s (medians of 3)" \
  "$? $(table "$work/graphs" graphs)"
check "graphs: recorded with 10 warm-up steps of 20; off and on alternate, 3 each, GRU then LSTM" \
  "2 off on off on off on off on auto off on off on off on" \
  "$(grep -c -- '--steps 20 --warmup-steps 10' "$calls.workload") $(grep -o -- '--cuda-graphs [a-z]*' "$calls.workload" | cut -d' ' -f2 | tr '\n' ' ' | sed 's/ $//')"
check "graphs: every run is the rnn at batch 256 in fp32" "15" \
  "$(grep -c -- '^rnn --batch 256 --precision fp32' "$calls.workload")"
script "$build/workloads/gpuprof-workload" 'exit 4'
FAKE_TRACE=$work/idle.sqlite FAKE_PATH=$(fake_path "$work/bin") gpu_check graphs "$work/graphs-fail" > /dev/null 2>&1
check "graphs: runs that fail make FAILED rows" \
  "1 gru fp32 256 --cuda-graphs off idle FAILED: exit 4 (gru-graphs-off-record.log)" \
  "$? $(table "$work/graphs-fail" graphs | head -1)"

if ((problems > 0)); then
  echo "$problems checks failed"
  exit 1
fi
echo "all checks passed"
