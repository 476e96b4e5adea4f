#!/usr/bin/env bash
# Saves every document gpuprof writes (report, compare, study, predict, info, every format) for the shared traces
# and the samples, so that two builds can be compared byte for byte:
#   scripts/output-diff.sh save BINARY FOLDER
#   scripts/output-diff.sh diff BASE_FOLDER NEW_FOLDER
# Used to show that a refactor of the writers changes only what it means to change. Run both saves from the
# same folder with the same spelling of the script's path: the documents name their inputs by that path.
# Example (from the worktree root): scripts/output-diff.sh save /work/main/build-release/cli/gpuprof /tmp/base;
# scripts/output-diff.sh save build-release/cli/gpuprof /tmp/new; scripts/output-diff.sh diff /tmp/base /tmp/new
set -u

external=${GPUPROF_EXTERNAL:-$(dirname "$0")/../../shared/data/external}
samples=$(dirname "$0")/../samples

save() {
  local bin=$1 out=$2
  mkdir -p "$out"
  local traces=("$samples"/*.sqlite "$external"/hta/*.json.gz "$external"/kineto-resnet50/*.json.gz
                "$external"/nsys-sqlite/*.sqlite "$external"/nvprof-magma/*.nvvp)
  local t name f
  for t in "${traces[@]}" "$external/dlrm-8rank"; do
    name=$(basename "$t")
    for f in text md json html; do
      "$bin" report -q --format "$f" "$t" > "$out/report.$name.$f" 2>&1
    done
    "$bin" report -q --format csv -o "$out/report.$name.csv.d" "$t" > /dev/null 2>&1
    for f in text json; do "$bin" info -q --format "$f" "$t" > "$out/info.$name.$f" 2>&1; done
  done
  for t in "$samples"/*.sqlite "$external"/kineto-resnet50/*.json.gz "$external"/hta/training_rank0of16.json.gz; do
    name=$(basename "$t")
    for f in text md json csv html; do
      "$bin" predict -q --gpus 2,4,8 --format "$f" "$t" > "$out/predict.$name.$f" 2>&1
    done
  done
  for f in text md json html; do
    "$bin" predict -q --check --format "$f" "$external/dlrm-8rank" > "$out/predict-check.dlrm.$f" 2>&1
    "$bin" compare -q --format "$f" "$samples/mlp.sqlite" "$external/dlrm-8rank" > "$out/compare.mlp-dlrm.$f" 2>&1
    "$bin" compare -q --format "$f" "$external/kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz" \
      "$external/kineto-resnet50/resnet50_num_workers_4.pt.trace.json.gz" > "$out/compare.resnet.$f" 2>&1
  done
  "$bin" compare -q --format csv -o "$out/compare.resnet.csv.d" \
    "$external/kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz" \
    "$external/kineto-resnet50/resnet50_num_workers_4.pt.trace.json.gz" > /dev/null 2>&1
  # A synthetic study, made once by the first build saved and reused, so both builds read the same folder.
  local study=${GPUPROF_STUDY:-/tmp/gpuprof-output-diff-study}
  [ -d "$study" ] || "$bin" sweep -q --synthetic --workload mlp --batch 64,128,256 --gpus 1,2 --repeat 3 --steps 6 -o "$study" > /dev/null 2>&1
  for f in text md html csv json; do
    "$bin" study -q --format "$f" "$study" > "$out/study.$f" 2>&1
    "$bin" study -q --wide --format "$f" "$study" > "$out/study.wide.$f" 2>&1
  done
}

# Traces imported on the fly carry the time of the import (meta created_utc, finished_utc): left out.
diff_folders() {
  local base=$1 new=$2 differ=0 file
  while IFS= read -r file; do
    if ! cmp -s <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$base/$file") \
                <(sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/TIME/g' "$new/$file" 2>/dev/null); then
      echo "differs: $file"
      differ=$((differ + 1))
    fi
  done < <(cd "$base" && find . -type f | sort)
  echo "$differ of $(find "$base" -type f | wc -l) files differ"
}

case ${1:-} in
  save) save "$2" "$3" ;;
  diff) diff_folders "$2" "$3" ;;
  *) echo "usage: $0 save BINARY FOLDER | diff BASE NEW" >&2; exit 2 ;;
esac
