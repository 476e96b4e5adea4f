#!/usr/bin/env bash
# The main job: installs missing packages, builds every component, then
#  - on a machine with an NVIDIA GPU, records the built-in GRU workload under
#    `gpuprof record` (1 GPU; with 2 or more GPUs also data-parallel on 2 GPUs,
#    followed by `gpuprof compare`) and reports on the recording;
#  - otherwise (or when recording fails) analyses the GRU sample recorded on an
#    H200 (samples/gru.sqlite), or a synthetic trace if the sample is missing, and says so.
# Either way the HTML, JSON and text reports go to out/, and the report's first screen is the last thing
# printed, with where the reports are, how to open the app and what to try next. It builds only what it
# runs (the CLI, collector, workloads and app); scripts/test.sh builds and runs the tests. Package and
# build output go to out/setup.log and out/build.log: the terminal shows one progress line.
set -euo pipefail
cd "$(dirname "$0")/.."

build="build-release"
gpuprof=$build/cli/gpuprof
workload=$build/workloads/gpuprof-workload
steps=40
mkdir -p out

say() { echo "gpuprof: $*"; }

# Runs a command with its output in LOG; on failure shows the log's end and stops.
quietly() {
  local log=$1
  shift
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log"
    say "failed: $* (whole log: $log)"
    exit 1
  fi
}

# Ninja's "[done/total]" lines as one line redrawn on a terminal (elsewhere, a line per tenth); all in LOG.
build_progress() {
  local log=$1 line shown=-1
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]] || continue
    local done=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]}
    if [[ -t 1 ]]; then
      printf '\rgpuprof: building %d/%d' "$done" "$total"
    elif ((done * 10 / total != shown)); then
      shown=$((done * 10 / total))
      say "building $done/$total"
    fi
  done
  if [[ -t 1 ]]; then printf '\n'; fi
}

# The targets this script runs, those this configuration has (no CUDA toolkit: no collector or workloads;
# no Qt: no app).
wanted_targets() {
  local all
  all=$(cmake --build "$build" --target help 2>/dev/null | sed -n 's/^\([^:]*\): .*/\1/p')
  for target in gpuprof gpuprof_collector gpuprof-workload gpuprof-gui gpuprof_cli_reference; do
    if grep -qx "$target" <<<"$all"; then echo "$target"; fi
  done
}

say "checking packages (log: out/setup.log)"
: >out/setup.log
quietly out/setup.log scripts/install-dependencies.sh
: >out/build.log
quietly out/build.log cmake --preset release
# What this machine can build, as configure said it (a component left out names its reason).
sed -n '/gpuprof: all components are built/p; /gpuprof: components left out, and why/,/^-- [A-Z]/p' out/build.log |
  sed 's/^-- //' | grep -E '^(gpuprof:|  )' || true
mapfile -t targets < <(wanted_targets)
say "building ${targets[*]} (log: out/build.log)"
if ! cmake --build "$build" --target "${targets[@]}" 2>&1 | build_progress out/build.log; then
  tail -n 30 out/build.log
  say "the build failed (whole log: out/build.log)"
  exit 1
fi
# man gpuprof and shell completion, without cmake --install: its one line says where they went.
scripts/install-shell-files.sh 2>&1 | tail -n 1 || say "the man page and completion were not installed (see above)"

gpu_count() {
  command -v nvidia-smi >/dev/null 2>&1 || { echo 0; return; }
  nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | grep -c . || true
}

# The last line a failed step printed, so the fallback says why in one line.
last_line() { grep -v '^[[:space:]]*$' "$1" | tail -n 1; }

# record NAME WORKLOAD-ARGS...: records into out/NAME.sqlite, logs into out/NAME.log.
record() {
  local name=$1
  shift
  rm -f "out/$name.sqlite"
  "$gpuprof" record -o "out/$name.sqlite" -- "$workload" rnn --steps "$steps" --quiet "$@" \
    >"out/$name.log" 2>&1
}

# Records on the GPU and sets `trace`; or sets `reason` and fails.
record_on_gpu() {
  local gpus
  gpus=$(gpu_count)
  if ((gpus == 0)); then
    reason="no NVIDIA GPU found (nvidia-smi lists none)"
    return 1
  fi
  if [[ ! -x $workload || ! -e $build/collector/libgpuprof_collector.so ]]; then
    reason="this build has no collector or workloads (no CUDA toolkit when it was configured)"
    return 1
  fi
  say "recording $steps steps of the GRU workload on 1 GPU (log: out/rnn-1gpu.log)"
  if ! record rnn-1gpu --gpus 1 --batch 256; then
    reason="recording on 1 GPU failed: $(last_line out/rnn-1gpu.log)"
    return 1
  fi
  trace=out/rnn-1gpu.sqlite
  if ((gpus >= 2)); then
    say "recording the same workload data-parallel on 2 GPUs (log: out/rnn-2gpu.log)"
    if record rnn-2gpu --gpus 2 --strategy data-parallel --batch 256; then
      echo
      "$gpuprof" compare out/rnn-1gpu.sqlite out/rnn-2gpu.sqlite
      rm -f out/rnn-compare.html
      "$gpuprof" compare out/rnn-1gpu.sqlite out/rnn-2gpu.sqlite --format html -o out/rnn-compare.html
      say "1 vs 2 GPUs comparison written to out/rnn-compare.html"
    else
      say "recording on 2 GPUs failed: $(last_line out/rnn-2gpu.log); reporting the 1-GPU run only"
    fi
  fi
}

trace=""
reason=""
if record_on_gpu; then
  echo
  say "this is a real recording of the built-in GRU workload ($trace)"
elif [[ -f samples/gru.sqlite ]]; then
  trace=samples/gru.sqlite
  echo
  say "NOT recorded here: $reason."
  say "analysing the GRU sample recorded on an NVIDIA H200 instead (samples/gru.sqlite; samples/README.md)"
else
  trace=out/synthetic-4gpu.sqlite
  echo
  say "NOT a recording: $reason."
  say "analysing a synthetic 4-GPU training trace instead ($trace)"
  "$gpuprof" synth -o "$trace" --devices 4 --steps 30 --input-memory mixed --force
fi

name=$(basename "$trace" .sqlite)
# What the trace holds, in one line; the collector's counters in full only when it lost records.
info=out/$name-info.txt
"$gpuprof" info "$trace" >"$info"
lost=$(awk '/^  collector stats/ { stats = 1; next } /^  [^ ]/ { stats = 0 }
            stats && $2 ~ /^[0-9]+$/ && $2 > 0 && ($1 ~ /drop|lost|refused/ || $3 == "warning")' "$info")
kernels=$(awk '$1 == "kernels" && $2 ~ /^[0-9]+$/ { print $2; exit }' "$info")
span=$(awk '$1 == "time" && $2 == "span" { print $3 " " $4; exit }' "$info")
if [[ -n $lost ]]; then
  say "the collector lost records (all its counters: $info):"
  echo "$lost"
else
  say "$trace: ${kernels:-?} kernels over ${span:-?}, nothing lost (every counter: $info)"
fi
rm -f "out/$name-report.html" "out/$name-report.json" "out/$name-report.txt"
"$gpuprof" report "$trace" --format html -o "out/$name-report.html" -q
"$gpuprof" report "$trace" --format json -o "out/$name-report.json" -q
"$gpuprof" report "$trace" -o "out/$name-report.txt" -q
echo
"$gpuprof" report "$trace" --sections summary
echo
say "whole report: $PWD/out/$name-report.html (open it in a browser; text and JSON beside it)"
if [[ -x $build/gui/gpuprof-gui ]]; then
  say "the same trace in the desktop app: $build/gui/gpuprof-gui $trace   (or: $gpuprof gui $trace)"
else
  say "no desktop app in this build (Qt 6 was not found when it was configured)"
fi
say "next: $gpuprof report $trace --sections kernels,gaps   (the kernels and the gaps between steps)"
say "      $gpuprof record -o my.sqlite -- python train.py   (record your own training on a GPU)"
