#!/usr/bin/env bash
# The main job: installs missing packages, builds every component, then
#  - on a machine with an NVIDIA GPU, records the built-in GRU workload under
#    `gpuprof record` (1 GPU; with 2 or more GPUs also data-parallel on 2 GPUs,
#    followed by `gpuprof compare`) and reports on the recording;
#  - otherwise (or when recording fails) analyses the GRU sample recorded on an
#    H200 (samples/gru.sqlite), or a synthetic trace if the sample is missing, and says so.
# Either way the text report goes to the terminal and the HTML and JSON reports to out/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-dependencies.sh
cmake --preset release
cmake --build --preset release
scripts/install-shell-files.sh  # man gpuprof and shell completion, without cmake --install

build="build-release"
gpuprof=$build/cli/gpuprof
workload=$build/workloads/gpuprof-workload
steps=40
mkdir -p out

say() { echo "gpuprof: $*"; }

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
echo
"$gpuprof" info "$trace"
echo
"$gpuprof" report "$trace" --sections summary,devices,job,transfers,kernels,gaps --top 10
rm -f "out/$name-report.html" "out/$name-report.json"
"$gpuprof" report "$trace" --format html -o "out/$name-report.html"
"$gpuprof" report "$trace" --format json -o "out/$name-report.json"
echo
say "HTML report: $PWD/out/$name-report.html (open it in a browser; JSON beside it)"
say "the same trace in the desktop app: $build/gui/gpuprof-gui $trace   (or: $gpuprof gui $trace)"
