#!/usr/bin/env bash
# Issue 36's GPU plan without a GPU, with fake programs on a fake PATH:
#  - scripts/gpu/kernel_time_per_step.py: kernel time per timed step, in all and by family, from a
#    gpuprof trace and from a torch.profiler trace; unplaced kernels counted apart;
#  - scripts/gpu/torch_reference_models.py's parts that need no torch (a stand-in module);
#  - the throughput phase: medians of 3 interleaved runs a side, ours started by PyTorch with our
#    path, the kernel time per step of both sides, the input pipeline said;
#  - the phases bn-recording, conv-ab, ab and layer-tests of run 1.
#   gpu_plan_test.sh REPOSITORY
# The fake programs are written in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016
set -uo pipefail
repo=${1:?usage: gpu_plan_test.sh REPOSITORY}
work=$(mktemp -d)
[[ -n "${GPU_CHECK_TEST_KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT  # kept for a look when set
problems=0
real_python=$(command -v python3)
calls=$work/calls.log
# shellcheck source=gpu_check_fixtures.sh
source "$repo/tests/scripts/gpu_check_fixtures.sh"

mkdir -p "$work/cuda12/lib64" "$work/cuda12/extras/CUPTI/lib64" "$work/carry/lib"
expected_ours="$work/carry/lib:$work/cuda12/lib64:$work/cuda12/extras/CUPTI/lib64:/user/a"
build=$work/source/build-gpu
echo "$work/source" > "$work/carry/source-dir.txt"
make_no_ctest_path
ln -s "$real_python" "$work/no-ctest/python3"
write_profiler_trace "$work/profiler.json"
gpuprof_trace "$work/same.sqlite" ""
gpuprof_trace "$work/unlinked.sqlite" unlinked
# gpuprof record leaves FAKE_TRACE as its trace and runs its command; info prints a line.
script "$build/cli/gpuprof" \
  'case "$1" in info) echo "fake info of $2"; exit 0 ;; esac' \
  'while [ "$1" != -- ]; do [ "$1" = -o ] && cp "$FAKE_TRACE" "$2"; shift; done; shift; exec "$@"'

echo "--- kernel time per step, the interleaved comparison, issue 36's first run"
kernel_script=$repo/scripts/gpu/kernel_time_per_step.py
check "gpuprof trace: kernel time over the steps from --warmup on, by family, largest first" \
  "0 kernel ms/step 0.003 over 3 steps (1 kernels/step)
family gemm ms/step 0.003 (88.2 %)
family elementwise ms/step 0.000 (11.8 %)
event creations/step 0.0" \
  "$("$real_python" "$kernel_script" "$work/same.sqlite" --warmup 20 --families > "$work/families.txt"
     echo "$? $(cat "$work/families.txt")")"
cp "$work/same.sqlite" "$work/events.sqlite"
"$real_python" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("insert into strings values (90, ?)", ("cudaEventCreateWithFlags",))
for start in (2100500, 2100600, 1900500):  # two in step 21, one in step 19 (warm-up)
    db.execute("insert into api_calls (process_id, thread_id, start_ns, end_ns, name_id, kind) values (1, 1, ?, ?, 90, 1)",
               (start, start + 10))
db.commit()' "$work/events.sqlite"
check "events created in the timed steps, per step" "event creations/step 0.7" \
  "$("$real_python" "$kernel_script" "$work/events.sqlite" --warmup 20 --families | tail -1)"
check "profiler trace: the same reading" "kernel ms/step 0.003 over 2 steps (2 kernels/step)" \
  "$("$real_python" "$kernel_script" "$work/profiler.json" --warmup 20)"
check "a kernel no call leads to is counted apart" "kernel ms/step 0.003 over 4 steps (1 kernels/step, 1 kernels unplaced)" \
  "$("$real_python" "$kernel_script" "$work/unlinked.sqlite" --warmup 10)"
"$real_python" "$kernel_script" "$work/same.sqlite" --warmup 30 > /dev/null 2>&1
check "no step after the warm-up: exit 1" "1" "$?"
"$real_python" "$kernel_script" "$work/no-such.sqlite" > /dev/null 2>&1
check "an unreadable trace: exit 2" "2" "$?"
check "kernel families of real kernels' names" \
  "batch norm,batch norm,transpose,conv dgrad,conv wgrad,conv other,gemm,elementwise,rnn,optimizer,pooling" \
  "$("$real_python" -c 'import sys; sys.path.insert(0, sys.argv[1]); from kernel_time_per_step import family
print(*[family(name) for name in sys.argv[2:]], sep=",")' "$repo/scripts/gpu" bn_fw_tr_1C11_kernel_NCHW \
    cudnn::bn_bw_1C11_singleread nchwToNhwcKernel sm90_xmma_dgrad_implicit_gemm_f32 wgrad_alg0_engine \
    implicit_convolve_sgemm cutlass_80_tensorop_s1688gemm_128x128 at::native::vectorized_elementwise_kernel \
    RNN_blockPersist_fp_GRU multi_tensor_apply_kernel max_pool_forward_nchw)"

# The PyTorch script's parts that need no torch, with a stand-in torch module.
stub_output=$("$real_python" - "$repo/scripts/gpu" "$work" << 'EOF'
import sys, types
torch = types.ModuleType("torch")
torch.nn = types.SimpleNamespace(Module=object)
sys.modules["torch"] = torch
sys.path.insert(0, sys.argv[1])
import torch_reference_models as m
print(m.median_line("PyTorch", [3.0, 1.0, 2.0]))
print(m.median_line("gpuprof-workload", [5.0, "FAILED: exit 4"]))
print(m.median_line("gpuprof-workload", ["FAILED: exit 4"]))
summary = sys.argv[2] + "/stub-summary.json"
print(m.run_ours(["sh", "-c", f"echo '{{\"samples_per_second\": 12.5}}' > {summary}"], summary))
print(m.run_ours(["sh", "-c", "echo broken >&2; exit 3"], summary))
sys.argv = ["x", "rnn", "--repeats", "3", "--ours-summary", "s.json", "--", "gpuprof-workload", "rnn", "--steps", "5"]
a = m.parse_arguments()
print(a.repeats, a.input, a.prefetch, a.warmup_steps, *a.ours)
EOF
)
check "the PyTorch script: medians of what ran, ours' samples/s from its summary, ours after --" \
  "median PyTorch samples/s 2.0 (runs 3.0 1.0 2.0)
median gpuprof-workload samples/s 5.0 (runs 5.0 FAILED)
median gpuprof-workload samples/s FAILED (runs FAILED)
12.5
FAILED: exit 3 broken
3 pinned-prefetch 2 10 gpuprof-workload rnn --steps 5" "$stub_output"

# Both sides measure: PyTorch (a stand-in printing the script's lines) starts ours between its
# windows; gpuprof record leaves a trace with steps 19-22.
script "$work/compare-bin/python3" \
  'case "$1" in -c|*kernel_time_per_step.py) exec "$REAL_PYTHON" "$@" ;; esac' \
  'summary=""; profile=""' \
  'while [ $# -gt 0 ] && [ "$1" != -- ]; do case "$1" in --ours-summary) summary=$2 ;; --profile) profile=$2 ;; esac; shift; done' \
  'shift' \
  'for run in 1 2 3; do "$@" > /dev/null 2>&1; echo "run $run gpuprof-workload samples/s 1234.6"; echo "run $run PyTorch samples/s 98$run.0"; done' \
  'cp "$FAKE_PROFILE" "$profile"; echo "profiled steps 20-21 into $profile"' \
  'echo "median gpuprof-workload samples/s 1234.6 (runs 1234.6 1234.6 1234.6)"' \
  'echo "median PyTorch samples/s 982.0 (runs 981.0 982.0 983.0)"'
script "$build/workloads/gpuprof-workload" 'echo "workload LD=${LD_LIBRARY_PATH-unset} $*" >> "$FAKE_CALLS.workload"' \
  'while [ $# -gt 0 ]; do [ "$1" = --summary ] && echo "{\"samples_per_second\": 1234.56}" > "$2"; shift; done'
rm -f "$calls.workload"
FAKE_PROFILE=$work/profiler.json FAKE_TRACE=$work/same.sqlite FAKE_PATH=$(fake_path "$work/compare-bin") \
  REAL_PYTHON=$real_python gpu_check throughput "$work/tp-good" gru bf16 > /dev/null 2>&1
check "both measured: medians of 3 interleaved runs and kernel time per step of both" \
  "0 rnn --cell gru --batch 256 bf16 (median of 3) gpuprof-workload 1234.6 samples/s, PyTorch 982.0 samples/s
rnn --cell gru --batch 256 bf16 kernel ms/step gpuprof-workload 0.003, PyTorch 0.003" \
  "$? $(table "$work/tp-good" throughput-gru-bf16)"
check "ours ran 3 times for samples/s and once recorded, each with our path, warm-up 10" "4 4 4" \
  "$(grep -c "LD=$expected_ours " "$calls.workload") $(grep -c -- '--warmup-steps 10 ' "$calls.workload") $(grep -c -- '--precision bf16' "$calls.workload")"
check "the table says which input pipeline both sides had" "yes" \
  "$(grep -q '^== throughput-gru-bf16 (pinned host batches copied 2 steps ahead on both sides' "$work/tp-good/results.txt" && echo yes)"
check "ours' timed runs name the pipeline PyTorch is given, not the defaults" "3" \
  "$(grep -c -- '--loader pool --host-memory pinned --prefetch 2 ' "$calls.workload")"

# Issue 36's first run: the recordings by kernel family, the A/B pairs and the layers' tests.
rm -f "$calls.workload"
FAKE_TRACE=$work/same.sqlite FAKE_PATH=$(fake_path "$work/compare-bin") REAL_PYTHON=$real_python \
  gpu_check bn-recording "$work/bn" > /dev/null 2>&1
check "bn-recording: fp32, then tf32 and bf16 with the old paths and the new, by family" \
  "0 resnet50 fp32-legacy kernel ms/step total 0.003; gemm 0.003 (90.9 %), elementwise 0.000 (9.1 %); event creations/step 0.0
resnet50 tf32-legacy kernel ms/step total 0.003; gemm 0.003 (90.9 %), elementwise 0.000 (9.1 %); event creations/step 0.0
resnet50 tf32-new kernel ms/step total 0.003; gemm 0.003 (90.9 %), elementwise 0.000 (9.1 %); event creations/step 0.0
resnet50 bf16-legacy kernel ms/step total 0.003; gemm 0.003 (90.9 %), elementwise 0.000 (9.1 %); event creations/step 0.0
resnet50 bf16-new kernel ms/step total 0.003; gemm 0.003 (90.9 %), elementwise 0.000 (9.1 %); event creations/step 0.0" \
  "$? $(table "$work/bn" bn-recording)"
check "bn-recording: the old paths are asked for by their flags" "3 2" \
  "$(grep -c -- '--batch-norm legacy --conv-algo heuristic' "$calls.workload") $(grep -vc -- '--batch-norm' "$calls.workload")"
rm -f "$calls.workload"
FAKE_PATH=$(fake_path "$work/compare-bin") REAL_PYTHON=$real_python gpu_check ab "$work/ab" > /dev/null 2>&1
check "ab: each pair's medians" \
  "0 A/B gru fp32 batch 256 rnn algorithm standard 1234.6, auto 1234.6 samples/s (medians of 3)
A/B resnet50 tf32 batch norm legacy 1234.6, fused 1234.6 samples/s (medians of 3)
A/B resnet50 tf32 input pipeline inline pageable synchronous 1234.6, pool pinned prefetch 2 1234.6 samples/s (medians of 3)" \
  "$? $(table "$work/ab" ab)"
check "ab: old and new alternate, 3 each" "--rnn-algo standard --rnn-algo auto --rnn-algo standard --rnn-algo auto --rnn-algo standard --rnn-algo auto" \
  "$(grep -o -- '--rnn-algo [a-z]*' "$calls.workload" | tr '\n' ' ' | sed 's/ $//')"
# A workload whose samples/s tell the sides apart: heuristic 100, measured 200, graph 300 (NHWC +5),
# and the third graph run of tf32 slower, so a median is taken and not a mean or the last run.
script "$build/workloads/gpuprof-workload" 'echo "$*" >> "$FAKE_CALLS.workload"' \
  'value=0; layout=0; summary=""' \
  'while [ $# -gt 0 ]; do case "$1" in --conv-algo) case "$2" in heuristic) value=100 ;; measured) value=200 ;; graph) value=300 ;; esac ;; --layout) [ "$2" = nhwc ] && layout=5 ;; --summary) summary=$2 ;; esac; shift; done' \
  'runs=$(grep -c -- "--conv-algo graph" "$FAKE_CALLS.workload"); [ "$runs" = 3 ] && [ "$value" = 300 ] && value=30' \
  'echo "{\"samples_per_second\": $((value + layout))}" > "$summary"'
rm -f "$calls.workload"
FAKE_PATH=$(fake_path "$work/compare-bin") REAL_PYTHON=$real_python gpu_check conv-ab "$work/conv-ab" > /dev/null 2>&1
check "conv-ab: heuristic, measured and graph per precision, tf32 with medians, then fp32 NCHW against NHWC" \
  "0 A/B resnet50 tf32 convolutions heuristic 100.0, measured 200.0, graph 300.0 samples/s (medians of 3)
A/B resnet50 bf16 convolutions heuristic 100.0, measured 200.0, graph 300.0 samples/s (1 run each)
A/B resnet50 fp32 convolutions heuristic 100.0, measured 200.0, graph 300.0 samples/s (1 run each)
A/B resnet50 fp32 layout, graph convolutions nchw 300.0, nhwc 305.0 samples/s (1 run each)" \
  "$? $(table "$work/conv-ab" conv-ab)"
check "conv-ab: the sides take turns, tf32 first, each a ResNet-50 at batch 64" \
  "tf32 heuristic,tf32 measured,tf32 graph,tf32 heuristic,tf32 measured,tf32 graph,tf32 heuristic,tf32 measured,tf32 graph,bf16 heuristic,bf16 measured,bf16 graph,fp32 heuristic,fp32 measured,fp32 graph,fp32 graph,fp32 graph 17" \
  "$(sed -E 's/.*--precision ([a-z0-9]+).*--conv-algo ([a-z]+).*/\1 \2/' "$calls.workload" | paste -sd, -) $(grep -c -- 'resnet --depth 50 --batch 64' "$calls.workload")"
script "$build/workloads/gpuprof-workload" 'exit 4'
FAKE_PATH=$(fake_path "$work/compare-bin") REAL_PYTHON=$real_python gpu_check ab "$work/ab-fail" > /dev/null 2>&1
check "ab: runs that fail make FAILED rows" "1 A/B gru fp32 batch 256 rnn algorithm FAILED: standard exit 4, auto exit 4 (runs: FAILED: exit 4 FAILED: exit 4 FAILED: exit 4 / FAILED: exit 4 FAILED: exit 4 FAILED: exit 4)" \
  "$? $(table "$work/ab-fail" ab | head -1)"
script "$work/filter-ctest/ctest" 'echo "$*" > "$FAKE_CALLS.ctest"; echo "100% tests passed out of 12"'
FAKE_PATH=$(fake_path "$work/filter-ctest") gpu_check layer-tests "$work/layers" > /dev/null 2>&1
check "layer-tests: the GPU tests of the changed layers alone" \
  "0 ctest, GPU tests of the changed layers passed (12 tests) yes" \
  "$? $(table "$work/layers" layer-tests) $(grep -q -- "-L gpu -R Recurrent|Training|LossFalls|Resnet|Conv|BatchNorm|Elementwise" "$calls.ctest" && echo yes)"

if ((problems > 0)); then
  echo "$problems checks failed"
  exit 1
fi
echo "all checks passed"
