#!/usr/bin/env bash
# Re-runs the attacks of issues 16 and 27 against a built gpuprof, in a private
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

echo "attacks.sh: $checks runs, $failed failed checks"
[ "$failed" -eq 0 ]
