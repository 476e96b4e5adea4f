#!/usr/bin/env bash
# What scripts/gpu-check.sh does that needs no GPU, with fake programs on a fake PATH
# and a fake LD_LIBRARY_PATH:
#  1. the library path of our binaries is ours, the toolkit's lib64, CUPTI's folder,
#     then the starting LD_LIBRARY_PATH; python3 gets the starting one (or none);
#  2. in the `pytorch` phase itself, every plain python3 gets the starting path and
#     our binaries (and the python3 under `gpuprof record`) get ours;
#  3. without ctest on PATH, the `tests` phase runs the test executables read from
#     the CTest files, one row each, skips fuzz, and fails when one fails.
#   gpu_check_test.sh REPOSITORY
# The fake programs are written in single quotes on purpose: they expand when they run.
# shellcheck disable=SC2016
set -uo pipefail
repo=${1:?usage: gpu_check_test.sh REPOSITORY}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
problems=0

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
check "the phase wrote its table" "yes" "$([[ -s "$work/out/pytorch.txt" ]] && echo yes)"

echo "--- 3. the tests phase without ctest"
tests=$build/tests
mkdir -p "$tests/unit" "$tests/fuzz"
script "$tests/unit/pass_test" 'echo "$(pwd) ${LD_LIBRARY_PATH-unset} $*" >> "$FAKE_CALLS.pass"'
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

# A PATH with the tools the script uses and no ctest.
mkdir -p "$work/no-ctest"
for tool in bash env timeout dirname basename sed cat mkdir mktemp find sort grep tr tar gzip tee readlink rm; do
  ln -s "$(command -v "$tool")" "$work/no-ctest/$tool"
done
FAKE_CALLS=$calls GPU_CHECK_CARRY=$work/carry GPU_CHECK_CUDA_ROOT=$work/cuda12 LD_LIBRARY_PATH=/user/a \
  PATH=$work/no-ctest "$work/no-ctest/bash" "$repo/scripts/gpu-check.sh" tests "$work/out" > "$work/tests.txt" 2>&1
check "a failing test executable makes the tests phase exit 1" "1" "$?"
check "one row per test executable" \
  "ctest not on this machine: test executables run directly
test fail_test FAILED: 1 of 1 tests, first Fail.One (exit 3)
test missing_test_NOT_BUILT FAILED: not built
test pass_test passed (2 tests)
test script_test passed" "$(sed 's/  */ /g' "$work/out/tests.txt")"
check "each test of an executable runs in its own process, in its working directory, with our path" \
  "$work $expected_ours --gtest_filter=Pass.One
$work $expected_ours --gtest_filter=Pass.Two" "$(cat "$calls.pass" 2>&1)"
check "fuzz tests are not run" "no" "$([[ -e "$calls.fuzz" ]] && echo yes || echo no)"
check "the logs of the tests are kept" "yes" "$([[ -e "$work/out/tests.log" ]] && echo yes)"

if ((problems > 0)); then
  echo "$problems checks failed"
  exit 1
fi
echo "all checks passed"
