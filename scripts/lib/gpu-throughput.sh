# shellcheck shell=bash
# The caller's variables (logs, repo, workload, gpuprof, build, out, phase_seconds) are read and its
# remarks set: shellcheck cannot see them from this file alone.
# shellcheck disable=SC2154,SC2034
# gpuprof-workload against its PyTorch equivalent (scripts/gpu/torch_reference_models.py), sourced
# by scripts/gpu-check.sh (phase `throughput MODEL [PRECISION]`), whose note, numbers, logs,
# workload, gpuprof and repo it uses. Fair by construction (issue 36):
#  - the same input pipeline on both sides: pinned host batches copied 2 steps ahead on a copy
#    stream (gpuprof-workload's defaults: --loader pool --host-memory pinned --prefetch 2;
#    the script's --input pinned-prefetch --prefetch 2), ResNet's channels-last on the host;
#  - warm-up steps run but not timed on both sides;
#  - 3 runs a side, interleaved on one warm GPU (ours, PyTorch, ours, ...: the PyTorch process
#    stays loaded and starts our workload between its windows), medians;
#  - fp32, tf32 and bf16 for every model, ResNet-50 fp32 included, each precision one process
#    with its own time limit (PyTorch's bf16 ResNet its own, larger one);
#  - kernel time per step of both sides from recordings: ours from `gpuprof record`, PyTorch's
#    from a torch.profiler window, both through scripts/gpu/kernel_time_per_step.py.

# The workload arguments of each model in the throughput comparison.
declare -A throughput_runs=(
  [gru]="rnn --cell gru --batch 256" [lstm]="rnn --cell lstm --batch 256" [towers]="towers --batch 256"
  [mlp]="mlp --batch 512" [resnet]="resnet --depth 50 --batch 64")
throughput_models=(gru lstm towers mlp resnet)
throughput_warmup=10
throughput_repeats=3
# Timed steps per window, and the seconds one precision's interleaved comparison may take.
declare -A throughput_steps=([gru]=30 [lstm]=30 [towers]=30 [mlp]=30 [resnet]=20)
declare -A throughput_limits=([gru]=25 [lstm]=25 [towers]=20 [mlp]=20 [resnet]=50
  [resnet_fp32]=60 [resnet_bf16]=55)
throughput_input="pinned host batches copied 2 steps ahead on both sides, ${throughput_warmup} warm-up steps untimed"

# The samples/s in a gpuprof-workload --summary FILE, or what went wrong: FILE STATUS.
samples_per_second() {
  local value
  value=$(python3 -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["samples_per_second"], 1))' \
    "$1" 2>/dev/null)
  if numbers "$value" && (($2 == 0)); then echo "$value"; else gpu_describe_status "$2"; fi
}

# One throughput row, FAILED unless both are numbers: NAME OURS THEIRS.
throughput_row() {
  if numbers "$2" "$3"; then
    note "$1" "gpuprof-workload $2 samples/s, PyTorch $3 samples/s"
  else
    note "$1" "FAILED: gpuprof-workload ${2#FAILED: }, PyTorch ${3#FAILED: }"
  fi
}

# The median of the values that are numbers, else FAILED with the first value's reason.
median_of_numbers() {
  local -a good=()
  local value
  for value in "$@"; do numbers "$value" && good+=("$value"); done
  if ((${#good[@]} > 0)); then median "${good[@]}"; else echo "FAILED: ${1#FAILED: }"; fi
}

# Our median when PyTorch never started our runs (no torch, or it failed first): SUMMARY COMMAND...
ours_alone() {
  local summary_file=$1 repeat status values=()
  shift
  for ((repeat = 1; repeat <= throughput_repeats; repeat++)); do
    gpu_bounded 40 "$@" > "$logs/ours-alone-$repeat.log" 2>&1
    status=$?
    values+=("$(samples_per_second "$summary_file" "$status")")
  done
  median_of_numbers "${values[@]}"
}

# The median a comparison LOG printed for SIDE (gpuprof-workload | PyTorch), or FAILED with STATUS.
logged_median() {
  local value
  value=$(sed -n "s/^median $2 samples\/s \([0-9.]*\) .*/\1/p" "$1" | tail -1)
  if numbers "$value"; then echo "$value"; else gpu_describe_status "$3" | sed 's/^passed/FAILED: no median printed/'; fi
}

# Kernel ms per timed step of a recording (gpuprof .sqlite or profiler .json): TRACE FIRST_TIMED_STEP LOG.
kernel_ms_per_step() {
  local lines
  lines=$(python3 "$repo/scripts/gpu/kernel_time_per_step.py" "$1" --warmup "$2" --families 2>&1)
  echo "$lines" >> "$3"
  sed -n 's/^kernel ms\/step \([0-9.]*\) .*/\1/p' <<< "$lines"
}

# Our kernel time per step: one recorded run of NAME's command (timed steps only). NAME ARGS...
our_kernel_time() {
  local name=$1; shift
  local trace=$logs/$name.sqlite value
  gpu_run_ours 60 "$gpuprof" record -o "$trace" --force -- "$workload" "$@" --quiet > "$logs/$name-record.log" 2>&1
  local status=$?
  value=$( ((status == 0)) && kernel_ms_per_step "$trace" "$throughput_warmup" "$logs/$name-kernels.txt")
  summarise_and_delete "$trace" "$logs/$name-record.info.txt"
  if numbers "$value"; then echo "$value"; else gpu_describe_status "$status" | sed 's/^passed/FAILED: unreadable trace/'; fi
}

# Training throughput and kernel time per step of one model against PyTorch: MODEL [PRECISION].
compare_throughput() {
  local model=$1 only_precision=${2:-} precision
  local run=${throughput_runs[$model]} steps=${throughput_steps[$model]}
  remarks=$throughput_input
  for precision in fp32 tf32 bf16; do
    [[ -n "$only_precision" && $precision != "$only_precision" ]] && continue
    compare_precision "$model" "$precision" "$run" "$steps"
  done
}

compare_precision() {
  local model=$1 precision=$2 run=$3 steps=$4
  local name=${model}_$precision status ours theirs limit=${throughput_limits[${model}_$2]:-${throughput_limits[$1]}}
  local -a args ours_command
  read -r -a args <<< "$run"
  args+=(--precision "$precision")
  # Our pipeline named, not left to the defaults: the PyTorch side is told the same (--input, --prefetch).
  ours_command=(env LD_LIBRARY_PATH="$gpu_our_library_path" "$workload" "${args[@]}"
    --loader pool --host-memory pinned --prefetch 2 --steps $((steps + throughput_warmup)) --warmup-steps "$throughput_warmup" --quiet --summary "$logs/$name.json")
  gpu_run_original "$limit" python3 "$repo/scripts/gpu/torch_reference_models.py" "${args[@]}" --steps "$steps" \
    --warmup-steps "$throughput_warmup" --repeats "$throughput_repeats" --input pinned-prefetch --prefetch 2 \
    --profile "$logs/$name.pt.json" --profile-steps 10 --ours-summary "$logs/$name.json" -- "${ours_command[@]}" \
    > "$logs/$name-compare.log" 2>&1
  status=$?
  ours=$(logged_median "$logs/$name-compare.log" gpuprof-workload "$status")
  theirs=$(logged_median "$logs/$name-compare.log" PyTorch "$status")
  if ! grep -q '^run 1 gpuprof-workload' "$logs/$name-compare.log"; then
    ours=$(ours_alone "$logs/$name.json" "${ours_command[@]}")
  fi
  throughput_row "$run $precision (median of $throughput_repeats)" "$ours" "$theirs"
  local first ours_kernels theirs_kernels
  ours_kernels=$(our_kernel_time "$name" "${args[@]}" --steps $((10 + throughput_warmup)) \
    --warmup-steps "$throughput_warmup")
  first=$(sed -n 's/^profiled steps \([0-9]*\)-.*/\1/p' "$logs/$name-compare.log")
  theirs_kernels="FAILED: no profiler trace"
  if [[ -n "$first" && -s "$logs/$name.pt.json" ]]; then
    theirs_kernels=$(kernel_ms_per_step "$logs/$name.pt.json" "$first" "$logs/$name-torch-kernels.txt")
    numbers "$theirs_kernels" || theirs_kernels="FAILED: unreadable profiler trace"
    rm -f "$logs/$name.pt.json"  # tens of MB for ResNet; its per-family sums are in the logs
  fi
  if numbers "$ours_kernels" "$theirs_kernels"; then
    note "$run $precision kernel ms/step" "gpuprof-workload $ours_kernels, PyTorch $theirs_kernels"
  else
    note "$run $precision kernel ms/step" "FAILED: gpuprof-workload ${ours_kernels#FAILED: }, PyTorch ${theirs_kernels#FAILED: }"
  fi
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
