#!/usr/bin/env bash
# The GPU checklist (../shared/GPU-CHECKLIST.md) in one script, run on the GPU
# machine over a copy of the repository with .gpu-carry/ from scripts/gpu-pack.sh:
#
#   scripts/gpu-check.sh run N OUT_DIR [SECONDS]   one device call: run N of `runs`
#   scripts/gpu-check.sh runs                      the runs and their phases' budgets
#   scripts/gpu-check.sh PHASE OUT_DIR             one phase
#   PHASE: inventory | gpu-tests | tests | workloads | overhead | pytorch
#        | bn-recording | conv-ab | ab | layer-tests | graphs   (issue 36: scripts/lib/gpu-ab.sh, gpu-graphs.sh)
#        | throughput MODEL [PRECISION]   (MODEL: gru | lstm | towers | mlp | resnet)
#        | all                            (every phase and model; far longer than one device call)
#   scripts/gpu-check.sh --print-env      (the library path each kind of process gets; no GPU needed)
#
# The device tool runs one command for at most 10 minutes and brings back at most 8
# files of 16 MiB from $OUT (scripts/lib/gpu-limits.sh). So the phases are grouped
# into runs (gpu_runs below, docs/gpu-notes.md), each phase with its own time
# budget, $GPU_CHECK_PHASE_SECONDS (540 s), that no command of it runs past: the
# results are written even after a hang. Each phase appends its table to
# OUT_DIR/results.txt and puts its logs in OUT_DIR/<phase>-logs.tar.gz (the
# inventory is OUT_DIR/inventory.txt, the test output OUT_DIR/tests.log, the
# recorded samples for samples/ OUT_DIR/samples.tar.gz); large traces are summarised
# and deleted. Every invocation ends by listing what OUT_DIR holds and fails loudly
# when it breaks the device tool's limits. A row that is not a measurement says
# FAILED, and the exit status is 1 when any row does.
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
# shellcheck source=lib/gpu-limits.sh
source "$repo/scripts/lib/gpu-limits.sh"
# shellcheck source=lib/gpu-throughput.sh
source "$repo/scripts/lib/gpu-throughput.sh"
# shellcheck source=lib/gpu-ab.sh
source "$repo/scripts/lib/gpu-ab.sh"
# shellcheck source=lib/gpu-graphs.sh
source "$repo/scripts/lib/gpu-graphs.sh"
gpu_environment_init "$carry/lib"

# The device calls, in the order to make them (most needed first: a session is lent
# 15 device minutes, machine starts included, so runs 1 and 2 are what one session
# gets): issue 36's plan first (scripts/lib/gpu-ab.sh, scripts/lib/gpu-throughput.sh),
# then the checklist's runs. Each is PHASE[/MODEL]:SECONDS ...; a run's budgets add up to under 570 s,
# so it ends, tables written and files checked, inside the tool's 600 s limit. Their
# files stay within 8 per run. The CPU tests are not among them: they pass on the
# development machine and in CI, and the default pack leaves them out.
gpu_runs=(
  "bn-recording:90 conv-ab:100 ab:80 layer-tests:60"
  "throughput/gru:50 throughput/lstm:50 throughput/towers:40 throughput/mlp:40 throughput/resnet:150 graphs:60"
  "inventory:40 workloads:200 gpu-tests:240"
  "pytorch:150 overhead:120"
)

usage="usage: gpu-check.sh run N OUT_DIR [SECONDS] | gpu-check.sh runs | gpu-check.sh PHASE OUT_DIR [MODEL [PRECISION]]
       | gpu-check.sh --print-env"

# Prints the runs: one line each, its number, then its phases and their budgets.
print_runs() {
  local index phase total
  for index in "${!gpu_runs[@]}"; do
    total=0
    for phase in ${gpu_runs[$index]}; do total=$((total + ${phase##*:})); done
    echo "run $((index + 1)) ($total s): ${gpu_runs[$index]}"
  done
}

# One device call: the phases of run N one after the other, each in its own process
# with its own budget (scaled down to SECONDS in all when given, for when less device
# time is left than a full run takes), then what OUT_DIR holds. N OUT_DIR [SECONDS]
run_group() {
  local number=$1 out=$2 seconds=${3:-}
  if [[ ! $number =~ ^[0-9]+$ ]] || ((number < 1 || number > ${#gpu_runs[@]})); then
    echo "gpu-check.sh: no run '$number': runs are 1 to ${#gpu_runs[@]} (gpu-check.sh runs)" >&2
    exit 2
  fi
  if [[ -n "$seconds" && ! $seconds =~ ^[0-9]+$ ]]; then
    echo "gpu-check.sh: SECONDS must be a whole number of seconds, not '$seconds'" >&2
    exit 2
  fi
  local phases=${gpu_runs[$((number - 1))]} phase total=0 budget status=0
  for phase in $phases; do total=$((total + ${phase##*:})); done
  # Never more than the run's own budgets: those keep it inside the tool's 600 s.
  [[ -n "$seconds" ]] && ((seconds >= total)) && seconds=""
  mkdir -p "$out"
  local model
  for phase in $phases; do
    budget=${phase##*:}
    [[ -n "$seconds" ]] && budget=$((budget * seconds / total))
    phase=${phase%:*}
    model=""
    [[ $phase == */* ]] && model=${phase#*/}
    phase=${phase%/*}
    echo "=== gpu-check.sh $phase $out${model:+ $model}, $budget s"
    GPU_CHECK_PHASE_SECONDS=$budget "$BASH" "$repo/scripts/gpu-check.sh" "$phase" "$out" ${model:+"$model"} ||
      status=1
    [[ $phase == inventory ]] && use_found_libraries "$out/inventory.txt"
  done
  echo "=== run $number: $(if ((status)); then echo FAILED; else echo passed; fi); results in $out/results.txt"
  gpu_check_returned_files "$out" || { echo "gpu-check.sh: run $number LEAVES MORE THAN THE DEVICE TOOL BRINGS BACK" >&2; status=1; }
  exit "$status"
}

# After the inventory, the next phases of the run find the libraries our binaries
# could not resolve where the inventory found them (cuDNN or NCCL may live only in the
# PyTorch wheels), unless GPU_CHECK_EXTRA_LIBRARY_PATH was given: INVENTORY.
use_found_libraries() {
  [[ -z "${GPU_CHECK_EXTRA_LIBRARY_PATH:-}" && -f "$1" ]] || return 0
  local folders
  folders=$(gpu_found_library_folders "$1")
  [[ -n "$folders" ]] || return 0
  echo "=== the next phases also search $folders (where the inventory found what our path lacks)"
  export GPU_CHECK_EXTRA_LIBRARY_PATH=$folders
}

case "${1:-}" in
  --print-env) gpu_print_environment; exit 0 ;;
  runs) print_runs; exit 0 ;;
  run) run_group "${2:?$usage}" "${3:?$usage}" "${4:-}" ;;
esac
phase=${1:?$usage}
out=${2:?$usage}
throughput_model=${3:-}
throughput_precision=${4:-}
phase_seconds=${GPU_CHECK_PHASE_SECONDS:-540}
name=$phase${throughput_model:+-$throughput_model}${throughput_precision:+-$throughput_precision}
mkdir -p "$out"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
results=()
remarks=""
failed=0

# A row of the result table; a result starting with FAILED makes the exit status 1.
note() {
  results+=("$(printf '%-48s %s' "$1" "$2")")
  [[ $2 == FAILED* ]] && failed=1
  return 0
}
# Whether every argument is a number: a row whose values are not says FAILED.
numbers() {
  local value
  for value in "$@"; do [[ $value =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]] || return 1; done
}
# The GPU image has python3 but no sqlite3 shell: one query, its values printed
# separated by spaces (NULL as 0).
sql() {
  python3 -c 'import sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()
print(*[0 if value is None else value for row in rows for value in row])' "$@"
}
now() { python3 -c 'import time; print(time.time())'; }
median() { python3 -c 'import statistics, sys; print(round(statistics.median(map(float, sys.argv[1:])), 3))' "$@"; }
# How many GPUs nvidia-smi lists here (0 without nvidia-smi): on a machine with
# one, a skipped GPU test is a failure.
gpu_count() {
  gpu_run_original 30 nvidia-smi -L 2>/dev/null | grep -c '^GPU [0-9]'
}

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

# Where the CUDA libraries are looked for ($GPU_CHECK_LIBRARY_ROOTS: the test's fake root).
library_roots=${GPU_CHECK_LIBRARY_ROOTS:-/}

inventory() {
  local report=$out/inventory.txt roots
  read -r -a roots <<< "$library_roots"
  {
    echo "--- nvidia-smi"
    gpu_run_original 30 nvidia-smi
    gpu_run_original 30 nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv
    echo "--- CUDA toolkit ($(gpu_cuda_root))"
    gpu_run_original 30 "$(gpu_cuda_root)/bin/nvcc" --version
    echo "--- CUDA libraries"
    gpu_run_original 40 find "${roots[@]}" -xdev \( -name 'libcupti.so*' -o -name 'libcudnn.so*' \
      -o -name 'libcublas*.so*' -o -name 'libnccl.so*' \) 2>/dev/null | sort | tee "$logs/libraries.txt"
    echo "--- library paths"
    gpu_print_environment
    echo "--- libraries of our binaries, with our path"
    gpu_run_ours 60 ldd "$gpuprof" "$workload" "$build/collector/libgpuprof_collector.so" > "$logs/ldd.txt" 2>&1
    echo "ldd: exit $?" >> "$logs/ldd.txt"
    cat "$logs/ldd.txt"
    # What the next runs need in GPU_CHECK_EXTRA_LIBRARY_PATH: where each missing library is.
    local missing
    while IFS= read -r missing; do
      echo "not found with our path: $missing; on this machine at: $(grep "/$missing\$" "$logs/libraries.txt" |
        tr '\n' ' ')"
    done < <(awk '/=> not found/ {print $1}' "$logs/ldd.txt" | sort -u)
    echo "--- libraries torch loads, started as the script was"
    gpu_run_original 120 python3 "$repo/scripts/gpu/torch_libraries.py" | tee "$logs/torch-original.txt"
    echo "--- libraries torch loads with our path (as under gpuprof record)"
    gpu_run_ours 120 python3 "$repo/scripts/gpu/torch_libraries.py" | tee "$logs/torch-ours.txt"
  } > "$report" 2>&1
  local gpu unresolved environment torch
  # nvidia-smi prints its errors on stdout: only its exit status tells them from a GPU.
  if gpu=$(gpu_run_original 30 nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null) &&
    [[ -n "$gpu" ]]; then
    note "inventory: GPU, driver" "$(head -1 <<< "$gpu")"
  else
    note "inventory: GPU, driver" "FAILED: nvidia-smi lists no GPU (inventory.txt)"
  fi
  # ldd fails when a file is missing or is no dynamic object: no count then.
  if [[ $(tail -1 "$logs/ldd.txt") == "ldd: exit 0" ]]; then
    unresolved=$(grep -c 'not found' "$logs/ldd.txt")
    ((unresolved == 0)) || unresolved="FAILED: $unresolved not found (inventory.txt)"
  else
    unresolved="FAILED: $(tail -1 "$logs/ldd.txt") (inventory.txt)"
  fi
  note "inventory: libraries our binaries cannot resolve" "$unresolved"
  for environment in original ours; do
    torch=$(grep -m1 '^torch ' "$logs/torch-$environment.txt")
    note "inventory: torch, $environment path" "${torch:-FAILED: torch did not run (inventory.txt)}"
  done
  rm -f "$logs"/ldd.txt "$logs"/libraries.txt "$logs"/torch-*.txt  # all in inventory.txt
}

# The result of one ctest run from its exit status and output: STATUS LOG GPUS
# [JUNIT]. "passed (N tests...)", or FAILED with why. With GPUS > 0 (GPU tests on a
# machine with a GPU) the skipped tests' output, read from JUNIT, decides whether a
# skip fails (gpu_skipped_result).
ctest_result() {
  # ctest 3.x prints "100% tests passed, 0 tests failed out of N"; the GPU machine's (2026-11-27) leaves the
  # failure count out when there is none: "100% tests passed out of N".
  local status=$1 log=$2 gpus=$3 junit=${4:-} summary='([0-9]+)% tests passed(, ([0-9]+) tests? failed)? out of ([0-9]+)'
  local line failures total skipped=()
  line=$(grep -E "$summary" "$log" | tail -1)
  if [[ ! $line =~ $summary ]]; then
    echo "FAILED: no ctest summary, $(gpu_describe_status "$status" | sed 's/^FAILED: //')"
    return
  fi
  failures=${BASH_REMATCH[3]:-0}
  total=${BASH_REMATCH[4]}
  if ((failures > 0)); then
    echo "FAILED: $failures of $total tests failed"
  elif ((status != 0)); then
    echo "FAILED: $total tests, ctest $(gpu_describe_status "$status" | sed 's/^FAILED: //')"
  elif ((gpus > 0)); then
    if ! skipped_outputs "$junit" "$logs/skipped"; then
      echo "FAILED: $total tests, no readable $junit for the skipped tests' output"
      return
    fi
    ((skipped_count > 0)) && skipped=("$logs"/skipped/*)
    gpu_skipped_result "$total" "$gpus" "${skipped[@]}"
  else
    # Without a GPU nothing is excused or failed for a skip: a count, from ctest's list.
    mapfile -t skipped < <(grep '\*\*\*Skipped' "$log")
    gpu_skipped_result "$total" 0 "${skipped[@]}"
  fi
}

# Writes the output of each skipped test of ctest's JUnit file JUNIT into FOLDER,
# one file each; sets skipped_count. Fails when the file cannot be read.
skipped_outputs() {
  local junit=$1 folder=$2
  rm -rf "$folder"
  mkdir -p "$folder"
  skipped_count=$(python3 -c 'import os, sys, xml.etree.ElementTree as tree
count = 0
for case in tree.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("skipped") is not None:
        count += 1
        with open(os.path.join(sys.argv[2], str(count)), "w") as output:
            output.write(case.findtext("system-out") or "")
print(count)' "$junit" "$folder" 2>/dev/null) && numbers "$skipped_count"
}

# The whole suite but fuzz: CPU tests in parallel, then GPU tests one at a time (they share one GPU).
# On a machine whose nvidia-smi lists a GPU a skipped GPU test is a failure.
run_tests() {
  local gpus
  gpus=$(gpu_count)
  remarks="nvidia-smi lists $gpus GPUs"
  if [[ "$(cat "$carry/packed-tests.txt" 2>/dev/null)" == gpu ]]; then
    note "ctest, CPU tests" "FAILED: not in the pack (scripts/gpu-pack.sh --all-tests packs them)"
    run_gpu_tests_only "$gpus"
    return
  fi
  if ! command -v ctest > /dev/null; then
    run_test_executables "$gpus"
    return
  fi
  gpu_run_ours 240 ctest --test-dir "$build" --output-on-failure -LE 'gpu|fuzz' -j "$(nproc)" --timeout 120 \
    > "$logs/ctest-cpu.log" 2>&1
  note "ctest, CPU tests" "$(ctest_result $? "$logs/ctest-cpu.log" 0)"
  ctest_gpu_tests "$gpus"
  cat "$logs/ctest-cpu.log" "$logs/ctest-gpu.log" > "$out/tests.log"
  rm -rf "$logs"/ctest-*.log "$logs/skipped"
}

# The tests labelled gpu alone, one at a time: the device call's time goes to what
# only the GPU machine can run.
run_gpu_tests() {
  local gpus
  gpus=$(gpu_count)
  remarks="nvidia-smi lists $gpus GPUs; the CPU tests run on the development machine and in CI"
  run_gpu_tests_only "$gpus"
}

run_gpu_tests_only() {
  local gpus=$1
  if ! command -v ctest > /dev/null; then
    run_test_executables "$gpus" gpu
    return
  fi
  ctest_gpu_tests "$gpus"
  cp "$logs/ctest-gpu.log" "$out/tests.log"
  rm -rf "$logs"/ctest-*.log "$logs/skipped"
}

# ctest's GPU tests, one at a time (they share the GPU), with the JUnit output that
# holds the skipped tests' reasons: GPUS.
ctest_gpu_tests() {
  gpu_run_ours "$phase_seconds" ctest --test-dir "$build" --output-on-failure -L gpu --timeout 300 \
    --no-tests=error --output-junit "$logs/ctest-gpu.xml" > "$logs/ctest-gpu.log" 2>&1
  note "ctest, GPU tests" "$(ctest_result $? "$logs/ctest-gpu.log" "$1" "$logs/ctest-gpu.xml")"
}

# No ctest on this machine: each test executable run directly, one row each: GPUS
# [LABEL: only the units labelled so].
run_test_executables() {
  local gpus=$1 only=${2:-} name result log
  remarks+="; ctest not on this machine: test executables run directly"
  while IFS=$'\t' read -r name result; do
    note "test $name" "$result"
  done < <(gpu_run_test_units "$build" "$logs/tests" 300 "$gpus" "$only")
  for log in "$logs"/tests/*.log; do
    [[ -e "$log" ]] && { echo "=== $(basename "$log" .log)"; cat "$log"; }
  done > "$out/tests.log"
  rm -rf "$logs/tests"
}

# What `gpuprof info` says of TRACE, into LOG; then TRACE is deleted: traces of
# hundreds of MB cannot come back (gpu-limits.sh) and are not needed back.
summarise_and_delete() {
  local trace=$1 log=$2
  [[ -e "$trace" ]] || return 0
  gpu_run_ours 60 "$gpuprof" info "$trace" > "$log" 2>&1
  echo "(the trace, $(gpu_mib "$(stat -c %s "$trace")"), was deleted after this summary)" >> "$log"
  rm -f "$trace" "$trace-wal" "$trace-shm" "$trace-journal"
}

# Every kind of loss the collector writes down (docs/collector.md): records CUPTI
# dropped, buffer requests refused, buffers never handed back, launches whose
# records another CUPTI client took. Any of them makes a recording row FAILED.
lost_sql="select coalesce(sum(value), 0) from collector_stats where name like '%dropped%'
          or name in ('buffer_requests_refused', 'buffers_not_returned', 'activity_buffers_taken')"

# Records one workload as sample NAME, checks the trace: NAME MODEL ARGS...
# The checklist's conditions: kernels and NVTX step ranges recorded, no record
# dropped and no buffer request refused.
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
  local kernels steps lost
  kernels=$(sql "$trace" "select count(*) from kernels" 2>> "$logs/$name.record.log")
  steps=$(sql "$trace" "select count(*) from ranges r join strings s on s.id = r.name_id where s.value like 'step %'" \
    2>> "$logs/$name.record.log")
  lost=$(sql "$trace" "$lost_sql" 2>> "$logs/$name.record.log")
  local row="kernels ${kernels:-?}, step ranges ${steps:-?}, lost ${lost:-?}"
  if ! numbers "$kernels" "$steps" "$lost" || ((kernels == 0 || steps == 0 || lost > 0)); then
    row="FAILED: $row"
  fi
  note "record $name" "$row"
}

workloads() {
  record_workload gru rnn --cell gru --steps 40 --batch 256
  record_workload lstm rnn --cell lstm --steps 40 --batch 256
  local model left_out
  for model in towers mlp resnet; do
    if gpu_run_ours 30 "$workload" "$model" --help > /dev/null 2>&1; then
      record_workload "$model" "$model" --steps 20
    else
      note "record $model" "FAILED: gpuprof-workload $model --help failed"
    fi
  done
  local samples
  samples=$(find "$logs/samples" -name '*.sqlite' 2> /dev/null | wc -l)
  if ((samples == 0)); then
    note "samples.tar.gz" "FAILED: no sample recorded"
    return
  fi
  # The samples come back once, in their own file, not again in the logs.
  if ! gpu_tar_within_limit "$out/samples.tar.gz" "$logs/samples"; then
    note "samples.tar.gz" "FAILED: over $(gpu_mib "$gpu_limit_file_bytes") even empty"
  elif left_out=$(grep -c . "$logs/samples/LEFT-OUT.txt" 2> /dev/null); then
    note "samples.tar.gz" "FAILED: $left_out files left out to fit $(gpu_mib "$gpu_limit_file_bytes") (LEFT-OUT.txt)"
  else
    note "samples.tar.gz" "$samples samples, $(gpu_mib "$(stat -c %s "$out/samples.tar.gz")")"
  fi
  rm -rf "$logs/samples"
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

# The kernels/s a launch benchmark printed in LOG, or FAILED with STATUS.
launch_rate() {
  local log=$1 status=$2 rate
  rate=$(grep -oE '[0-9.]+ kernels/s' "$log" | tail -1)
  if ((status == 0)) && [[ -n "$rate" ]]; then
    echo "$rate"
  else
    gpu_describe_status "$status" | sed 's/^passed/FAILED: no kernels\/s printed/'
  fi
}

# Median wall time of the same run with and without the collector, interleaved.
# The recorded traces are summarised and deleted: the launch benchmark's alone
# holds millions of kernels, hundreds of MB.
overhead() {
  local args=(rnn --steps 200 --batch 256)
  local with=() without=() repeat
  for repeat in 1 2 3 4 5; do
    timed_run 90 "$workload" "${args[@]}"
    ((timed_status == 0)) || { note "overhead run $repeat, bare" "$(gpu_describe_status "$timed_status")"; break; }
    without+=("$timed_seconds")
    timed_run 90 "$gpuprof" record -o "$logs/overhead-$repeat.sqlite" --force -- "$workload" "${args[@]}"
    summarise_and_delete "$logs/overhead-$repeat.sqlite" "$logs/overhead-$repeat.info.txt"
    ((timed_status == 0)) || { note "overhead run $repeat, recorded" "$(gpu_describe_status "$timed_status")"; break; }
    with+=("$timed_seconds")
  done
  if ((${#with[@]} > 0)); then
    note "overhead rnn 200 steps (median of ${#with[@]})" \
      "with $(median "${with[@]}")s, without $(median "${without[@]:0:${#with[@]}}")s"
  fi
  local benchmark=$build/bench/gpuprof_launch_benchmark status kernels lost
  if [[ ! -x "$benchmark" ]]; then
    note "launch-bound benchmark" "FAILED: $benchmark not built"
    return
  fi
  gpu_run_ours 60 "$benchmark" > "$logs/launch-bare.txt" 2>&1
  note "launch-bound, bare" "$(launch_rate "$logs/launch-bare.txt" $?)"
  gpu_run_ours 90 "$gpuprof" record -o "$logs/launch.sqlite" --force -- "$benchmark" > "$logs/launch-recorded.txt" 2>&1
  status=$?
  note "launch-bound, recorded" "$(launch_rate "$logs/launch-recorded.txt" "$status")"
  if [[ -e "$logs/launch.sqlite" ]]; then
    kernels=$(sql "$logs/launch.sqlite" "select count(*) from kernels" 2>> "$logs/launch-recorded.txt")
    lost=$(sql "$logs/launch.sqlite" "$lost_sql" 2>> "$logs/launch-recorded.txt")
    if numbers "$kernels" "$lost"; then
      note "launch-bound, recorded trace" "kernels $kernels, lost $lost"
    else
      note "launch-bound, recorded trace" "FAILED: unreadable (launch-recorded.txt)"
    fi
  fi
  summarise_and_delete "$logs/launch.sqlite" "$logs/launch.info.txt"
}

pytorch() {
  local script=$repo/scripts/gpu/torch_small_training.py status
  # The same 40 steps twice: under torch.profiler, which keeps only its schedule's
  # active steps, and under gpuprof record, which keeps all; both mark each step with
  # a "step N" range, so the comparison takes the profiler's steps from both.
  gpu_run_original 180 python3 "$script" --steps 40 --profile "$logs/torch.pt.trace.json" \
    > "$logs/torch-profiled.log" 2>&1
  status=$?
  note "torch.profiler run" "$(gpu_describe_status "$status")"
  # python3 under gpuprof record gets our path: see gpu_run_ours in scripts/lib/gpu-environment.sh.
  gpu_run_ours 180 "$gpuprof" record -o "$logs/torch.sqlite" --force -- python3 "$script" --steps 40 \
    > "$logs/torch-recorded.log" 2>&1
  status=$?
  note "gpuprof record run" "$(gpu_describe_status "$status")"
  local comparison
  comparison=$(gpu_run_original 120 python3 "$repo/scripts/gpu/compare_profiler_window.py" \
    "$logs/torch.pt.trace.json" "$logs/torch.sqlite" 2> "$logs/compare.log")
  status=$?
  if ((status == 0)) && [[ -n "$comparison" ]]; then
    note "kernels in the profiler's active steps" "$comparison"
  else
    [[ -n "$comparison" ]] || comparison=$(gpu_describe_status "$status" | sed 's/^FAILED: //')
    note "kernels in the profiler's active steps" "FAILED: $comparison (compare.log)"
  fi
  # Our Kineto importer on a trace nobody here wrote.
  gpu_run_ours 60 "$gpuprof" import "$logs/torch.pt.trace.json" -o "$logs/torch-profiler.sqlite" --force \
    > "$logs/import.log" 2>&1
  status=$?
  local kernels
  kernels=$( ((status == 0)) && sql "$logs/torch-profiler.sqlite" "select count(*) from kernels" 2>> "$logs/import.log")
  if numbers "$kernels"; then
    note "gpuprof import of the profiler's trace" "kernels $kernels"
  else
    note "gpuprof import of the profiler's trace" "FAILED: $(gpu_describe_status "$status" | sed 's/^FAILED: //') (import.log)"
  fi
  summarise_and_delete "$logs/torch.sqlite" "$logs/torch.info.txt"
  summarise_and_delete "$logs/torch-profiler.sqlite" "$logs/torch-profiler.info.txt"
  # Throughput of the same GRU classifier, sizes, batch and precision, in one run.
  local cell ours theirs
  for cell in gru lstm; do
    # The script's input pipeline is the old one: pageable batches copied when the step needs them.
    gpu_run_ours 90 "$workload" rnn --cell "$cell" --batch 256 --steps 300 --quiet \
      --loader inline --host-memory pageable --prefetch 0 \
      --summary "$logs/$cell-throughput.json" > "$logs/$cell-workload.log" 2>&1
    status=$?
    ours=$(samples_per_second "$logs/$cell-throughput.json" "$status")
    gpu_run_original 120 python3 "$script" --cell "$cell" --batch 256 --steps 300 > "$logs/$cell-torch.log" 2>&1
    status=$?
    theirs=$(awk '$1 == "samples/s" {print $2}' "$logs/$cell-torch.log")
    numbers "$theirs" || theirs=$(gpu_describe_status "$status")
    throughput_row "$cell fp32 batch 256 (torch_small_training.py)" "$ours" "$theirs"
  done
}

# Every phase, each with its own budget.
all_phases() {
  local step model
  for step in inventory run_tests workloads overhead pytorch bn_recording conv_ab_runs ab_runs layer_tests graphs_runs; do
    gpu_phase_start "$phase_seconds"
    "$step"
  done
  for model in "${throughput_models[@]}"; do
    gpu_phase_start "$phase_seconds"
    compare_throughput "$model"
  done
}

# The phase's ending: its table appended to OUT_DIR/results.txt (and printed), its
# logs in one tarball that fits a returned file, and OUT_DIR checked against what
# the device tool brings back. A phase in which nothing ran has failed.
finish() {
  ((${#results[@]} > 0)) || note "$name" "FAILED: nothing ran"
  if [[ -n "$(ls -A "$logs")" ]] && ! gpu_tar_within_limit "$out/$name-logs.tar.gz" "$logs"; then
    note "$name-logs.tar.gz" "FAILED: over $(gpu_mib "$gpu_limit_file_bytes") even empty"
  fi
  gpu_compress_oversized "$out"
  {
    echo "== $name${remarks:+ ($remarks)}"
    printf '%s\n' "${results[@]}"
  } | tee -a "$out/results.txt"
  if ! gpu_check_returned_files "$out"; then
    echo "FAILED: $out breaks the device tool's limits (see the phase's output)" | tee -a "$out/results.txt" >&2
    failed=1
  fi
}

prepare_paths
gpu_phase_start "$phase_seconds"
case $phase in
  inventory) inventory ;;
  tests) run_tests ;;
  gpu-tests) run_gpu_tests ;;
  workloads) workloads ;;
  overhead) overhead ;;
  pytorch) pytorch ;;
  throughput) throughput ;;
  bn-recording) bn_recording ;;
  conv-ab) conv_ab_runs ;;
  ab) ab_runs ;;
  layer-tests) layer_tests ;;
  graphs) graphs_runs ;;
  all) all_phases ;;
  *) echo "gpu-check.sh: unknown phase '$phase'" >&2; exit 2 ;;
esac
finish
exit "$failed"
