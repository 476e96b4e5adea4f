# shellcheck shell=bash
# Sourced by scripts/gpu-check.sh (after gpu-environment.sh) and its test: the test
# suite without ctest, which the GPU machine's image may lack. The tests the build
# registered are read from its CTest files and run with our library path:
#  - each test of a GoogleTest executable in its own process, with its --gtest_filter,
#    as ctest runs them (gtest_discover_tests lists them in the *_tests.cmake files it
#    writes at build time): tests may rely on a fresh process; one row per executable;
#  - each other test (add_test in CTestTestfile.cmake) with its own arguments;
#  - a GoogleTest executable without its *_tests.cmake (not built, or its test listing
#    failed) shows as NAME_NOT_BUILT, and fails, as it does under ctest;
#  - on a machine with a GPU, a skipped test of a unit labelled gpu fails it.
# Of the test properties only LABELS and WORKING_DIRECTORY are used (ENVIRONMENT is
# set only by the GUI tests, which the `gpu` preset does not build).

# Prints one line per test unit of BUILD whose labels do not match EXCLUDE (an
# extended regular expression), sorted by name, fields separated by tabs:
#   NAME  WORKING_DIRECTORY  LABELS  FILTERS  COMMAND WORDS...
# LABELS is ;-separated, or - when there are none (a tab is whitespace to `read`, so
# an empty field would vanish). FILTERS: a GoogleTest executable's tests, the
# --gtest_filter of each, ;-separated; - for other tests. A unit that was not built
# has no command words.
gpu_test_units() {
  local build=$1 exclude=$2 only=${3:-}
  local -A command_of=() directory_of=() labels_of=() name_of=() unit_of_test=() filters_of=()
  local file folder line test unit rest words directory labels
  local add_discovered='^add_test\(\[=\[([^]]*)\]=\][[:space:]]+([^[:space:]]+)'
  add_discovered+='[[:space:]]+\[==\[--gtest_filter=([^]]*)\]==\]'
  local add_plain='^add_test\(\[=\[([^]]*)\]=\](.*)\)$'
  local properties='^set_tests_properties\(\[=\[([^]]*)\]=\](.*)$'
  local quoted_word='^[[:space:]]*"([^"]*)"(.*)$'
  local working_directory='WORKING_DIRECTORY[[:space:]]+"?([^"[:space:])]+)'
  local label='LABELS[[:space:]]+"?([^"[:space:])]+)'
  while IFS= read -r file; do
    folder=${file%/*}
    if [[ $file == *_include.cmake ]]; then
      # gtest_discover_tests's include file: its tests file exists once the executable was built.
      [[ -f "${file%_include.cmake}_tests.cmake" ]] && continue
      test=${file##*/}
      test=${test%_include.cmake}
      unit="missing:${test%\[*\]}"
      name_of[$unit]="${test%\[*\]}_NOT_BUILT"
      command_of[$unit]=""
      directory_of[$unit]=$folder
      continue
    fi
    while IFS= read -r line; do
      if [[ $file == *_tests.cmake && $line =~ $add_discovered ]]; then
        test=${BASH_REMATCH[1]}
        unit=${BASH_REMATCH[2]}
        unit_of_test[$test]=$unit
        name_of[$unit]=${unit##*/}
        command_of[$unit]=$unit
        filters_of[$unit]="${filters_of[$unit]:+${filters_of[$unit]};}${BASH_REMATCH[3]}"
        directory_of[$unit]=${directory_of[$unit]:-$folder}
      elif [[ $line =~ $add_plain ]]; then
        test=${BASH_REMATCH[1]}
        rest=${BASH_REMATCH[2]}
        words=""
        while [[ $rest =~ $quoted_word ]]; do
          words+="${words:+$'\t'}${BASH_REMATCH[1]}"
          rest=${BASH_REMATCH[2]}
        done
        unit="test:$test"
        unit_of_test[$test]=$unit
        name_of[$unit]=$test
        command_of[$unit]=$words
        directory_of[$unit]=$folder
      elif [[ $line =~ $properties ]]; then
        unit=${unit_of_test[${BASH_REMATCH[1]}]:-}
        [[ -n "$unit" ]] || continue
        rest=${BASH_REMATCH[2]}
        if [[ $rest =~ $working_directory ]]; then
          directory_of[$unit]=${BASH_REMATCH[1]}
        fi
        if [[ $rest =~ $label ]]; then
          labels=${labels_of[$unit]:-}
          [[ ";$labels;" == *";${BASH_REMATCH[1]};"* ]] || labels_of[$unit]="${labels:+$labels;}${BASH_REMATCH[1]}"
        fi
      fi
    done < "$file"
  # -H: on the GPU machine the build folder is a link into .gpu-carry (gpu-check.sh's prepare_paths).
  done < <(find -H "$build" -type f \( -name CTestTestfile.cmake -o -name '*_tests.cmake' -o -name '*_include.cmake' \) |
             sort)

  for unit in "${!name_of[@]}"; do
    labels=${labels_of[$unit]:-}
    if [[ -n "$labels" && -n "$exclude" ]] && tr ';' '\n' <<< "$labels" | grep -qxE "$exclude"; then continue; fi
    if [[ -n "$only" ]] && ! tr ';' '\n' <<< "$labels" | grep -qxE "$only"; then continue; fi
    directory=${directory_of[$unit]}
    printf '%s\t%s\t%s\t%s\t%s\n' "${name_of[$unit]}" "$directory" "${labels:--}" "${filters_of[$unit]:--}" \
      "${command_of[$unit]}"
  done | sort
}

# Whether the skip a test printed in OUTPUT (a file) is one a machine whose
# nvidia-smi lists GPUS GPUs explains: a two-GPU test on a one-GPU machine, which
# says "needs two GPUs, this machine has 1". On a machine with a GPU every other
# skip of a GPU test is a failure: it means the tests did not find the GPU.
gpu_skip_excused() {
  local output=$1 gpus=$2
  ((gpus == 1)) && grep -q 'needs two GPUs, this machine has 1$' "$output"
}

# The result of a run of TOTAL tests of which the files SKIPPED... hold the output
# of each skipped one: TOTAL GPUS SKIPPED... With GPUS > 0 (a GPU test on a machine
# with a GPU) a skip not excused by gpu_skip_excused fails, with the count.
gpu_skipped_result() {
  local total=$1 gpus=$2; shift 2
  local output excused=0 unexplained=0
  for output in "$@"; do
    if ((gpus > 0)) && gpu_skip_excused "$output" "$gpus"; then
      excused=$((excused + 1))
    else
      unexplained=$((unexplained + 1))
    fi
  done
  if ((gpus > 0 && unexplained > 0)); then
    echo "FAILED: $unexplained of $total tests skipped on a machine with a GPU"
  elif ((excused > 0)); then
    echo "passed ($total tests, $excused skipped: need two GPUs, nvidia-smi lists $gpus)"
  elif ((unexplained > 0)); then
    echo "passed ($total tests, $unexplained skipped)"
  else
    echo "passed ($total tests)"
  fi
}

# Runs every unit of BUILD except those labelled fuzz, one after the other, each test
# in its working directory with our library path and at most LIMIT seconds, the
# output in LOGS/NAME.log. Prints "NAME<TAB>RESULT" per unit; returns 1 if any failed.
# GPUS: how many GPUs nvidia-smi lists; with one or more, a skipped test of a unit
# labelled gpu fails it (gpu_skipped_result).
gpu_run_test_units() {
  local build=$1 logs=$2 limit=$3 gpus=${4:-0} only=${5:-}
  local name directory labels filters words failed=0
  mkdir -p "$logs"
  while IFS=$'\t' read -r name directory labels filters words; do
    if [[ -z "$words" ]]; then
      printf '%s\t%s\n' "$name" "FAILED: not built"
      failed=1
      continue
    fi
    local command=() result unit_gpus=0
    [[ ";$labels;" == *";gpu;"* ]] && unit_gpus=$gpus
    IFS=$'\t' read -r -a command <<< "$words"
    if [[ "$filters" == - ]]; then
      (cd "$directory" && gpu_run_ours "$limit" "${command[@]}") > "$logs/$name.log" 2>&1
      result=$(gpu_describe_status $?)
      [[ $result == passed ]] && result="passed (1 test)"
    else
      result=$(gpu_run_filtered "$directory" "$limit" "$filters" "$unit_gpus" "${command[@]}" 2> "$logs/$name.log")
    fi
    printf '%s\t%s\n' "$name" "$result"
    [[ $result == passed* ]] || failed=1
  done < <(gpu_test_units "$build" fuzz "$only")
  return "$failed"
}

# Each test of a GoogleTest executable in its own process: DIRECTORY LIMIT FILTERS
# GPUS COMMAND... Their output goes to stderr; prints "passed (N tests...)" or what
# failed. A test that printed "[  SKIPPED ]" was skipped (gpu_skipped_result).
gpu_run_filtered() {
  local directory=$1 limit=$2 filters=$3 gpus=$4; shift 4
  local filter status count=0 failures=0 first="" first_skipped="" outputs result
  local -a list skipped=()
  IFS=';' read -r -a list <<< "$filters"
  outputs=$(mktemp -d)
  for filter in "${list[@]}"; do
    count=$((count + 1))
    (cd "$directory" && gpu_run_ours "$limit" "$@" "--gtest_filter=$filter") > "$outputs/$count" 2>&1
    status=$?
    cat "$outputs/$count" >&2
    if ((status == 0)) && grep -q '^\[  SKIPPED \]' "$outputs/$count"; then
      skipped+=("$outputs/$count")
      [[ -n "$first_skipped" ]] || first_skipped=$filter
    fi
    ((status == 0)) && continue
    failures=$((failures + 1))
    [[ -n "$first" ]] || first="$filter ($(gpu_describe_status "$status" | sed 's/^FAILED: //'))"
  done
  if ((failures > 0)); then
    echo "FAILED: $failures of $count tests, first $first"
  else
    result=$(gpu_skipped_result "$count" "$gpus" "${skipped[@]}")
    [[ $result == FAILED* ]] && result+=", first $first_skipped"
    echo "$result"
  fi
  rm -rf "$outputs"
}
