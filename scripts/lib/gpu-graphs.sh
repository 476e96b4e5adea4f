# shellcheck shell=bash
# The caller's variables (logs, repo, workload, gpuprof) are read and its remarks set: shellcheck
# cannot see them from this file alone.
# shellcheck disable=SC2154,SC2034
# Issue 36's CUDA-graph question, sourced by scripts/gpu-check.sh after scripts/lib/gpu-ab.sh (whose
# ab_pair, ab_warmup and ab_repeats it uses):
#  graphs  does the RNN step still leave the GPU idle for launches after the persistent algorithm,
#          and do CUDA graphs take that idle away? The GRU at batch 256 recorded with
#          --cuda-graphs off and on (launch-bound idle per timed step: scripts/gpu/launch_idle_per_step.py),
#          then off against on for GRU and LSTM, interleaved, medians of 3; and what auto decides.

graphs_rnn=(rnn --batch 256 --precision fp32)

# One recording: NAME GRAPHS; a row with the launch-bound idle per timed step.
record_launch_idle() {
  local name=$1 graphs=$2
  local trace=$logs/$name.sqlite idle
  gpu_run_ours 40 "$gpuprof" record -o "$trace" --force -- "$workload" "${graphs_rnn[@]}" --cell gru \
    --cuda-graphs "$graphs" --steps $((ab_warmup + 10)) --warmup-steps "$ab_warmup" > "$logs/$name-record.log" 2>&1
  local status=$?
  if ((status == 0)); then
    idle=$(python3 "$repo/scripts/gpu/launch_idle_per_step.py" "$trace" --warmup "$ab_warmup" 2>> "$logs/$name-record.log")
    status=$?
  fi
  summarise_and_delete "$trace" "$logs/$name-record.info.txt"
  if ((status != 0)); then
    note "gru fp32 256 --cuda-graphs $graphs idle" "$(gpu_describe_status "$status") ($name-record.log)"
    return
  fi
  # The run's own line says what was graphed (a failed capture falls back and says so).
  note "gru fp32 256 --cuda-graphs $graphs idle" "$idle; $(grep -m1 '^cuda graphs:' "$logs/$name-record.log")"
}

graphs_runs() {
  remarks="${ab_warmup} warm-up steps untimed; idle over 10 recorded steps, A/B over 15 timed"
  record_launch_idle gru-graphs-off off
  record_launch_idle gru-graphs-on on
  ab_pair "gru fp32 batch 256 cuda graphs" off on "${graphs_rnn[@]}" --cell gru -- --cuda-graphs off -- --cuda-graphs on
  # What auto decides from its own warm-up on this GPU (it should agree with the pair above).
  gpu_run_ours 30 "$workload" "${graphs_rnn[@]}" --cell gru --cuda-graphs auto --steps $((ab_warmup + 5)) \
    --warmup-steps "$ab_warmup" --quiet > "$logs/gru-graphs-auto.log" 2>&1
  local status=$?
  if ((status == 0)) && grep -q '^cuda graphs:' "$logs/gru-graphs-auto.log"; then
    note "gru fp32 256 --cuda-graphs auto" "$(grep -m1 '^cuda graphs:' "$logs/gru-graphs-auto.log")"
  else
    note "gru fp32 256 --cuda-graphs auto" "$(gpu_describe_status "$status") (gru-graphs-auto.log)"
  fi
  ab_pair "lstm fp32 batch 256 cuda graphs" off on "${graphs_rnn[@]}" --cell lstm -- --cuda-graphs off -- --cuda-graphs on
}
