# shellcheck shell=bash
# The caller's variables (logs, repo, workload, gpuprof, build, out, phase_seconds) are read and its
# remarks set: shellcheck cannot see them from this file alone.
# shellcheck disable=SC2154,SC2034
# The first device call of issue 36's plan (docs/gpu-notes.md), sourced by scripts/gpu-check.sh, whose
# note, numbers, median, logs, workload, gpuprof and repo it uses:
#  bn-recording  ResNet-50 recorded in fp32 (old paths) and in tf32 and bf16 with the old paths
#                (--batch-norm legacy --conv-algo heuristic) and the new defaults; kernel time per
#                step by kernel family (scripts/gpu/kernel_time_per_step.py --families), which
#                confirms or refutes batch norm as the cause of tf32's 203 ms against fp32's 85 ms;
#  conv-ab       --conv-algo heuristic, measured and graph on ResNet-50 in tf32, bf16 and fp32, and
#                fp32 NCHW against NHWC, interleaved;
#  ab            old against new paths on one binary, interleaved, medians of 3;
#  layer-tests   the GPU tests of the layers issue 36 changes.

ab_warmup=10
ab_repeats=3
resnet50=(resnet --depth 50 --batch 64)
old_resnet_paths=(--batch-norm legacy --conv-algo heuristic)

# One recording of ResNet-50: NAME ARGS...; a row with the kernel time per step by family.
record_families() {
  local name=$1; shift
  local trace=$logs/$name.sqlite families
  gpu_run_ours 45 "$gpuprof" record -o "$trace" --force -- "$workload" "${resnet50[@]}" "$@" \
    --steps $((ab_warmup + 10)) --warmup-steps "$ab_warmup" --quiet > "$logs/$name-record.log" 2>&1
  local status=$?
  if ((status == 0)); then
    python3 "$repo/scripts/gpu/kernel_time_per_step.py" "$trace" --warmup "$ab_warmup" --families \
      > "$logs/$name-families.txt" 2>> "$logs/$name-record.log"
    status=$?
  fi
  summarise_and_delete "$trace" "$logs/$name-record.info.txt"
  if ((status != 0)); then
    note "resnet50 $name kernel ms/step" "$(gpu_describe_status "$status") ($name-record.log)"
    return
  fi
  # "total X; batch norm A (p %), conv dgrad B (q %), ..." from the script's lines.
  families=$(awk 'NR == 1 { total = $3 } /^family / { sub(/^family /, ""); sub(/ ms\/step/, ""); parts = parts sep $0; sep = ", " }
    /^event creations/ { events = "; " $0 } END { print "total " total "; " parts events }' "$logs/$name-families.txt")
  note "resnet50 $name kernel ms/step" "$families"
}

bn_recording() {
  remarks="kernel ms/step over 10 timed steps by family; legacy = --batch-norm legacy --conv-algo heuristic"
  record_families fp32-legacy --precision fp32 "${old_resnet_paths[@]}"
  local precision
  for precision in tf32 bf16; do
    record_families "$precision-legacy" --precision "$precision" "${old_resnet_paths[@]}"
    record_families "$precision-new" --precision "$precision"
  done
}

# One A/B row of any number of sides: REPEATS LABEL COMMON_ARGS... -- NAME FLAGS... [-- NAME FLAGS...]...;
# the sides run in turn, REPEATS rounds, and the row gives each side's median samples/s.
ab_compare() {
  local repeats=$1 label=$2; shift 2
  local -a common=() names=() flags=()
  while [[ $# -gt 0 && $1 != -- ]]; do common+=("$1"); shift; done
  while [[ $# -gt 0 ]]; do
    shift  # the --
    names+=("$1"); shift
    local side_flags=""
    while [[ $# -gt 0 && $1 != -- ]]; do side_flags+="${side_flags:+ }$1"; shift; done
    flags+=("$side_flags")
  done
  local sides=${#names[@]}
  local -a values=() side_args=()  # values[side * repeats + repeat - 1]: one run's samples/s or FAILED
  local repeat side status
  for ((repeat = 1; repeat <= repeats; repeat++)); do
    for ((side = 0; side < sides; side++)); do
      read -ra side_args <<< "${flags[$side]}"
      gpu_run_ours 40 "$workload" "${common[@]}" "${side_args[@]}" --steps $((ab_warmup + 15)) \
        --warmup-steps "$ab_warmup" --quiet --summary "$logs/ab.json" \
        > "$logs/ab-$label-${names[$side]}-$repeat.log" 2>&1
      status=$?
      values[side * repeats + repeat - 1]=$(samples_per_second "$logs/ab.json" "$status")
      rm -f "$logs/ab.json"
    done
  done
  local joined="" runs="" median_value all_numbers=yes
  for ((side = 0; side < sides; side++)); do
    local -a mine=("${values[@]:side * repeats:repeats}")
    median_value=$(median_of_numbers "${mine[@]}")
    numbers "$median_value" || all_numbers=""
    joined+="${joined:+, }${names[$side]} ${median_value#FAILED: }"
    runs+="${runs:+ / }${mine[*]}"
  done
  local rounds="medians of $repeats"
  ((repeats == 1)) && rounds="1 run each"
  if [[ -n $all_numbers ]]; then
    note "A/B $label" "$joined samples/s ($rounds)"
  else
    note "A/B $label" "FAILED: $joined (runs: $runs)"
  fi
}

# One old-against-new row: LABEL OLD_NAME NEW_NAME COMMON_ARGS... -- OLD_FLAGS... -- NEW_FLAGS...
ab_pair() {
  local label=$1 old_name=$2 new_name=$3; shift 3
  local -a common=() old=()
  while [[ $# -gt 0 && $1 != -- ]]; do common+=("$1"); shift; done
  shift
  while [[ $# -gt 0 && $1 != -- ]]; do old+=("$1"); shift; done
  shift
  ab_compare "$ab_repeats" "$label" "${common[@]}" -- "$old_name" "${old[@]}" -- "$new_name" "$@"
}

# Cheapest and most telling first: should the phase's time run out (a measured convolution search
# is paid again by every process), the pairs cut are the last ones, and their rows say so.
ab_runs() {
  remarks="old and new paths of one binary, ${ab_warmup} warm-up steps untimed, 15 timed"
  ab_pair "gru fp32 batch 256 rnn algorithm" standard auto rnn --cell gru --batch 256 -- \
    --rnn-algo standard -- --rnn-algo auto
  ab_pair "resnet50 tf32 batch norm" legacy fused "${resnet50[@]}" --precision tf32 -- \
    --batch-norm legacy -- --batch-norm fused
  ab_pair "resnet50 tf32 input pipeline" "inline pageable synchronous" "pool pinned prefetch 2" \
    "${resnet50[@]}" --precision tf32 -- --loader inline --host-memory pageable --prefetch 0 -- \
    --loader pool --host-memory pinned --prefetch 2
}

# Convolution algorithms three ways on one binary (issue 36 item 2): cuDNN's untimed heuristics,
# its find (measured) and graph API plans (graph). tf32 first, as the issue's headline, with medians
# of 3; then bf16 and fp32 one run a side; last, fp32 in NHWC through graph plans: whether the
# nchwToNhwcKernel transposes of fp32's NCHW tensors cost more than NHWC saves. Each process
# pays its own searches in its warm-up steps; should the phase's time run out, the last rows
# say `not run, the phase's time was spent`.
conv_ab_runs() {
  remarks="convolution algorithms of one binary, ${ab_warmup} warm-up steps untimed (the searches fall in them), 15 timed"
  local precision repeats=$ab_repeats
  for precision in tf32 bf16 fp32; do
    ab_compare "$repeats" "resnet50 $precision convolutions" "${resnet50[@]}" --precision "$precision" \
      -- heuristic --conv-algo heuristic -- measured --conv-algo measured -- graph --conv-algo graph
    repeats=1
  done
  ab_compare 1 "resnet50 fp32 layout, graph convolutions" "${resnet50[@]}" --precision fp32 --conv-algo graph \
    -- nchw --layout nchw -- nhwc --layout nhwc
}

# The GPU tests of the layers issue 36 changes: recurrent, convolution, batch norm, ResNet, training.
layer_tests_pattern='Recurrent|Training|LossFalls|Resnet|Conv|BatchNorm|Elementwise'

layer_tests() {
  local gpus
  gpus=$(gpu_count)
  remarks="nvidia-smi lists $gpus GPUs; GPU tests matching $layer_tests_pattern"
  if ! command -v ctest > /dev/null; then
    run_test_executables "$gpus" gpu
    return
  fi
  gpu_run_ours "$phase_seconds" ctest --test-dir "$build" --output-on-failure -L gpu -R "$layer_tests_pattern" \
    --timeout 120 --no-tests=error --output-junit "$logs/ctest-gpu.xml" > "$logs/ctest-gpu.log" 2>&1
  note "ctest, GPU tests of the changed layers" "$(ctest_result $? "$logs/ctest-gpu.log" "$gpus" "$logs/ctest-gpu.xml")"
  cp "$logs/ctest-gpu.log" "$out/tests.log"
  rm -rf "$logs"/ctest-*.log "$logs/skipped"
}
