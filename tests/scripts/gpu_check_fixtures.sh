# shellcheck shell=bash
# Helpers of the scripts' tests (gpu_check_test.sh, gpu_plan_test.sh), sourced once $repo, $work,
# $calls and $real_python are set: checks, fake programs, and gpu-check.sh run on a PATH of fakes.
# The fake programs are written in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016,SC2154

check() {  # WHAT EXPECTED ACTUAL
  if [[ "$2" == "$3" ]]; then
    echo "ok: $1"
  else
    printf 'FAILED: %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"
    problems=$((problems + 1))
  fi
}

# Writes an executable shell script: PATH LINES...
script() {
  local path=$1; shift
  mkdir -p "$(dirname "$path")"
  printf '%s\n' '#!/bin/sh' "$@" > "$path"
  chmod +x "$path"
}

# The rows of PHASE's last table in results.txt, spaces squeezed: OUT_DIR PHASE.
table() {
  awk -v header="== $2" '$0 ~ /^== / { keep = index($0, header) == 1; if (keep) rows = ""; next }
                        keep { rows = rows $0 "\n" } END { printf "%s", rows }' "$1/results.txt" |
    sed 's/  */ /g'
}

# A file of the SQL that makes an empty gpuprof trace, as gpuprof writes it (schemas/trace.sql holds each
# declared table as a placeholder line): the schema of a shipped sample, made once per test run.
trace_schema() {
  local schema=$work/trace-schema.sql
  [[ -s "$schema" ]] || "$real_python" - "$repo/samples/gru.sqlite" "$schema" << 'EOF'
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
statements = [row[0] for row in db.execute(
    "select sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by rowid")]
version = db.execute("pragma user_version").fetchone()[0]
open(sys.argv[2], "w").write(";\n".join(statements) + f";\nPRAGMA user_version = {version};\n")
EOF
  echo "$schema"
}

# A PATH with the tools the script uses and no ctest: $work/no-ctest.
make_no_ctest_path() {
  local tool
  mkdir -p "$work/no-ctest"
  for tool in bash env timeout dirname basename sed cat mkdir mktemp find sort grep tr tar gzip tee readlink rm \
    stat awk ls wc head tail cp nproc; do
    ln -s "$(command -v "$tool")" "$work/no-ctest/$tool"
  done
}

# A PATH of fakes FOLDER... in front of the tools of the no-ctest PATH.
fake_path() {
  local IFS=:
  echo "$*:$work/no-ctest"
}
# gpu-check.sh PHASE OUT_DIR ARGS... with the fake carry, CUDA and user paths; more
# variables before it on the command line of the caller (FAKE_PATH is its PATH).
gpu_check() {
  FAKE_CALLS=$calls GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
    PATH=$FAKE_PATH "$work/no-ctest/bash" "$repo/scripts/gpu-check.sh" "$@"
}

# The profiler kept steps 20 and 21; gpuprof has 19 to 22. One kernel of step 21 is
# launched from another thread (autograd's), as PyTorch's backward does.
write_profiler_trace() {  # PATH
  cat > "$1" << 'EOF'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#15", "ts": 900, "dur": 400},
 {"ph": "X", "cat": "user_annotation", "name": "step 20", "ts": 1000, "dur": 100},
 {"ph": "X", "cat": "gpu_user_annotation", "name": "step 20", "ts": 1005, "dur": 500},
 {"ph": "X", "cat": "user_annotation", "name": "step 21", "ts": 1200, "dur": 100},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1010, "dur": 5, "args": {"correlation": 7}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1210, "dur": 5, "args": {"correlation": 9}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 1250, "dur": 5, "args": {"correlation": 10}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 1020, "dur": 2.5, "args": {"correlation": 7}},
 {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 1220, "dur": 2.5, "args": {"correlation": 9}},
 {"ph": "X", "cat": "kernel", "name": "relu", "ts": 1260, "dur": 1.0, "args": {"correlation": 10}},
 {"ph": "f", "cat": "ac2g", "name": "ac2g", "ts": 1260, "id": 10}
]}
EOF
}
# gpuprof's trace: STEP_FOR_EXTRA_KERNEL (none when empty) gets one kernel more.
gpuprof_trace() {
  "$real_python" - "$(trace_schema)" "$1" "$2" << 'EOF'
import sqlite3, sys
schema, path, extra = sys.argv[1], sys.argv[2], sys.argv[3]
db = sqlite3.connect(path)
db.executescript(open(schema).read())
db.execute("insert into strings values (1, 'cudaLaunchKernel'), (2, 'gemm'), (3, 'relu')")
correlation = 100
def launch(start, name, thread):
    global correlation
    correlation += 1
    db.execute("insert into api_calls (process_id, thread_id, start_ns, end_ns, correlation_id, name_id, kind) "
               "values (1, ?, ?, ?, ?, 1, 1)", (thread, start, start + 500, correlation))
    db.execute("insert into kernels (device, context, stream, start_ns, end_ns, correlation_id, name_id) "
               "values (0, 1, 7, ?, ?, ?, ?)", (start + 1000, start + 3500 if name == 2 else start + 2000, correlation, name))
for step in (19, 20, 21, 22):
    start = step * 100000
    db.execute("insert into strings values (?, ?)", (10 + step, f"step {step}"))
    db.execute("insert into ranges (process_id, thread_id, start_ns, end_ns, name_id) values (1, 1, ?, ?, ?)",
               (start, start + 50000, 10 + step))
    launch(start + 100, 2, 1)
    if step == 21:
        launch(start + 30000, 3, 2)
    if str(step) == extra:
        launch(start + 40000, 3, 1)
if extra == "unlinked":
    db.execute("insert into kernels (device, context, stream, start_ns, end_ns, correlation_id, name_id) "
               "values (0, 1, 7, 1, 2, 999, 3)")
db.commit()
EOF
}
