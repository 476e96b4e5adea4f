# shellcheck shell=bash
# Sourced by scripts/gpu-check.sh (and its test): which library path each kind of
# process gets, and a time limit on every command so that one hang cannot use up a
# 10-minute device call. Nothing here exports LD_LIBRARY_PATH: each command gets its
# path on its own command line.
#
# Our binaries (gpuprof, gpuprof-workload, the test executables, and `gpuprof record`
# with whatever it runs) get, in this order:
#   1. our build's libraries (.gpu-carry/lib: the Debian libraries gpu-pack.sh packs),
#   2. the CUDA toolkit's lib64, then CUPTI's lib folder (each once: lib64 is often
#      a link to lib, and CUDA 13 keeps CUPTI there too),
#   3. $GPU_CHECK_EXTRA_LIBRARY_PATH, if set: folders of the machine that hold a
#      library the toolkit lacks (the inventory names them: cuDNN or NCCL may live
#      only in the PyTorch wheels there),
#   4. the LD_LIBRARY_PATH the script was started with, if any.
# Everything else, python3 above all, runs with the environment the script was
# started with, so that torch loads the cuDNN, NCCL, cuBLAS and CUPTI of its own
# wheels through their RUNPATH (LD_LIBRARY_PATH is searched before RUNPATH).

# Returned by gpu_bounded when the phase had no time left to start the command.
gpu_status_skipped=250

# The toolkit: $GPU_CHECK_CUDA_ROOT, else /usr/local/cuda, else the newest /usr/local/cuda-*.
gpu_cuda_root() {
  if [[ -n "${GPU_CHECK_CUDA_ROOT:-}" ]]; then
    echo "$GPU_CHECK_CUDA_ROOT"
  elif [[ -d /usr/local/cuda ]]; then
    echo /usr/local/cuda
  else
    find /usr/local -maxdepth 1 -name 'cuda-*' -type d 2>/dev/null | sort -V | tail -1
  fi
}

# The toolkit's library folders that exist, lib64 (or lib where there is no lib64)
# first, then CUPTI's, one a line, without repeating a folder reached twice.
gpu_cuda_library_folders() {
  local root=$1 folder real
  local -A seen=()
  local candidates=("$root/lib64" "$root/lib" "$root/extras/CUPTI/lib64" "$root/extras/CUPTI/lib")
  for folder in "${candidates[@]}"; do
    [[ -d "$folder" ]] || continue
    real=$(readlink -f "$folder")
    [[ -n "${seen[$real]:-}" ]] && continue
    seen[$real]=1
    echo "$folder"
  done
}

# The library path of our binaries: OURS, the toolkit's folders, EXTRA, then
# ORIGINAL. An empty EXTRA or ORIGINAL adds nothing: an empty entry would mean the
# current folder.
gpu_our_library_path() {
  local ours=$1 cuda_root=$2 original=$3 extra=${4:-}
  local parts=("$ours") folder
  while IFS= read -r folder; do parts+=("$folder"); done < <(gpu_cuda_library_folders "$cuda_root")
  [[ -n "$extra" ]] && parts+=("$extra")
  [[ -n "$original" ]] && parts+=("$original")
  local IFS=:
  echo "${parts[*]}"
}

# Remembers the starting environment and computes our path. OURS: our build's library folder.
gpu_environment_init() {
  local ours=$1
  gpu_original_set=${LD_LIBRARY_PATH+1}
  gpu_original_library_path=${LD_LIBRARY_PATH-}
  gpu_our_library_path=$(gpu_our_library_path "$ours" "$(gpu_cuda_root)" "$gpu_original_library_path" \
    "${GPU_CHECK_EXTRA_LIBRARY_PATH:-}")
}

# Prints what each kind of process gets (gpu-check.sh --print-env, and the inventory).
gpu_print_environment() {
  echo "ours (gpuprof, gpuprof-workload, tests, gpuprof record and what it runs): LD_LIBRARY_PATH=$gpu_our_library_path"
  if [[ -n "$gpu_original_set" ]]; then
    echo "python3 and the machine's programs: LD_LIBRARY_PATH=$gpu_original_library_path"
  else
    echo "python3 and the machine's programs: LD_LIBRARY_PATH unset"
  fi
}

# Starts a phase's time budget: no command of the phase runs past it.
gpu_phase_start() {
  gpu_phase_deadline=$((SECONDS + $1))
}

# Runs CMD for at most LIMIT seconds and never past the phase's deadline (then
# 124, or 137 if it ignored SIGTERM); $gpu_status_skipped if no time was left.
# timeout(1) signals the command's whole process group, children included.
gpu_bounded() {
  local limit=$1; shift
  local left=$((gpu_phase_deadline - SECONDS))
  ((left < 5)) && return "$gpu_status_skipped"
  ((limit > left)) && limit=$left
  timeout --kill-after=5 "$limit" "$@"
}

# Our binaries, and `gpuprof record` with the program it runs: LIMIT CMD ARGS...
# A python program under `gpuprof record` still needs our path: the CUDA driver
# loads libgpuprof_collector.so into it by the absolute path `gpuprof record` puts
# in CUDA_INJECTION64_PATH (the launcher finds the collector beside its own
# executable, or at $GPUPROF_COLLECTOR), but the collector's own libraries
# (libsqlite3 from .gpu-carry/lib, libcupti.so.13 from the toolkit) are found by the
# loader through LD_LIBRARY_PATH. A libcupti.so.13 torch has already loaded is
# reused whatever the path says.
gpu_run_ours() {
  local limit=$1; shift
  gpu_bounded "$limit" env LD_LIBRARY_PATH="$gpu_our_library_path" "$@"
}

# python3 and other programs of the machine, with the environment the script was
# started with: LIMIT CMD ARGS...
gpu_run_original() {
  local limit=$1; shift
  if [[ -n "$gpu_original_set" ]]; then
    gpu_bounded "$limit" env LD_LIBRARY_PATH="$gpu_original_library_path" "$@"
  else
    gpu_bounded "$limit" env -u LD_LIBRARY_PATH "$@"
  fi
}

# One word for a command's exit status, for the result table.
gpu_describe_status() {
  case $1 in
    0) echo "passed" ;;
    124 | 137) echo "FAILED: timed out" ;;
    "$gpu_status_skipped") echo "FAILED: not run, the phase's time was spent" ;;
    *) echo "FAILED: exit $1" ;;
  esac
}

# The folders, :-separated, where an inventory (INVENTORY: its inventory.txt) found
# the libraries our binaries could not resolve, in the order it found them.
gpu_found_library_folders() {
  sed -n 's/^not found with our path: [^;]*; on this machine at: //p' "$1" | tr ' ' '\n' |
    sed -n 's|^\(/.*\)/[^/]*$|\1|p' | awk '!seen[$0]++' | paste -sd: -
}
