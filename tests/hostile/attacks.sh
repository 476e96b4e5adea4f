#!/usr/bin/env bash
# Re-runs the attacks of issues 16, 27 and 40 against a built gpuprof, in a private
# temporary folder (device nodes are made there with mknod, never taken from
# /dev): checks each exit code, that errors are one line, and that no input was
# modified. Usage: attacks.sh PATH/TO/gpuprof. Exit 0 when every check holds,
# 1 otherwise (each failed check is named), 77 (skipped) without sqlite3.
set -u

gpuprof=$(realpath "${1:?usage: attacks.sh PATH/TO/gpuprof}")
command -v sqlite3 > /dev/null || { echo "attacks.sh: sqlite3 not installed; skipped"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gpuprof-attacks.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
failed=0
checks=0

fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# run EXPECTED_EXIT NAME ARGS...: runs gpuprof (30 s at most) and checks the
# exit code and, for exit 2, that stderr is one error line; never an escape character.
run() {
  local expected=$1 name=$2
  shift 2
  checks=$((checks + 1))
  timeout -s KILL 30 "$gpuprof" "$@" > out.txt 2> err.txt
  local code=$?
  if [ "$code" -ne "$expected" ]; then
    fail "$name: exit $code, expected $expected: $(head -c 300 err.txt)"
  elif [ "$expected" -eq 2 ] && { [ "$(wc -l < err.txt)" -gt 2 ] || ! grep -q '^gpuprof: ' err.txt; }; then
    # One line (a usage error adds the hint "Run 'gpuprof --help' for usage.").
    fail "$name: stderr is not one error line: $(head -c 300 err.txt)"
  elif grep -q $'\x1b' err.txt out.txt; then
    fail "$name: an escape character reached the terminal"
  elif grep -q $'\xc2\x9b' err.txt out.txt; then
    fail "$name: a C1 control (CSI) reached the terminal"
  fi
}

fresh_trace() {
  rm -f "$1"
  "$gpuprof" synth -o "$1" --steps 3 --devices 2 > /dev/null || { echo "cannot make a trace"; exit 1; }
}

fresh_trace T.sqlite
before=$(sha256sum T.sqlite)

# Outputs: only regular files or new names, --force or not.
mkfifo fifo
ln -s elsewhere.txt link
special=(fifo link)
if mknod null c 1 3 2> /dev/null; then special+=(null); fi
for target in "${special[@]}"; do
  kind_before=$(stat -c %F "$target")
  run 2 "report -o $target" report T.sqlite -o "$target"
  run 2 "report -o $target --force" report T.sqlite -o "$target" --force
  run 2 "export to $target" export T.sqlite --chrome-trace "$target" --force
  run 2 "synth -o $target" synth -o "$target" --force
  [ "$(stat -c %F "$target")" = "$kind_before" ] || fail "$target was replaced"
done
[ -e elsewhere.txt ] && fail "a symbolic link output was followed"
run 0 "report -o -" report T.sqlite -o -
run 2 'report -o ""' report T.sqlite -o ""

# Inputs: a FIFO never blocks; a folder with a damaged rank fails.
run 2 "report FIFO" report fifo
run 2 "info FIFO" info fifo
mkdir runs
fresh_trace runs/rank0.sqlite
head -c 50 T.sqlite > runs/rank1.sqlite
run 2 "folder with a damaged rank" report runs
run 0 "folder with --skip-bad" report runs --skip-bad
grep -q "left out (--skip-bad)" out.txt || fail "--skip-bad does not say which file it left out"

# Options: ranges checked before any work.
run 2 "synth --input-bytes huge" synth -o S.sqlite --input-bytes 9223372036854775807
run 2 "synth --steps 2^40" synth -o S.sqlite --steps 1099511627776
run 2 "synth --events 1e12" synth -o S.sqlite --events 1000000000000
[ -e S.sqlite ] && fail "a refused synth left a file"
run 2 "report --top -1" report T.sqlite --top -1
run 2 "report --warmup-steps -1" report T.sqlite --warmup-steps -1
run 2 "report --comm-pattern reversed range" report T.sqlite --comm-pattern 'nccl[z-a]'
run 2 "report --step-pattern of 100,000 characters" report T.sqlite --step-pattern "$(printf '%100000s' '' | tr ' ' a)"
run 2 "report --comm-pattern nested 30,000 deep" report T.sqlite \
  --comm-pattern "$(printf '%30000s' '' | tr ' ' '(')a$(printf '%30000s' '' | tr ' ' ')')"

[ "$(sha256sum T.sqlite)" = "$before" ] || fail "T.sqlite was modified by the attacks on it"

# Strings: a 200,000-character step name, a schema error quoting escapes.
fresh_trace L.sqlite
sqlite3 L.sqlite "update strings set value='ProfilerStep#'||printf('%.*c',200000,'1') \
  where id=(select name_id from ranges limit 1)"
long_before=$(sha256sum L.sqlite)
run 0 "huge step annotation" report L.sqlite
[ "$(sha256sum L.sqlite)" = "$long_before" ] || fail "L.sqlite was modified"
fresh_trace E.sqlite
sqlite3 E.sqlite "PRAGMA writable_schema = ON; INSERT INTO sqlite_master(type, name, tbl_name, rootpage, sql) \
  VALUES ('table', 'x' || char(27) || '[2J' || char(10) || 'gpuprof: forged', 'x', 0, 'CREATE TABLE (');"
run 2 "schema error with escapes" info E.sqlite

# Code in the file: generated columns are refused, never run.
fresh_trace G.sqlite
sqlite3 G.sqlite "ALTER TABLE kernels ADD COLUMN boom TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL"
generated_before=$(sha256sum G.sqlite)
run 2 "generated column" report G.sqlite
[ "$(sha256sum G.sqlite)" = "$generated_before" ] || fail "G.sqlite was modified"

# Sums: huge copies never come out negative.
fresh_trace O.sqlite
sqlite3 O.sqlite "DELETE FROM event_chunks; UPDATE memcpys SET start_ns = 1, end_ns = 5000000000000000000, \
  bytes = 5000000000000000000 WHERE rowid IN (SELECT rowid FROM memcpys LIMIT 4)"
run 0 "huge copies" report O.sqlite --format json
grep -Eq '"[a-z_]*(_ns|bytes)": *-' out.txt && fail "a negative time or byte count in the JSON report"
sqlite3 O.sqlite "UPDATE memcpys SET start_ns = 0, end_ns = 9223372036854775807"
run 0 "copies spanning the whole clock" report O.sqlite
grep -Eq -- '-[0-9][0-9.]* (s|ms|us|ns)\b' out.txt && fail "a negative time in the report of copies spanning the clock"

# A decompression bomb: 8 MiB of JSON from a few KiB of gzip.
{ printf '{"traceEvents": ['; printf '%*s' 8388608 ''; printf ']}'; } | gzip -1 > bomb.json.gz
export GPUPROF_MAX_DECOMPRESSED_BYTES=4194304
run 2 "gzip bomb" report bomb.json.gz
unset GPUPROF_MAX_DECOMPRESSED_BYTES

# A path past SQLite's 512 bytes: read like any other; an output there: one line, exit 2.
deep="$work$(printf '/%0100d' 1 2 3 4 5 6)"
mkdir -p "$deep" && fresh_trace P.sqlite && cp P.sqlite "$deep/P.sqlite"
deep_before=$(sha256sum "$deep/P.sqlite")
run 0 "trace at a 600-byte path" report "$deep/P.sqlite"
run 2 "trace written at a 600-byte path" synth -o "$deep/out.sqlite" --steps 2
[ "$(sha256sum "$deep/P.sqlite")" = "$deep_before" ] || fail "the deep trace was modified"

# Issue 40: the new readers (link files, study folders, job folders, the CLI reference).
"$gpuprof" synth -o one.sqlite --steps 3 --devices 1 > /dev/null || { echo "cannot make a trace"; exit 1; }
one_before=$(sha256sum one.sqlite)
{
  echo '#  Rank  0 Group  0 Pid  9 on host device  0 [0000:07:00] NVIDIA H100 80GB HBM3'
  echo '#  Rank  1 Group  0 Pid  9 on host device  1 [0000:08:00] NVIDIA H100 80GB HBM3'
  echo '#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong'
  echo '     1048576        262144     float     sum      -1    40.00   26.21   26.21      0    40.00   26.21   26.21      0'
} > nccl.log
nccl_before=$(sha256sum nccl.log)
predict=(predict one.sqlite --gpus 2 --grad-bytes 1000000)
run 0 "predict with a link file" "${predict[@]}" --link-file nccl.log
link_files=(fifo .)
if [ -e null ]; then link_files+=(null); fi
for target in "${link_files[@]}"; do run 2 "--link-file $target" "${predict[@]}" --link-file "$target"; done
{ printf '#%40000s\n' ''; cat nccl.log; } > spaces.log
run 2 "link file with a 40,000-space comment" "${predict[@]}" --link-file spaces.log
{ cat nccl.log; head -c 9000000 /dev/zero | tr '\0' '\n'; } > big.log
run 2 "link file over the size limit" "${predict[@]}" --link-file big.log
printf 'size(B),count,type,time(ns),busbw(GB/s)\n1048576,262144,float,44210,23.72\n' > AR_GPU99999999999_1M_LUT
run 2 "LUT with a huge GPU count in its name" "${predict[@]}" --link-file AR_GPU99999999999_1M_LUT
printf 'size(B),count,type,time(ns),busbw(GB/s)\n1e300,1,float,1e-300,1\n' > AR_GPU2_1M_LUT
run 2 "LUT with absurd values" "${predict[@]}" --link-file AR_GPU2_1M_LUT
ln -s nccl.log nccl-link.log
ln nccl.log nccl-hard.log
for output in nccl.log nccl-link.log nccl-hard.log; do
  run 2 "predict -o $output (a link file) --force" "${predict[@]}" --link-file nccl.log -o "$output" --force
done
[ "$(sha256sum nccl.log)" = "$nccl_before" ] || fail "predict wrote over its link file"

# The CLI reference: regular files only, written beside the target and renamed.
for target in fifo link; do run 2 "--cli-reference to $target" --cli-reference bash "$target"; done
[ -e elsewhere.txt ] && fail "--cli-reference followed a symbolic link"
run 0 "--cli-reference to a file" --cli-reference man gpuprof.1

# Outputs: an existing folder is one line with --force too; past `ulimit -f` nothing takes the name.
mkdir -p existing
run 2 "report -o FOLDER --force" report T.sqlite -o existing --force
for how in "report --format html -o" "report --format json -o" "export --chrome-trace"; do
  checks=$((checks + 1))
  read -r -a words <<< "$how"
  (ulimit -f 1; exec "$gpuprof" "${words[0]}" T.sqlite "${words[@]:1}" limited.out) > /dev/null 2>&1
  code=$?
  [ "$code" -eq 1 ] || fail "$how under ulimit -f: exit $code, expected 1"
  [ -e limited.out ] && fail "$how under ulimit -f left limited.out"
  rm -f limited.out
done
ls -A | grep -q 'gpuprof-tmp' && fail "a temporary was left behind"

# Names CLI11 would read as lists stay as typed.
cp T.sqlite '[b]'
run 0 "report a file named [b]" report '[b]' --format json
grep -q '\[b\]' out.txt || fail "report '[b]' did not analyse [b]"

# Side files: a garbage journal gets a line that says what to do; a stray -wal creates no -shm.
cp T.sqlite J.sqlite && head -c 4096 /dev/zero | tr '\0' 'Z' > J.sqlite-journal
run 2 "garbage -journal" report J.sqlite
grep -q 'journal' err.txt || fail "the garbage -journal is not named: $(cat err.txt)"
cp T.sqlite W.sqlite && sqlite3 W.sqlite 'PRAGMA journal_mode = WAL' > /dev/null && : > W.sqlite-wal
run 0 "stray -wal" report W.sqlite
[ -e W.sqlite-shm ] && fail "report created W.sqlite-shm beside its input"

# Loops of links, and job folders with a FIFO or a dangling link for a rank.
ln -s loop1.sqlite loop2.sqlite && ln -s loop2.sqlite loop1.sqlite
run 2 "a loop of symbolic links" report loop1.sqlite
mkdir jobs && cp T.sqlite jobs/rank0.sqlite && mkfifo jobs/rank1.sqlite && ln -s gone.sqlite jobs/rank2.sqlite
run 2 "job folder with a FIFO rank" report jobs
run 0 "job folder with a FIFO rank, --skip-bad" report jobs --skip-bad
{ grep -q 'rank1.sqlite' out.txt && grep -q 'rank2.sqlite' out.txt; } ||
  fail "--skip-bad does not name the FIFO and dangling ranks"
mkdir loops && cp T.sqlite loops/rank0.sqlite && ln -s l2.sqlite loops/l1.sqlite && ln -s l1.sqlite loops/l2.sqlite
run 2 "job folder with a loop of links" report loops

# Study folders: code in study.sqlite, a FIFO for it, a link out of the folder.
sweep=(sweep --synthetic --workload rnn --batch 64 --gpus 1 --steps 3)
run 0 "synthetic sweep" "${sweep[@]}" -o S
run 0 "study" study S
study_before=$(sha256sum S/study.sqlite)
ln -s S/study.sqlite study-link.sqlite
for output in S/study.sqlite study-link.sqlite; do run 2 "study -o $output (a member of the study) --force" study S -o "$output" --force; done
[ "$(sha256sum S/study.sqlite)" = "$study_before" ] || fail "study wrote over its own study.sqlite"
cp -r S G && sqlite3 G/study.sqlite \
  "ALTER TABLE runs ADD COLUMN boom TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL"
run 2 "generated column in study.sqlite" study G
run 2 "generated column in study.sqlite, --resume" "${sweep[@]}" -o G --resume
mkdir F && mkfifo F/study.sqlite
run 2 "FIFO as study.sqlite" study F
cp -r S L && mv L/traces outside-traces && ln -s ../outside-traces L/traces
outside_before=$(find outside-traces -type f -exec sha256sum {} + | sort)
run 2 "study through a traces link" study L
run 2 "sweep --resume through a traces link" "${sweep[@]}" -o L --resume
[ "$(find outside-traces -type f -exec sha256sum {} + | sort)" = "$outside_before" ] || fail "sweep wrote through the link"

# Control bytes from names never reach the terminal (run checks both outputs for an escape).
run 0 "synth to a name with an escape" synth -o $'esc\x1b[2J\xc2\x9b.sqlite' --steps 2
printf '#!/bin/sh\nprintf "\\033[2Jbad\\302\\233run\\n" >&2\nexit 3\n' > fail.sh && chmod +x fail.sh
checks=$((checks + 1))
"$gpuprof" sweep --command "$work/fail.sh {batch} {gpus} {strategy} {summary}" --batch 8 --gpus 1 --steps 2 \
  -o FS > out.txt 2> err.txt
if grep -q 'collector' err.txt; then
  echo "attacks.sh: no collector in this build; the sweep failure note is not checked"
else
  grep -q 'bad' err.txt || fail "the sweep failure note is missing: $(head -c 300 err.txt)"
  grep -q $'\x1b' err.txt && fail "an escape from a failing run reached the terminal in a sweep note"
  grep -q $'\xc2\x9b' err.txt && fail "a C1 control from a failing run reached the terminal in a sweep note"
  run 0 "study of a run that failed with escapes" study FS
  run 0 "study of a run that failed with escapes, Markdown" study FS --format md
fi
[ "$(sha256sum one.sqlite)" = "$one_before" ] || fail "one.sqlite was modified"

echo "attacks.sh: $checks runs, $failed failed checks"
[ "$failed" -eq 0 ]
