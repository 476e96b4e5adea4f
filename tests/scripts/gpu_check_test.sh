#!/usr/bin/env bash
# What scripts/gpu-check.sh and scripts/gpu-pack.sh do that needs no GPU, with fake
# programs on a fake PATH and a fake LD_LIBRARY_PATH:
#  1. the library path of our binaries is ours, the toolkit's lib64, CUPTI's folder,
#     GPU_CHECK_EXTRA_LIBRARY_PATH, then the starting LD_LIBRARY_PATH; python3 gets
#     the starting one (or none);
#  2. in the `pytorch` phase itself, every plain python3 gets the starting path and
#     our binaries (and the python3 under `gpuprof record`) get ours;
#  3. without ctest on PATH, the `tests` phase runs the test executables read from
#     the CTest files, one row each, skips fuzz, and fails when one fails;
#  4. the inventory is kept in inventory.txt, the table goes to results.txt, and a
#     library our binaries cannot resolve fails it, located on the machine;
#  5. on a machine whose nvidia-smi lists a GPU, a skipped GPU test fails its row
#     (but a two-GPU test on a one-GPU machine), with and without ctest;
#  6. `throughput` fails when its runs fail, ResNet-50 has its fp32 row, and ours is
#     measured alone when PyTorch cannot run;
#  7. what OUT_DIR keeps fits what the device tool brings back (8 files of 16 MiB):
#     big traces are summarised and deleted, tarballs stay under the limit, and a
#     breach is reported loudly; each recorded workload is checked, its sample
#     comes back once;
#  8. the torch.profiler / gpuprof comparison takes the profiler's steps from both;
#  9. the four runs fit the device tool's 10 minutes, `run N` runs their phases, and
#     docs/gpu-notes.md lists the same runs and device calls that fit;
# 10. the pack carries no glibc, CUDA or C++-runtime library, strips only ELF files,
#     and refuses a pack that does not fit 64 MiB with the repository's files.
#   gpu_check_test.sh REPOSITORY
# The fake programs are written in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016
set -uo pipefail
repo=${1:?usage: gpu_check_test.sh REPOSITORY}
work=$(mktemp -d)
[[ -n "${GPU_CHECK_TEST_KEEP:-}" ]] || trap 'rm -rf "$work"' EXIT  # kept for a look when set
problems=0
# shellcheck source=gpu_check_fixtures.sh
source "$repo/tests/scripts/gpu_check_fixtures.sh"



# A CUDA 12 layout (CUPTI under extras/) and a CUDA 13 one (lib64 a link to lib, CUPTI in it).
mkdir -p "$work/cuda12/lib64" "$work/cuda12/extras/CUPTI/lib64" "$work/cuda13/lib"
ln -s lib "$work/cuda13/lib64"
ours=$work/carry/lib
mkdir -p "$ours"
script "$work/bin/show-path" 'echo "${LD_LIBRARY_PATH-unset}"'
script "$work/bin/python3" 'echo "${LD_LIBRARY_PATH-unset}"'

# shellcheck source=../../scripts/lib/gpu-environment.sh
source "$repo/scripts/lib/gpu-environment.sh"
# shellcheck source=../../scripts/lib/gpu-test-executables.sh
source "$repo/scripts/lib/gpu-test-executables.sh"
# shellcheck source=../../scripts/lib/gpu-limits.sh
source "$repo/scripts/lib/gpu-limits.sh"
# shellcheck source=../../scripts/lib/gpu-pack-libraries.sh
source "$repo/scripts/lib/gpu-pack-libraries.sh"
real_python=$(command -v python3)

echo "--- 1. library paths"
saved_path=$PATH
PATH=$work/bin:$PATH
gpu_phase_start 60
GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a:/user/b gpu_environment_init "$ours"
check "CUDA 12: ours, lib64, CUPTI, then the user's" \
  "$ours:$work/cuda12/lib64:$work/cuda12/extras/CUPTI/lib64:/user/a:/user/b" "$(gpu_run_ours 10 show-path)"
check "CUDA 12: python3 gets the user's path" "/user/a:/user/b" "$(gpu_run_original 10 python3)"

(unset LD_LIBRARY_PATH; GPU_CHECK_CUDA_ROOT=$work/cuda13 gpu_environment_init "$ours"; gpu_run_ours 10 show-path;
 gpu_run_original 10 python3) > "$work/unset.txt"
check "CUDA 13 (lib64 -> lib, CUPTI there), no user path: no empty entry" \
  "$ours:$work/cuda13/lib64 unset" "$(tr '\n' ' ' < "$work/unset.txt" | sed 's/ $//')"

GPU_CHECK_CUDA_ROOT=$work/cuda13 LD_LIBRARY_PATH='' gpu_environment_init "$ours"
check "an empty user path adds no entry (it would mean the current folder)" \
  "$ours:$work/cuda13/lib64" "$(gpu_run_ours 10 show-path)"
check "an empty user path stays empty for python3" "" "$(gpu_run_original 10 python3)"

GPU_CHECK_CUDA_ROOT=$work/cuda13 GPU_CHECK_EXTRA_LIBRARY_PATH=/wheels/cudnn/lib LD_LIBRARY_PATH=/user/a \
  gpu_environment_init "$ours"
check "extra folders (libraries the toolkit lacks) come after the toolkit, before the user's" \
  "$ours:$work/cuda13/lib64:/wheels/cudnn/lib:/user/a" "$(gpu_run_ours 10 show-path)"
check "python3 does not get them" "/user/a" "$(gpu_run_original 10 python3)"

gpu_phase_start 60
gpu_bounded 1 sleep 30
check "a hung command is stopped at its limit" "124" "$?"
gpu_phase_start 0
gpu_bounded 10 show-path > /dev/null
check "no command starts once the phase's time is spent" "$gpu_status_skipped" "$?"
PATH=$saved_path

printed=$(GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
  bash "$repo/scripts/gpu-check.sh" --print-env)
cuda12_path=$work/cuda12/lib64:$work/cuda12/extras/CUPTI/lib64
check "--print-env" \
  "ours (gpuprof, gpuprof-workload, tests, gpuprof record and what it runs): LD_LIBRARY_PATH=$ours:$cuda12_path:/user/a
python3 and the machine's programs: LD_LIBRARY_PATH=/user/a" "$printed"

echo "--- 2. the pytorch phase with fake binaries"
build=$work/source/build-gpu
echo "$work/source" > "$work/carry/source-dir.txt"
calls=$work/calls.log
# gpuprof record runs its command; the other subcommands do nothing.
script "$build/cli/gpuprof" 'echo "gpuprof $1 LD=${LD_LIBRARY_PATH-unset}" >> "$FAKE_CALLS"' \
  'if [ "$1" = record ]; then while [ "$1" != -- ]; do shift; done; shift; exec "$@"; fi'
script "$build/workloads/gpuprof-workload" 'echo "gpuprof-workload LD=${LD_LIBRARY_PATH-unset}" >> "$FAKE_CALLS"'
# python3 without torch: scripts fail, one-line helpers print 0.
script "$work/fake-python/python3" \
  'case "$1" in -c) echo "python3 -c LD=${LD_LIBRARY_PATH-unset}" >> "$FAKE_CALLS"; echo 0; exit 0 ;; esac' \
  'echo "python3 $(basename "$1") LD=${LD_LIBRARY_PATH-unset}" >> "$FAKE_CALLS"; exit 1'
expected_ours="$ours:$work/cuda12/lib64:$work/cuda12/extras/CUPTI/lib64:/user/a"
FAKE_CALLS=$calls GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
  PATH=$work/fake-python:$PATH bash "$repo/scripts/gpu-check.sh" pytorch "$work/out" > "$work/pytorch.txt" 2>&1
check "a phase with failures exits 1" "1" "$?"
check "plain python3 runs get the user's path (profiled, gru, lstm)" "3" \
  "$(grep -c "^python3 torch_small_training.py LD=/user/a$" "$calls")"
check "the python3 under gpuprof record gets ours" "1" \
  "$(grep -c "^python3 torch_small_training.py LD=$expected_ours$" "$calls")"
check "python3 one-liners get the user's path" "0" "$(grep '^python3 -c' "$calls" | grep -vc "LD=/user/a$")"
check "gpuprof and gpuprof-workload get ours" "0" "$(grep '^gpuprof' "$calls" | grep -vc "LD=$expected_ours$")"
check "gpuprof ran record and import, the workload twice" \
  "gpuprof import gpuprof record gpuprof-workload gpuprof-workload" \
  "$(grep '^gpuprof' "$calls" | cut -d' ' -f1-2 | sed 's/ LD=.*//' | sort | tr '\n' ' ' | sed 's/ $//')"
check "the phase wrote its table" "yes" "$(grep -q '^== pytorch' "$work/out/results.txt" && echo yes)"

echo "--- 3. the tests phase without ctest"
tests=$build/tests
mkdir -p "$tests/unit" "$tests/fuzz"
script "$tests/unit/pass_test" 'echo "$(pwd) ${LD_LIBRARY_PATH-unset} $*" >> "$FAKE_CALLS.pass"' \
  'case "$1" in *Pass.Two) echo "[  SKIPPED ] Pass.Two (0 ms)" ;; esac'
script "$tests/unit/fail_test" 'exit 3'
script "$tests/fuzz/fuzz_target" ': > "$FAKE_CALLS.fuzz"'
cat > "$tests/CTestTestfile.cmake" << EOF
subdirs("unit")
subdirs("fuzz")
EOF
cat > "$tests/unit/CTestTestfile.cmake" << EOF
include("$tests/unit/pass_test[1]_include.cmake")
include("$tests/unit/fail_test[1]_include.cmake")
include("$tests/unit/missing_test[1]_include.cmake")
add_test([=[script_test]=] "/bin/sh" "-c" "exit 0")
set_tests_properties([=[script_test]=] PROPERTIES  LABELS "scripts" _BACKTRACE_TRIPLES "x;1;add_test")
EOF
for name in pass_test fail_test missing_test; do
  echo "include(\"$tests/unit/${name}[1]_tests.cmake\")" > "$tests/unit/${name}[1]_include.cmake"
done
skip='SKIP_REGULAR_EXPRESSION [==[\[  SKIPPED \]]==]'
cat > "$tests/unit/pass_test[1]_tests.cmake" << EOF
add_test([=[Pass.One]=]  $tests/unit/pass_test [==[--gtest_filter=Pass.One]==] --gtest_also_run_disabled_tests)
set_tests_properties([=[Pass.One]=]  PROPERTIES WORKING_DIRECTORY $work $skip LABELS gpu)
add_test([=[Pass.Two]=]  $tests/unit/pass_test [==[--gtest_filter=Pass.Two]==] --gtest_also_run_disabled_tests)
set_tests_properties([=[Pass.Two]=]  PROPERTIES WORKING_DIRECTORY $work $skip LABELS gpu)
EOF
cat > "$tests/unit/fail_test[1]_tests.cmake" << EOF
add_test([=[Fail.One]=]  $tests/unit/fail_test [==[--gtest_filter=Fail.One]==] --gtest_also_run_disabled_tests)
set_tests_properties([=[Fail.One]=]  PROPERTIES WORKING_DIRECTORY $tests/unit $skip LABELS)
EOF
cat > "$tests/fuzz/CTestTestfile.cmake" << EOF
add_test([=[fuzz_x]=] "$tests/fuzz/fuzz_target" "-max_total_time=60")
set_tests_properties([=[fuzz_x]=] PROPERTIES  LABELS "fuzz" TIMEOUT "600" WORKING_DIRECTORY "$tests/fuzz")
EOF

tab=$'\t'
check "the test units, fuzz left out, each gtest executable once with its tests" \
  "fail_test$tab$tests/unit$tab-${tab}Fail.One$tab$tests/unit/fail_test
missing_test_NOT_BUILT$tab$tests/unit$tab-$tab-$tab
pass_test$tab$work${tab}gpu${tab}Pass.One;Pass.Two$tab$tests/unit/pass_test
script_test$tab$tests/unit${tab}scripts$tab-$tab/bin/sh$tab-c${tab}exit 0" "$(gpu_test_units "$build" fuzz)"

ln -s "$build" "$work/build-link"
check "a build folder reached through a link (as .gpu-carry's is): the same 4 units" "4" \
  "$(gpu_test_units "$work/build-link" fuzz | wc -l)"

make_no_ctest_path

FAKE_CALLS=$calls GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
  PATH=$work/no-ctest "$work/no-ctest/bash" "$repo/scripts/gpu-check.sh" tests "$work/out" > "$work/tests.txt" 2>&1
check "a failing test executable makes the tests phase exit 1" "1" "$?"
check "one row per test executable, a skip counted (no GPU here: nvidia-smi is not on PATH)" \
  "test fail_test FAILED: 1 of 1 tests, first Fail.One (exit 3)
test missing_test_NOT_BUILT FAILED: not built
test pass_test passed (2 tests, 1 skipped)
test script_test passed (1 test)" "$(table "$work/out" tests)"
check "the table says that ctest was missing" "yes" \
  "$(grep -q '^== tests (nvidia-smi lists 0 GPUs; ctest not on this machine' "$work/out/results.txt" && echo yes)"
check "each test of an executable runs in its own process, in its working directory, with our path" \
  "$work $expected_ours --gtest_filter=Pass.One
$work $expected_ours --gtest_filter=Pass.Two" "$(cat "$calls.pass" 2>&1)"
check "fuzz tests are not run" "no" "$([[ -e "$calls.fuzz" ]] && echo yes || echo no)"
FAKE_CALLS=$calls GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
  PATH=$work/no-ctest "$work/no-ctest/bash" "$repo/scripts/gpu-check.sh" gpu-tests "$work/out-gpu" \
  > "$work/gpu-tests.txt" 2>&1
check "gpu-tests runs the units labelled gpu alone" "0 test pass_test passed (2 tests, 1 skipped)" \
  "$? $(table "$work/out-gpu" gpu-tests)"
check "the logs of the tests are kept" "yes" "$([[ -e "$work/out/tests.log" ]] && echo yes)"

# One GPU, as nvidia-smi lists it, and its inventory queries.
script "$work/one-gpu/nvidia-smi" \
  'case "$*" in' \
  '  -L) echo "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-fake)" ;;' \
  '  *noheader*) echo "NVIDIA H100 80GB HBM3, 580.159.04" ;;' \
  '  --query-gpu*) echo "name, driver_version, memory.total [MiB], compute_cap"; echo "NVIDIA H100 80GB HBM3, 580.159.04, 81559 MiB, 9.0" ;;' \
  '  *) echo "fake nvidia-smi: one H100" ;;' \
  'esac'
ln -s "$real_python" "$work/no-ctest/python3"

echo "--- 4. the inventory is kept"
mkdir -p "$work/fake-root/cuda/lib64" "$work/fake-root/torch/lib"
: > "$work/fake-root/cuda/lib64/libcupti.so.13"
: > "$work/fake-root/torch/lib/libcudnn.so.9"
script "$work/inventory-bin/ldd" 'for f; do echo "$f:"; echo "  libsqlite3.so.0 => /carry/libsqlite3.so.0"; done' \
  '[ -n "$FAKE_MISSING" ] && echo "  libcudnn.so.9 => not found"; exit 0'
script "$work/inventory-bin/python3" \
  'case "$1" in -c) exec "$REAL_PYTHON" "$@" ;; esac' \
  'echo "torch 2.11.0 cuda 13.0 NVIDIA H100 80GB HBM3"; echo "/torch/lib/libcudnn.so.9"'
rm -rf "$work/inventory"
FAKE_PATH=$(fake_path "$work/inventory-bin" "$work/one-gpu") REAL_PYTHON=$real_python \
  GPU_CHECK_LIBRARY_ROOTS=$work/fake-root gpu_check inventory "$work/inventory" > "$work/inventory.out" 2>&1
check "the inventory passes with a GPU, ldd and torch" "0" "$?"
check "inventory.txt keeps nvidia-smi's output and where the libraries are" "yes yes yes" \
  "$(for line in 'fake nvidia-smi: one H100' "$work/fake-root/cuda/lib64/libcupti.so.13" 'torch 2.11.0 cuda 13.0'; do
       grep -qF "$line" "$work/inventory/inventory.txt" && echo yes || echo no; done | tr '\n' ' ' | sed 's/ $//')"
check "the inventory's table is in results.txt" \
  "inventory: GPU, driver NVIDIA H100 80GB HBM3, 580.159.04
inventory: libraries our binaries cannot resolve 0
inventory: torch, original path torch 2.11.0 cuda 13.0 NVIDIA H100 80GB HBM3
inventory: torch, ours path torch 2.11.0 cuda 13.0 NVIDIA H100 80GB HBM3" "$(table "$work/inventory" inventory)"
check "the phase ends listing what it leaves" "yes" \
  "$(grep -q '^  2 files' "$work/inventory.out" && grep -q 'inventory.txt$' "$work/inventory.out" && echo yes)"
rm -rf "$work/inventory"
FAKE_PATH=$(fake_path "$work/inventory-bin") REAL_PYTHON=$real_python GPU_CHECK_LIBRARY_ROOTS=$work/fake-root \
  gpu_check inventory "$work/inventory" > /dev/null 2>&1
check "no GPU listed: the inventory fails" "1 inventory: GPU, driver FAILED: nvidia-smi lists no GPU (inventory.txt)" \
  "$? $(table "$work/inventory" inventory | head -1)"

script "$work/broken-gpu/nvidia-smi" \
  'echo "NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver."; exit 9'
rm -rf "$work/inventory"
FAKE_PATH=$(fake_path "$work/inventory-bin" "$work/broken-gpu") REAL_PYTHON=$real_python \
  GPU_CHECK_LIBRARY_ROOTS=$work/fake-root gpu_check inventory "$work/inventory" > /dev/null 2>&1
check "nvidia-smi failing (its message on stdout): the inventory fails" \
  "1 inventory: GPU, driver FAILED: nvidia-smi lists no GPU (inventory.txt)" \
  "$? $(table "$work/inventory" inventory | head -1)"

rm -rf "$work/inventory"
FAKE_MISSING=1 FAKE_PATH=$(fake_path "$work/inventory-bin" "$work/one-gpu") REAL_PYTHON=$real_python \
  GPU_CHECK_LIBRARY_ROOTS=$work/fake-root gpu_check inventory "$work/inventory" > /dev/null 2>&1
check "a library our binaries cannot resolve fails the inventory, which says where the machine has it" \
  "1 inventory: libraries our binaries cannot resolve FAILED: 1 not found (inventory.txt)
not found with our path: libcudnn.so.9; on this machine at: $work/fake-root/torch/lib/libcudnn.so.9 " \
  "$? $(table "$work/inventory" inventory | sed -n 2p)
$(grep '^not found with our path' "$work/inventory/inventory.txt")"
check "the next phases of a run get the folder where the inventory found it" "$work/fake-root/torch/lib" \
  "$(gpu_found_library_folders "$work/inventory/inventory.txt")"

echo "--- 5. a skipped GPU test on a machine with a GPU"
FAKE_PATH=$(fake_path "$work/one-gpu") gpu_check tests "$work/gpu-out" > /dev/null 2>&1
check "without ctest: the skip fails the gpu-labelled executable" \
  "test pass_test FAILED: 1 of 2 tests skipped on a machine with a GPU, first Pass.Two" \
  "$(table "$work/gpu-out" tests | grep '^test pass_test')"
check "a skipped test outside the gpu label is no failure" "passed (1 tests, 1 skipped)" \
  "$(gpu_skipped_result 1 0 /dev/null)"
printf '%s\n' 'x.cpp:117: Skipped' 'needs two GPUs, this machine has 1' '[  SKIPPED ] T.Two (0 ms)' > "$work/two-gpu.out"
check "a two-GPU test skipped on a one-GPU machine is excused, and said so" \
  "passed (3 tests, 1 skipped: need two GPUs, nvidia-smi lists 1)" "$(gpu_skipped_result 3 1 "$work/two-gpu.out")"
check "on a two-GPU machine it is not" "FAILED: 1 of 3 tests skipped on a machine with a GPU" \
  "$(gpu_skipped_result 3 2 "$work/two-gpu.out")"
# ctest: the GPU run writes a JUnit file with one skipped test among 48, and its summary as the GPU
# machine's ctest writes it when nothing failed (no failure count).
script "$work/fake-ctest/ctest" \
  'junit=""; gpu=no' \
  'while [ $# -gt 0 ]; do case "$1" in --output-junit) junit=$2 ;; -L) gpu=yes ;; esac; shift; done' \
  'if [ -n "$FAKE_CTEST_SILENT" ]; then exit 8; fi' \
  'if [ $gpu = no ]; then echo "100% tests passed, 0 tests failed out of 400"; exit 0; fi' \
  'echo "1/48 Test #1: GpuRecordTest.X ....***Skipped   0.01 sec"' \
  'echo "100% tests passed out of 48"' \
  'echo "<testsuite><testcase name=\"GpuRecordTest.X\" status=\"notrun\"><skipped message=\"m\"/>" > "$junit"' \
  'echo "<system-out>[  SKIPPED ] GpuRecordTest.X (0 ms)</system-out></testcase>" >> "$junit"' \
  'echo "<testcase name=\"A.B\" status=\"run\"><system-out>ok</system-out></testcase></testsuite>" >> "$junit"'
FAKE_PATH=$(fake_path "$work/fake-ctest" "$work/one-gpu") gpu_check tests "$work/ctest-gpu" > /dev/null 2>&1
check "ctest on a machine with a GPU: the skip fails the GPU row" "1 ctest, CPU tests passed (400 tests)
ctest, GPU tests FAILED: 1 of 48 tests skipped on a machine with a GPU" "$? $(table "$work/ctest-gpu" tests)"
FAKE_PATH=$(fake_path "$work/fake-ctest") gpu_check tests "$work/ctest-cpu" > /dev/null 2>&1
check "ctest without a GPU: the skip is counted" "0 ctest, CPU tests passed (400 tests)
ctest, GPU tests passed (48 tests, 1 skipped)" "$? $(table "$work/ctest-cpu" tests)"
FAKE_CTEST_SILENT=1 FAKE_PATH=$(fake_path "$work/fake-ctest") gpu_check tests "$work/ctest-silent" > /dev/null 2>&1
check "ctest that prints no summary: FAILED, not passed" "1 ctest, CPU tests FAILED: no ctest summary, exit 8" \
  "$? $(table "$work/ctest-silent" tests | head -1)"

echo "--- 6. throughput fails when its runs fail"
# The workload fails, and so does every python script; python3 -c helpers are real.
script "$work/fail-bin/python3" 'case "$1" in -c) exec "$REAL_PYTHON" "$@" ;; esac' 'exit 1'
script "$build/workloads/gpuprof-workload" 'exit 4'
FAKE_PATH=$(fake_path "$work/fail-bin") REAL_PYTHON=$real_python gpu_check throughput "$work/tp-fail" gru \
  > /dev/null 2>&1
check "every run failed: exit 1, each row FAILED" "1 rnn --cell gru --batch 256 fp32 (median of 3) FAILED: gpuprof-workload exit 4, PyTorch exit 1
rnn --cell gru --batch 256 fp32 kernel ms/step FAILED: gpuprof-workload exit 4, PyTorch no profiler trace
rnn --cell gru --batch 256 tf32 (median of 3) FAILED: gpuprof-workload exit 4, PyTorch exit 1
rnn --cell gru --batch 256 tf32 kernel ms/step FAILED: gpuprof-workload exit 4, PyTorch no profiler trace
rnn --cell gru --batch 256 bf16 (median of 3) FAILED: gpuprof-workload exit 4, PyTorch exit 1
rnn --cell gru --batch 256 bf16 kernel ms/step FAILED: gpuprof-workload exit 4, PyTorch no profiler trace" \
  "$? $(table "$work/tp-fail" throughput-gru)"
FAKE_PATH=$(fake_path "$work/fail-bin") REAL_PYTHON=$real_python gpu_check throughput \
  "$work/tp-resnet" resnet fp32 > /dev/null 2>&1
check "ResNet-50 has its fp32 row" "1 resnet --depth 50 --batch 64 fp32 (median of 3) FAILED: gpuprof-workload exit 4, PyTorch exit 1" \
  "$? $(table "$work/tp-resnet" throughput-resnet-fp32 | head -1)"
# The workload measures (it writes its summary); PyTorch fails before it starts ours.
script "$build/workloads/gpuprof-workload" \
  'while [ $# -gt 0 ]; do [ "$1" = --summary ] && echo "{\"samples_per_second\": 1234.56}" > "$2"; shift; done'
FAKE_PATH=$(fake_path "$work/fail-bin") REAL_PYTHON=$real_python gpu_check throughput "$work/tp-alone" gru bf16 \
  > /dev/null 2>&1
check "no PyTorch: ours is still measured, on its own" \
  "1 rnn --cell gru --batch 256 bf16 (median of 3) FAILED: gpuprof-workload 1234.6, PyTorch exit 1" \
  "$? $(table "$work/tp-alone" throughput-gru-bf16 | head -1)"
script "$work/half-bin/python3" 'case "$1" in -c) exec "$REAL_PYTHON" "$@" ;; esac' 'echo "samples/s"'
FAKE_PATH=$(fake_path "$work/half-bin") REAL_PYTHON=$real_python gpu_check throughput "$work/tp-half" gru bf16 \
  > /dev/null 2>&1
check "a comparison that printed no median: FAILED" \
  "1 rnn --cell gru --batch 256 bf16 (median of 3) FAILED: gpuprof-workload 1234.6, PyTorch no median printed" \
  "$? $(table "$work/tp-half" throughput-gru-bf16 | head -1)"

echo "--- 7. what comes back fits the device tool"
mkdir -p "$work/tarred/sub"
head -c $((17 * 1024 * 1024)) /dev/urandom > "$work/tarred/sub/huge.sqlite"
echo "a small log" > "$work/tarred/run.log"
mkdir -p "$work/limits"
gpu_tar_within_limit "$work/limits/logs.tar.gz" "$work/tarred"
check "a tarball over 16 MiB leaves out its largest file, says so and keeps the rest" "0 yes ./LEFT-OUT.txt ./run.log" \
  "$? $( (($(stat -c %s "$work/limits/logs.tar.gz") <= 16 * 1024 * 1024)) && echo yes) $(tar -tzf "$work/limits/logs.tar.gz" | grep -v '/$' | sort | tr '\n' ' ' | sed 's/ $//')"
gpu_check_returned_files "$work/limits" > /dev/null 2> "$work/limits.err"
check "one small tarball passes the check" "0" "$?"
for index in 1 2 3 4 5 6 7 8; do echo "$index" > "$work/limits/file$index.txt"; done
gpu_check_returned_files "$work/limits" > /dev/null 2> "$work/limits.err"
check "nine files: the check fails loudly" "1 gpu-check.sh: LIMIT BROKEN: 9 files in $work/limits, the device tool brings back 8" \
  "$? $(cat "$work/limits.err")"
rm -f "$work"/limits/file*.txt
mkdir -p "$work/limits/a/b/c"
truncate -s 17M "$work/limits/a/b/c/big.bin"
ln -s logs.tar.gz "$work/limits/link"
gpu_check_returned_files "$work/limits" > /dev/null 2> "$work/limits.err"
check "too big, too deep, a link: each said" "1 3" "$? $(grep -c 'LIMIT BROKEN: a/b/c/big.bin is\|LIMIT BROKEN: link is not a plain' "$work/limits.err")"
rm -rf "$work/limits/a" "$work/limits/link"
truncate -s 17M "$work/limits/tests.log"
gpu_compress_oversized "$work/limits"
check "a plain file over 16 MiB is gzipped" "tests.log.gz" "$(cd "$work/limits" && ls tests.log*)"
# The overhead phase: its recorded traces (here 20 MiB each) are summarised and deleted.
"$real_python" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("create table kernels (id integer); insert into kernels values (1), (2);"
                 "create table collector_stats (name text, value integer); insert into collector_stats values (\"dropped_records\", 0);"
                 "create table filler (data blob); insert into filler values (randomblob(20 * 1024 * 1024));")
db.commit()' "$work/big-trace.sqlite"
script "$build/cli/gpuprof" \
  'case "$1" in info) echo "fake info of $2"; exit 0 ;; esac' \
  'while [ "$1" != -- ]; do [ "$1" = -o ] && cp "$FAKE_TRACE" "$2"; shift; done; shift; exec "$@"'
script "$build/workloads/gpuprof-workload" 'exit 0'
script "$build/bench/gpuprof_launch_benchmark" 'echo "5000000 kernels in 10.00 s: 500000 kernels/s"'
FAKE_TRACE=$work/big-trace.sqlite FAKE_PATH=$(fake_path "$work/good-bin") REAL_PYTHON=$real_python \
  gpu_check overhead "$work/overhead" > "$work/overhead.out" 2>&1
check "overhead: passes, and the recorded launch trace is read before it goes" "0 kernels 2, lost 0" \
  "$? $(table "$work/overhead" overhead | grep '^launch-bound, recorded trace' | sed 's/^launch-bound, recorded trace //')"
check "overhead: no trace comes back, their summaries do" "0 6" \
  "$(tar -tzf "$work/overhead/overhead-logs.tar.gz" | grep -c 'sqlite') $(tar -tzf "$work/overhead/overhead-logs.tar.gz" | grep -c 'info.txt$')"
check "overhead: under the limits, and said so" "2 files no" \
  "$(grep -o '^  2 files' "$work/overhead.out" | sed 's/^ *//') $(grep -q 'LIMIT BROKEN' "$work/overhead.out" && echo yes || echo no)"

# The workloads phase: each recording checked (kernels, step ranges, no loss), the
# samples in their own tarball and not again in the logs.
small_trace() {  # PATH STEP_RANGES LOST [LOSS_STATISTIC]
  "$real_python" - "$(trace_schema)" "$@" << 'EOF'
import sqlite3, sys
schema, path, steps, dropped = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
loss_name = sys.argv[5] if len(sys.argv) > 5 else "dropped_records"
db = sqlite3.connect(path)
db.executescript(open(schema).read())
db.execute("insert into strings values (1, 'kernel')")
for index in range(3):
    db.execute("insert into kernels (device, context, stream, start_ns, end_ns, correlation_id, name_id) "
               "values (0, 1, 7, ?, ?, ?, 1)", (index * 10, index * 10 + 5, index))
for step in range(steps):
    db.execute("insert into strings values (?, ?)", (10 + step, f"step {step}"))
    db.execute("insert into ranges (start_ns, end_ns, name_id) values (?, ?, ?)", (step * 10, step * 10 + 9, 10 + step))
db.execute("insert into collector_stats (name, value, severity) values (?, ?, 'info')", (loss_name, dropped))
db.commit()
EOF
}
small_trace "$work/good-sample.sqlite" 2 0
FAKE_TRACE=$work/good-sample.sqlite FAKE_PATH=$(fake_path "$work/good-bin") REAL_PYTHON=$real_python \
  gpu_check workloads "$work/workloads" > "$work/workloads.out" 2>&1
check "workloads: every recording checked, the samples counted" "0 record gru kernels 3, step ranges 2, lost 0
record lstm kernels 3, step ranges 2, lost 0
record towers kernels 3, step ranges 2, lost 0
record mlp kernels 3, step ranges 2, lost 0
record resnet kernels 3, step ranges 2, lost 0
samples.tar.gz 5 samples, 0.0 MiB" "$? $(table "$work/workloads" workloads)"
check "workloads: the samples come back once" "5 0" \
  "$(tar -tzf "$work/workloads/samples.tar.gz" | grep -c 'sqlite$') $(tar -tzf "$work/workloads/workloads-logs.tar.gz" | grep -c 'sqlite$')"
small_trace "$work/lossy-sample.sqlite" 0 7
FAKE_TRACE=$work/lossy-sample.sqlite FAKE_PATH=$(fake_path "$work/good-bin") REAL_PYTHON=$real_python \
  gpu_check workloads "$work/workloads-lossy" > /dev/null 2>&1
check "workloads: no step range and dropped records: FAILED" \
  "1 record gru FAILED: kernels 3, step ranges 0, lost 7" \
  "$? $(table "$work/workloads-lossy" workloads | head -1)"
# Records another CUPTI client took are loss too, though nothing is called "dropped".
small_trace "$work/taken-sample.sqlite" 2 4 activity_buffers_taken
FAKE_TRACE=$work/taken-sample.sqlite FAKE_PATH=$(fake_path "$work/good-bin") REAL_PYTHON=$real_python \
  gpu_check workloads "$work/workloads-taken" > /dev/null 2>&1
check "workloads: launches another CUPTI client took: FAILED" \
  "1 record gru FAILED: kernels 3, step ranges 2, lost 4" \
  "$? $(table "$work/workloads-taken" workloads | head -1)"

echo "--- 8. torch.profiler and gpuprof over the profiler's steps"
write_profiler_trace "$work/profiler.json"
gpuprof_trace "$work/same.sqlite" ""
compared=$(python3 "$repo/scripts/gpu/compare_profiler_window.py" "$work/profiler.json" "$work/same.sqlite" 2>&1)
check "the same kernels in the same steps: they match" \
  "0 steps 20-21 (2): torch.profiler 3 kernels 0.006 ms, gpuprof 3 kernels 0.006 ms" "$? $compared"
gpuprof_trace "$work/outside.sqlite" 22
compared=$(python3 "$repo/scripts/gpu/compare_profiler_window.py" "$work/profiler.json" "$work/outside.sqlite" 2>&1)
check "kernels outside the profiler's steps are not counted" "0" "$?"
gpuprof_trace "$work/more.sqlite" 21
compared=$(python3 "$repo/scripts/gpu/compare_profiler_window.py" "$work/profiler.json" "$work/more.sqlite" 2>&1)
check "one kernel more in step 21: they differ, and where is said" \
  "1 steps 20-21 (2): torch.profiler 3 kernels 0.006 ms, gpuprof 4 kernels 0.007 ms
first difference: step 21, torch.profiler 2 kernels, gpuprof 3" "$? $compared"

gpuprof_trace "$work/unlinked.sqlite" unlinked
compared=$(python3 "$repo/scripts/gpu/compare_profiler_window.py" "$work/profiler.json" "$work/unlinked.sqlite" 2>&1)
check "a kernel no API call leads to is said, not placed" \
  "0 steps 20-21 (2): torch.profiler 3 kernels 0.006 ms, gpuprof 3 kernels 0.006 ms (1 kernels of the run not linked to an API call)" \
  "$? $compared"

echo "--- 9. the runs on the GPU machine"
runs=$(FAKE_PATH=$work/no-ctest gpu_check runs 2>&1)
check "four runs" "4" "$(grep -c '^run [0-9]' <<< "$runs")"
check "runs 1 and 2 fit a session's 15 device minutes with 2 minutes of machine start" "yes" \
  "$(sed -n 's/^run [12] (\([0-9]*\) s).*/\1/p' <<< "$runs" | awk '{ total += $1 } END { if (total + 120 <= 900) print "yes" }')"
check "each run's budgets add up to under 570 s" "" \
  "$(sed -n 's/^run \([0-9]*\) (\([0-9]*\) s).*/\1 \2/p' <<< "$runs" | awk '$2 >= 570 { print "run " $1 ": " $2 " s" }')"
check "issue 36's plan first, then every phase but the CPU tests, and every model, is in a run" \
  "bn-recording conv-ab ab layer-tests throughput/gru throughput/lstm throughput/towers throughput/mlp throughput/resnet graphs inventory workloads gpu-tests pytorch overhead" \
  "$(awk '{ for (i = 5; i <= NF; i++) { sub(/:.*/, "", $i); printf "%s%s", separator, $i; separator = " " } }' <<< "$runs")"
notes=$repo/docs/gpu-notes.md
check "docs/gpu-notes.md lists the runs as gpu-check.sh prints them" "" \
  "$(while IFS= read -r line; do grep -qxF "$line" "$notes" || echo "missing: $line"; done <<< "$runs")"
# The calls the notes tell a session to make: runs 1 and 2 in order, each limit above the run's budgets
# (time for its tables) and within the tool's 600 s, both within 15 minutes with 2 minutes of machine start.
doc_calls=$(sed -n "s/^run(command='bash scripts\/gpu-check.sh run \([0-9]*\) \"\$OUT\"', .*timeout_s=\([0-9]*\))$/\1 \2/p" "$notes")
check "the notes' run() calls: runs 1 and 2, limits that fit" "1 2 fits" \
  "$(awk -v runs="$runs" 'BEGIN { n = split(runs, lines, "\n"); for (i = 1; i <= n; i++) { split(lines[i], f, /[ (]/); budget[f[2]] = f[4] + 0 } }
    { order = order $1 " "; total += $2; if ($2 < budget[$1] + 20 || $2 > 600) bad = 1 }
    END { printf "%s%s", order, (bad || total + 120 > 900) ? "does not fit" : "fits" }' <<< "$doc_calls")"
FAKE_PATH=$work/no-ctest gpu_check run 5 "$work/run5" > /dev/null 2>&1
check "there is no run 5" "2" "$?"
FAKE_PATH=$work/no-ctest gpu_check run 4 "$work/run4" soon > /dev/null 2>&1
check "SECONDS must be a number" "2" "$?"
FAKE_PATH=$(fake_path "$work/fail-bin") REAL_PYTHON=$real_python gpu_check run 2 "$work/run2" 9000 > "$work/run2.out" 2>&1
check "SECONDS above the run's budgets leave them as they are" "50 50 40 40 150 60" \
  "$(sed -n 's/^=== gpu-check.sh .*, \([0-9]*\) s$/\1/p' "$work/run2.out" | tr '\n' ' ' | sed 's/ $//')"
FAKE_PATH=$(fake_path "$work/fail-bin") REAL_PYTHON=$real_python gpu_check run 2 "$work/run2-half" 195 \
  > "$work/run2-half.out" 2>&1
check "run 2: fails (every run of the fakes fails), one table per model and graphs, budgets scaled to 195 s" \
  "1 throughput-gru throughput-lstm throughput-towers throughput-mlp throughput-resnet graphs 25 25 20 20 75 30" \
  "$? $(sed -n 's/^== \([a-z-]*\).*/\1/p' "$work/run2-half/results.txt" | tr '\n' ' ')$(sed -n 's/^=== gpu-check.sh .*, \([0-9]*\) s$/\1/p' "$work/run2-half.out" | tr '\n' ' ' | sed 's/ $//')"
check "run 2 ends listing 7 files, within the limits" "yes no" \
  "$(tail -3 "$work/run2-half.out" | grep -q '^  7 files' && echo yes) $(grep -q 'LIMIT BROKEN' "$work/run2-half.out" && echo yes || echo no)"

echo "--- 10. the pack"
check "glibc, the C++ runtime and CUDA's libraries stay; the rest travels" \
  "/usr/lib/x86_64-linux-gnu/libsqlite3.so.0
/usr/lib/x86_64-linux-gnu/libfmt.so.9
/usr/lib/x86_64-linux-gnu/libz.so.1
/usr/lib/x86_64-linux-gnu/libcom_err.so.2
/usr/lib/x86_64-linux-gnu/libcurl.so.4
/usr/lib/x86_64-linux-gnu/libmagic.so.1
/usr/lib/x86_64-linux-gnu/libcrypto.so.3" \
  "$(gpu_travelling_libraries << 'EOF'
/lib/x86_64-linux-gnu/libc.so.6
/lib/x86_64-linux-gnu/libm.so.6
/lib/x86_64-linux-gnu/libdl.so.2
/lib/x86_64-linux-gnu/libpthread.so.0
/lib/x86_64-linux-gnu/librt.so.1
/lib/x86_64-linux-gnu/libutil.so.1
/lib/x86_64-linux-gnu/libresolv.so.2
/lib/x86_64-linux-gnu/libnsl.so.1
/lib/x86_64-linux-gnu/libanl.so.1
/lib/x86_64-linux-gnu/libcrypt.so.1
/lib64/ld-linux-x86-64.so.2
/lib/x86_64-linux-gnu/libBrokenLocale.so.1
/lib/x86_64-linux-gnu/libmvec.so.1
/lib/x86_64-linux-gnu/libnss_files.so.2
/lib/x86_64-linux-gnu/libnss_dns.so.2
/lib/x86_64-linux-gnu/libthread_db.so.1
/lib/x86_64-linux-gnu/libstdc++.so.6
/lib/x86_64-linux-gnu/libgcc_s.so.1
/usr/lib/x86_64-linux-gnu/libsqlite3.so.0
/usr/local/cuda/lib64/libcupti.so.13
/opt/cuda/lib64/libcudart.so.13
/opt/cudnn/libcudnn_graph.so.9
/usr/lib/x86_64-linux-gnu/libcuda.so.1
/usr/lib/x86_64-linux-gnu/libfmt.so.9
/usr/lib/x86_64-linux-gnu/libz.so.1
/usr/lib/x86_64-linux-gnu/libcom_err.so.2
/usr/lib/x86_64-linux-gnu/libcurl.so.4
/usr/lib/x86_64-linux-gnu/libmagic.so.1
/usr/lib/x86_64-linux-gnu/libcrypto.so.3
/usr/lib/x86_64-linux-gnu/libnccl.so.2
EOF
)"
mkdir -p "$work/pack/bin"
cp "$(type -P true)" "$work/pack/bin/program"
printf '#!/bin/sh\n' > "$work/pack/bin/script.sh"
echo "data" > "$work/pack/CTestTestfile.cmake"
script "$work/fake-strip/strip" 'echo "$*" >> "$FAKE_CALLS.strip"'
(PATH=$work/fake-strip:$PATH FAKE_CALLS=$calls gpu_strip_tree "$work/pack")
check "only ELF files are stripped, of what running them does not need" "--strip-unneeded $work/pack/bin/program" \
  "$(cat "$calls.strip")"
check "repository files and carry within 64 MiB: accepted" "0" "$(gpu_check_travel 2800000 60000000 > /dev/null; echo $?)"
check "over 64 MiB together: refused, with by how much" "gpuprof: LIMIT BROKEN: 0.6 MiB over what the device tool takes 1" \
  "$( { gpu_check_travel 2726298 65000000 2>&1 > /dev/null; echo "$?"; } | tr '\n' ' ' | sed 's/ $//')"

if ((problems > 0)); then
  echo "$problems checks failed"
  exit 1
fi
echo "all checks passed"
