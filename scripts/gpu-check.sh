#!/usr/bin/env bash
# The GPU checklist (../shared/GPU-CHECKLIST.md) in one script, run on the GPU
# machine over a copy of the repository with .gpu-carry/ from scripts/gpu-pack.sh:
#
#   scripts/gpu-check.sh PHASE OUT_DIR
#   PHASE: inventory | tests | workloads | overhead | pytorch
#        | throughput MODEL [PRECISION]   (MODEL: gru | lstm | towers | mlp | resnet)
#        | all                            (every phase and model; far longer than one device call)
#   scripts/gpu-check.sh --print-env      (the library path each kind of process gets; no GPU needed)
#
# Each phase (and `throughput` per model) fits in one 10-minute device call: every
# command has its own time limit and none runs past the phase's budget,
# $GPU_CHECK_PHASE_SECONDS (540 s), so the results are written even after a hang.
# Each phase writes few files (the device tool returns at most 8): OUT_DIR/<phase>.txt
# with a short table at its end, and OUT_DIR/<phase>-logs.tar.gz with everything
# else; `workloads` also writes OUT_DIR/samples.tar.gz, the recorded samples for
# samples/. The exit status is 1 when any row of the table says FAILED.
#
# Library paths (scripts/lib/gpu-environment.sh, docs/gpu-notes.md): our binaries
# and `gpuprof record` get our build's libraries, then the CUDA toolkit's lib64 and
# CUPTI's folder, then the starting LD_LIBRARY_PATH; python3 gets the environment
# the script was started with, so torch loads its own wheels' libraries.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
carry=${GPU_CHECK_CARRY:-$repo/.gpu-carry}  # another folder only for tests/scripts/gpu_check_test.sh
# shellcheck source=lib/gpu-environment.sh
source "$repo/scripts/lib/gpu-environment.sh"
# shellcheck source=lib/gpu-test-executables.sh
source "$repo/scripts/lib/gpu-test-executables.sh"
gpu_environment_init "$carry/lib"

usage="usage: gpu-check.sh PHASE OUT_DIR [MODEL [PRECISION]] | gpu-check.sh --print-env"
if [[ "${1:-}" == --print-env ]]; then
  gpu_print_environment
  exit 0
fi
phase=${1:?$usage}
out=${2:?$usage}
throughput_model=${3:-}
throughput_precision=${4:-}
phase_seconds=${GPU_CHECK_PHASE_SECONDS:-540}
mkdir -p "$out"
logs=$(mktemp -d)
results=()
failed=0

# A row of the result table; a result starting with FAILED makes the exit status 1.
note() {
  results+=("$(printf '%-44s %s' "$1" "$2")")
  [[ $2 == FAILED* ]] && failed=1
  return 0
}
# The GPU image has python3 but no sqlite3 shell: one query, its rows printed.
sql() { python3 -c 'import sqlite3, sys; print(*sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())' "$@"; }
now() { python3 -c 'import time; print(time.time())'; }
median() { python3 -c 'import statistics, sys; print(round(statistics.median(map(float, sys.argv[1:])), 3))' "$@"; }

# The build's absolute paths as they were where it was built.
prepare_paths() {
  local source_dir
  if [[ ! -s "$carry/source-dir.txt" ]]; then
    echo "gpu-check.sh: no $carry/source-dir.txt: pack the build with scripts/gpu-pack.sh first" >&2
    exit 2
  fi
  source_dir=$(cat "$carry/source-dir.txt")
  if [[ "$source_dir" != "$repo" && ! -e "$source_dir" ]]; then
    mkdir -p "$(dirname "$source_dir")"
    ln -s "$repo" "$source_dir"
  fi
  [[ -e "$source_dir/build-gpu" ]] || ln -s "$carry/build-gpu" "$source_dir/build-gpu"
  build=$source_dir/build-gpu
  gpuprof=$build/cli/gpuprof
  workload=$build/workloads/gpuprof-workload
}

inventory() {
  {
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
    echo "--- CUDA libraries"
    find / -xdev \( -name 'libcupti.so*' -o -name 'libcudnn.so*' -o -name 'libcublas*.so*' -o -name 'libnccl.so*' \) \
      2>/dev/null | sort
    echo "--- library paths"
    gpu_print_environment
    echo "--- unresolved libraries of our binaries, with our path"
    gpu_run_ours 60 ldd "$gpuprof" "$workload" "$build/collector/libgpuprof_collector.so" |
      grep 'not found' || echo none
    echo "--- libraries torch loads, started as the script was"
    gpu_run_original 120 python3 "$repo/scripts/gpu/torch_libraries.py"
    echo "--- libraries torch loads with our path (as under gpuprof record)"
    gpu_run_ours 120 python3 "$repo/scripts/gpu/torch_libraries.py"
  } > "$out/inventory.txt" 2>&1
  note "inventory" "see inventory.txt"
}

# The whole suite but fuzz: CPU tests in parallel, then GPU tests one at a time (they share one GPU).
run_tests() {
  if ! command -v ctest > /dev/null; then
    run_test_executables
    return
  fi
  gpu_run_ours 240 ctest --test-dir "$build" --output-on-failure -LE 'gpu|fuzz' -j "$(nproc)" --timeout 120 \
    > "$logs/ctest-cpu.log" 2>&1
  note "ctest, CPU tests" "$(gpu_describe_status $?) ($(grep -E 'tests passed' "$logs/ctest-cpu.log"))"
  gpu_run_ours "$phase_seconds" ctest --test-dir "$build" --output-on-failure -L gpu --timeout 300 \
    > "$logs/ctest-gpu.log" 2>&1
  note "ctest, GPU tests" "$(gpu_describe_status $?) ($(grep -E 'tests passed' "$logs/ctest-gpu.log"))"
  cat "$logs/ctest-cpu.log" "$logs/ctest-gpu.log" > "$out/ctest.log"
}

# No ctest on this machine: each test executable run directly, one row each.
run_test_executables() {
  local name result log
  note "ctest" "not on this machine: test executables run directly"
  while IFS=$'\t' read -r name result; do
    note "test $name" "$result"
  done < <(gpu_run_test_units "$build" "$logs/tests" 300)
  for log in "$logs"/tests/*.log; do
    [[ -e "$log" ]] && { echo "=== $(basename "$log" .log)"; cat "$log"; }
  done > "$out/tests.log"
}

# Records one workload as sample NAME, checks the trace: NAME MODEL ARGS...
record_workload() {
  local name=$1; shift
  local trace=$logs/samples/$name.sqlite
  mkdir -p "$logs/samples"
  local command=("$workload" "$@" --summary "$logs/samples/$name.summary.json")
  echo "gpuprof record -o $name.sqlite -- gpuprof-workload $*" > "$logs/samples/$name.command.txt"
  gpu_run_ours 150 "$gpuprof" record -o "$trace" --force -- "${command[@]}" > "$logs/$name.record.log" 2>&1
  local status=$?
  if ((status != 0)); then note "record $name" "$(gpu_describe_status "$status")"; return; fi
  gpu_run_ours 60 "$gpuprof" info "$trace" > "$logs/$name.info.txt" 2>&1
  gpu_run_ours 60 "$gpuprof" report "$trace" --format json -o "$logs/samples/$name.report.json" \
    2>> "$logs/$name.record.log"
  local dropped steps kernels
  dropped=$(sql "$trace" "select coalesce(sum(value),0) from collector_stats where name like '%dropped%'")
  steps=$(sql "$trace" "select count(*) from ranges r join strings s on s.id = r.name_id where s.value like 'step %'")
  kernels=$(sql "$trace" "select count(*) from kernels")
  note "record $name" "kernels $kernels, step ranges $steps, dropped $dropped"
}

workloads() {
  record_workload gru rnn --cell gru --steps 40 --batch 256
  record_workload lstm rnn --cell lstm --steps 40 --batch 256
  local model
  for model in towers mlp resnet; do
    if gpu_run_ours 30 "$workload" "$model" --help > /dev/null 2>&1; then
      record_workload "$model" "$model" --steps 20
    fi
  done
  tar -C "$logs" -czf "$out/samples.tar.gz" samples
}

# One command run with our path: LIMIT CMD ARGS...; sets timed_status and timed_seconds (wall time).
timed_run() {
  local start end
  start=$(now)
  gpu_run_ours "$@" > /dev/null 2>&1
  timed_status=$?
  end=$(now)
  timed_seconds=$(python3 -c "print($end - $start)")
}

# Median wall time of the same run with and without the collector, interleaved.
overhead() {
  local args=(rnn --steps 200 --batch 256)
  local with=() without=() repeat
  for repeat in 1 2 3 4 5; do
    timed_run 90 "$workload" "${args[@]}"
    ((timed_status == 0)) || { note "overhead run $repeat, bare" "$(gpu_describe_status "$timed_status")"; break; }
    without+=("$timed_seconds")
    timed_run 90 "$gpuprof" record -o "$logs/overhead-$repeat.sqlite" --force -- "$workload" "${args[@]}"
    ((timed_status == 0)) || { note "overhead run $repeat, recorded" "$(gpu_describe_status "$timed_status")"; break; }
    with+=("$timed_seconds")
  done
  if ((${#with[@]} > 0)); then
    note "overhead rnn 200 steps (median of ${#with[@]})" \
      "with $(median "${with[@]}")s, without $(median "${without[@]:0:${#with[@]}}")s"
  fi
  if [[ -x "$build/bench/gpuprof_launch_benchmark" ]]; then
    gpu_run_ours 60 "$build/bench/gpuprof_launch_benchmark" > "$logs/launch-bare.txt" 2>&1
    gpu_run_ours 90 "$gpuprof" record -o "$logs/launch.sqlite" --force -- "$build/bench/gpuprof_launch_benchmark" \
      > "$logs/launch-recorded.txt" 2>&1
    note "launch-bound, bare" "$(tail -1 "$logs/launch-bare.txt")"
    note "launch-bound, recorded" "$(grep 'kernels/s' "$logs/launch-recorded.txt" | tail -1)"
  fi
}

pytorch() {
  local script=$repo/scripts/gpu/torch_small_training.py
  gpu_run_original 180 python3 "$script" --profile "$logs/torch.pt.trace.json" > "$logs/torch-profiled.log" 2>&1
  note "torch.profiler run" "$(gpu_describe_status $?)"
  # python3 under gpuprof record gets our path: see gpu_run_ours in scripts/lib/gpu-environment.sh.
  gpu_run_ours 180 "$gpuprof" record -o "$logs/torch.sqlite" --force -- python3 "$script" \
    > "$logs/torch-recorded.log" 2>&1
  note "gpuprof record run" "$(gpu_describe_status $?)"
  gpu_run_ours 60 "$gpuprof" import "$logs/torch.pt.trace.json" -o "$logs/torch-profiler.sqlite" --force \
    > /dev/null 2>&1
  local trace cell
  for trace in torch torch-profiler; do
    note "pytorch kernels ($trace)" \
      "$(sql "$logs/$trace.sqlite" 'select count(*), sum(end_ns - start_ns) from kernels' 2>&1)"
  done
  # Throughput of the same GRU classifier, sizes, batch and precision, in one run.
  for cell in gru lstm; do
    gpu_run_ours 90 "$workload" rnn --cell "$cell" --batch 256 --steps 300 --quiet \
      --summary "$logs/$cell-throughput.json" > "$logs/$cell-workload.log" 2>&1
    gpu_run_original 120 python3 "$script" --cell "$cell" --batch 256 --steps 300 > "$logs/$cell-torch.log" 2>&1
    note "$cell fp32 batch 256: gpuprof-workload samples/s" \
      "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples_per_second"])' \
        "$logs/$cell-throughput.json" 2>&1)"
    note "$cell fp32 batch 256: PyTorch samples/s" "$(grep 'samples/s' "$logs/$cell-torch.log")"
  done
}

# The workload arguments of each model in the throughput comparison.
declare -A throughput_runs=(
  [gru]="rnn --cell gru --batch 256" [lstm]="rnn --cell lstm --batch 256" [towers]="towers --batch 256"
  [mlp]="mlp --batch 512" [resnet]="resnet --depth 50 --batch 64")
throughput_models=(gru lstm towers mlp resnet)

# Training throughput of one model against its PyTorch equivalent (scripts/gpu/torch_reference_models.py),
# same model sizes, batch and precision, one after the other on the same GPU: MODEL [PRECISION].
compare_throughput() {
  local model=$1 only_precision=${2:-}
  local run=${throughput_runs[$model]} precision name ours theirs
  for precision in fp32 tf32 bf16; do
    [[ -n "$only_precision" && $precision != "$only_precision" ]] && continue
    [[ $model == resnet && $precision == fp32 ]] && continue  # minutes per run without tensor cores
    name=${model}_$precision
    # shellcheck disable=SC2086  # $run is a list of words
    gpu_run_ours 120 "$workload" $run --precision "$precision" --steps 100 --prefetch 2 --host-memory pinned --quiet \
      --summary "$logs/$name.json" > "$logs/$name-workload.log" 2>&1
    local ours_status=$?
    # shellcheck disable=SC2086
    gpu_run_original 150 python3 "$repo/scripts/gpu/torch_reference_models.py" $run --precision "$precision" \
      --steps 100 > "$logs/$name-torch.log" 2>&1
    local theirs_status=$?
    ours=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["samples_per_second"], 1))' \
      "$logs/$name.json" 2>/dev/null || gpu_describe_status "$ours_status")
    theirs=$(awk '/samples\/s/ {print $2}' "$logs/$name-torch.log")
    [[ -n "$theirs" ]] || theirs=$(gpu_describe_status "$theirs_status")
    note "$run $precision" "gpuprof-workload ${ours} samples/s, PyTorch ${theirs} samples/s"
  done
}

throughput() {
  if [[ -z "$throughput_model" ]]; then
    echo "gpu-check.sh: throughput needs a model (${throughput_models[*]}): one model fits one device call" >&2
    exit 2
  fi
  if [[ -z "${throughput_runs[$throughput_model]:-}" ]]; then
    echo "gpu-check.sh: unknown model '$throughput_model' (${throughput_models[*]})" >&2
    exit 2
  fi
  if [[ -n "$throughput_precision" && ! $throughput_precision =~ ^(fp32|tf32|bf16)$ ]]; then
    echo "gpu-check.sh: unknown precision '$throughput_precision' (fp32, tf32, bf16)" >&2
    exit 2
  fi
  compare_throughput "$throughput_model" "$throughput_precision"
}

# Every phase, each with its own budget.
all_phases() {
  local step model
  for step in inventory run_tests workloads overhead pytorch; do
    gpu_phase_start "$phase_seconds"
    "$step"
  done
  for model in "${throughput_models[@]}"; do
    gpu_phase_start "$phase_seconds"
    compare_throughput "$model"
  done
}

prepare_paths
gpu_phase_start "$phase_seconds"
case $phase in
  inventory) inventory ;;
  tests) run_tests ;;
  workloads) workloads ;;
  overhead) overhead ;;
  pytorch) pytorch ;;
  throughput) throughput ;;
  all) all_phases ;;
  *) echo "gpu-check.sh: unknown phase '$phase'" >&2; exit 2 ;;
esac
name=$phase${throughput_model:+-$throughput_model}${throughput_precision:+-$throughput_precision}
tar -C "$logs" -czf "$out/$name-logs.tar.gz" . 2>/dev/null
printf '%s\n' "${results[@]}" | tee "$out/$name.txt"
exit "$failed"
