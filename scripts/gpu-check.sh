#!/usr/bin/env bash
# The GPU checklist (../shared/GPU-CHECKLIST.md) in one script, run on the GPU
# machine over a copy of the repository with .gpu-carry/ from scripts/gpu-pack.sh:
#
#   scripts/gpu-check.sh PHASE OUT_DIR
#   PHASE: inventory | tests | workloads | overhead | pytorch | throughput | all
#
# Each phase fits in one 10-minute device call and writes few files (the device
# tool returns at most 8): OUT_DIR/<phase>.txt with a short table at its end,
# and OUT_DIR/<phase>-logs.tar.gz with everything else. `workloads` also writes
# OUT_DIR/samples.tar.gz: the recorded samples for samples/.
set -uo pipefail
phase=${1:?usage: gpu-check.sh PHASE OUT_DIR}
out=${2:?usage: gpu-check.sh PHASE OUT_DIR}
repo=$(cd "$(dirname "$0")/.." && pwd)
carry=$repo/.gpu-carry
mkdir -p "$out"
logs=$(mktemp -d)
results=()

note() { results+=("$(printf '%-44s %s' "$1" "$2")"); }
# The GPU image has python3 but no sqlite3 shell: one query, its rows printed.
sql() { python3 -c 'import sqlite3, sys; print(*sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall())' "$@"; }
now() { python3 -c 'import time; print(time.time())'; }
median() { python3 -c 'import statistics, sys; print(round(statistics.median(map(float, sys.argv[1:])), 3))' "$@"; }

# The build's absolute paths as they were where it was built.
prepare_paths() {
  local source_dir
  source_dir=$(cat "$carry/source-dir.txt")
  if [[ "$source_dir" != "$repo" && ! -e "$source_dir" ]]; then
    mkdir -p "$(dirname "$source_dir")"
    ln -s "$repo" "$source_dir"
  fi
  [[ -e "$source_dir/build-gpu" ]] || ln -s "$carry/build-gpu" "$source_dir/build-gpu"
  build=$source_dir/build-gpu
  gpuprof=$build/cli/gpuprof
  workload=$build/workloads/gpuprof-workload
  # CUDA libraries: the toolkit's folder first, then PyTorch's wheels (cuDNN, NCCL, cuBLAS, CUPTI).
  local folders
  folders=$(find /usr/local/cuda*/lib64 /usr/local/cuda*/extras/CUPTI/lib64 /usr/lib/python3*/ /opt /usr/local/lib/python3* \
    \( -name 'libcudnn.so*' -o -name 'libnccl.so*' -o -name 'libcublas.so*' -o -name 'libcupti.so*' \) \
    -printf '%h\n' 2>/dev/null | sort -u | tr '\n' ':')
  export LD_LIBRARY_PATH="$carry/lib:${folders}${LD_LIBRARY_PATH:-}"
}

inventory() {
  {
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
    echo "--- CUDA libraries"
    find / -xdev \( -name 'libcupti.so*' -o -name 'libcudnn.so*' -o -name 'libcublas*.so*' -o -name 'libnccl.so*' \) \
      2>/dev/null | sort
    echo "--- python"
    python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.get_device_name(0))'
    echo "--- LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    echo "--- unresolved libraries of our binaries"
    ldd "$gpuprof" "$workload" "$build/collector/libgpuprof_collector.so" | grep 'not found' || echo none
  } > "$out/inventory.txt" 2>&1
  note "inventory" "see inventory.txt"
}

run_tests() {
  ctest --test-dir "$build" --output-on-failure -LE fuzz > "$logs/ctest.log" 2>&1
  note "ctest (gpu tests included)" "exit $? ($(grep -E 'tests passed' "$logs/ctest.log"))"
  cp "$logs/ctest.log" "$out/ctest.log"
}

# Records one workload, checks the trace, keeps it as a sample.
record_workload() {
  local model=$1; shift
  local trace=$logs/samples/$model.sqlite
  mkdir -p "$logs/samples"
  "$gpuprof" record -o "$trace" --force -- "$workload" "$model" --summary "$logs/samples/$model.summary.json" "$@" \
    > "$logs/$model.record.log" 2>&1
  local status=$?
  if ((status != 0)); then note "record $model" "FAILED exit $status"; return; fi
  "$gpuprof" info "$trace" > "$logs/$model.info.txt" 2>&1
  "$gpuprof" report "$trace" --format json -o "$logs/samples/$model.report.json" 2>> "$logs/$model.record.log"
  local dropped steps kernels
  dropped=$(sql "$trace" "select coalesce(sum(value),0) from collector_stats where name like '%dropped%'")
  steps=$(sql "$trace" "select count(*) from ranges r join strings s on s.id = r.name_id where s.value like 'step %'")
  kernels=$(sql "$trace" "select count(*) from kernels")
  echo "$*" > "$logs/samples/$model.command.txt"
  note "record $model" "kernels $kernels, step ranges $steps, dropped $dropped"
}

workloads() {
  record_workload rnn --cell gru --steps 40 --batch 256
  record_workload rnn --cell lstm --steps 40 --batch 256
  for model in towers mlp resnet; do
    if "$workload" "$model" --help > /dev/null 2>&1; then record_workload "$model" --steps 20; fi
  done
  tar -C "$logs" -czf "$out/samples.tar.gz" samples
}

# Median wall time of the same run with and without the collector, interleaved.
overhead() {
  local args=(rnn --steps 200 --batch 256)
  local with=() without=()
  for repeat in 1 2 3 4 5; do
    local start
    start=$(now); "$workload" "${args[@]}" > /dev/null 2>&1
    without+=("$(python3 -c "import time; print(time.time() - $start)")")
    start=$(now)
    "$gpuprof" record -o "$logs/overhead-$repeat.sqlite" --force -- "$workload" "${args[@]}" > /dev/null 2>&1
    with+=("$(python3 -c "import time; print(time.time() - $start)")")
  done
  local median_with median_without
  median_with=$(median "${with[@]}")
  median_without=$(median "${without[@]}")
  note "overhead rnn 200 steps (median of 5)" "with ${median_with}s, without ${median_without}s"
  if [[ -x "$build/bench/gpuprof_launch_benchmark" ]]; then
    "$build/bench/gpuprof_launch_benchmark" > "$logs/launch-bare.txt" 2>&1
    "$gpuprof" record -o "$logs/launch.sqlite" --force -- "$build/bench/gpuprof_launch_benchmark" \
      > "$logs/launch-recorded.txt" 2>&1
    note "launch-bound, bare" "$(tail -1 "$logs/launch-bare.txt")"
    note "launch-bound, recorded" "$(grep 'kernels/s' "$logs/launch-recorded.txt" | tail -1)"
  fi
}

pytorch() {
  python3 "$repo/scripts/gpu/torch_small_training.py" --profile "$logs/torch.pt.trace.json" \
    > "$logs/torch-profiled.log" 2>&1
  "$gpuprof" record -o "$logs/torch.sqlite" --force -- python3 "$repo/scripts/gpu/torch_small_training.py" \
    > "$logs/torch-recorded.log" 2>&1
  "$gpuprof" import "$logs/torch.pt.trace.json" -o "$logs/torch-profiler.sqlite" --force > /dev/null 2>&1
  for trace in torch torch-profiler; do
    note "pytorch kernels ($trace)" \
      "$(sql "$logs/$trace.sqlite" 'select count(*), sum(end_ns - start_ns) from kernels' 2>&1)"
  done
  # Throughput of the same GRU classifier, sizes, batch and precision, in one run.
  for cell in gru lstm; do
    "$workload" rnn --cell "$cell" --batch 256 --steps 300 --quiet \
      --summary "$logs/$cell-throughput.json" > "$logs/$cell-workload.log" 2>&1
    python3 "$repo/scripts/gpu/torch_small_training.py" --cell "$cell" --batch 256 --steps 300 \
      > "$logs/$cell-torch.log" 2>&1
    note "$cell fp32 batch 256: gpuprof-workload samples/s" \
      "$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["samples_per_second"])' \
        "$logs/$cell-throughput.json" 2>&1)"
    note "$cell fp32 batch 256: PyTorch samples/s" "$(grep 'samples/s' "$logs/$cell-torch.log")"
  done
}

# Training throughput against the PyTorch equivalents (scripts/gpu/torch_reference_models.py),
# same model sizes, batch and precision, one after the other on the same GPU.
throughput() {
  local runs=("rnn --cell gru --batch 256" "rnn --cell lstm --batch 256" "towers --batch 256" "mlp --batch 512"
              "resnet --depth 50 --batch 64")
  local run precision name ours theirs
  for run in "${runs[@]}"; do
    for precision in fp32 tf32 bf16; do
      [[ $run == resnet* && $precision == fp32 ]] && continue  # minutes per run without tensor cores
      name=$(echo "$run $precision" | tr -d '-' | tr ' ' '_')
      # shellcheck disable=SC2086  # $run is a list of words
      "$workload" $run --precision "$precision" --steps 100 --prefetch 2 --host-memory pinned --quiet \
        --summary "$logs/$name.json" > "$logs/$name-workload.log" 2>&1
      # shellcheck disable=SC2086
      python3 "$repo/scripts/gpu/torch_reference_models.py" $run --precision "$precision" --steps 100 \
        > "$logs/$name-torch.log" 2>&1
      ours=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["samples_per_second"], 1))' \
        "$logs/$name.json" 2>/dev/null || echo failed)
      theirs=$(awk '/samples\/s/ {print $2}' "$logs/$name-torch.log")
      note "$run $precision" "gpuprof-workload ${ours} samples/s, PyTorch ${theirs:-failed} samples/s"
    done
  done
}

prepare_paths
case $phase in
  inventory) inventory ;;
  tests) run_tests ;;
  workloads) workloads ;;
  overhead) overhead ;;
  pytorch) pytorch ;;
  throughput) throughput ;;
  all) inventory; run_tests; workloads; overhead; pytorch; throughput ;;
  *) echo "gpu-check.sh: unknown phase '$phase'" >&2; exit 2 ;;
esac
tar -C "$logs" -czf "$out/$phase-logs.tar.gz" . 2>/dev/null
printf '%s\n' "${results[@]}" | tee "$out/$phase.txt"
