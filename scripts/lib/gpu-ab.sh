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

# One A/B row: LABEL OLD_NAME NEW_NAME COMMON_ARGS... -- OLD_FLAGS... -- NEW_FLAGS...; the
# old and new runs alternate ab_repeats times, and the row gives each side's median samples/s.
ab_pair() {
  local label=$1 old_name=$2 new_name=$3; shift 3
  local -a common=() old=() new=()
  while [[ $# -gt 0 && $1 != -- ]]; do common+=("$1"); shift; done
  shift
  while [[ $# -gt 0 && $1 != -- ]]; do old+=("$1"); shift; done
  shift
  new=("$@")
  local -a old_values=() new_values=()
  local repeat side value status
  for ((repeat = 1; repeat <= ab_repeats; repeat++)); do
    for side in old new; do
      local -n flags=$side
      gpu_run_ours 40 "$workload" "${common[@]}" "${flags[@]}" --steps $((ab_warmup + 15)) \
        --warmup-steps "$ab_warmup" --quiet --summary "$logs/ab.json" > "$logs/ab-$label-$side-$repeat.log" 2>&1
      status=$?
      value=$(samples_per_second "$logs/ab.json" "$status")
      rm -f "$logs/ab.json"
      if [[ $side == old ]]; then old_values+=("$value"); else new_values+=("$value"); fi
    done
  done
  local old_median new_median
  old_median=$(median_of_numbers "${old_values[@]}")
  new_median=$(median_of_numbers "${new_values[@]}")
  if numbers "$old_median" "$new_median"; then
    note "A/B $label" "$old_name $old_median, $new_name $new_median samples/s (medians of $ab_repeats)"
  else
    note "A/B $label" "FAILED: $old_name ${old_median#FAILED: }, $new_name ${new_median#FAILED: } (runs: ${old_values[*]} / ${new_values[*]})"
  fi
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
  ab_pair "resnet50 tf32 convolutions" heuristic measured "${resnet50[@]}" --precision tf32 -- \
    --conv-algo heuristic -- --conv-algo measured
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
