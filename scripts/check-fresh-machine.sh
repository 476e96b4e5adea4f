#!/usr/bin/env bash
# Runs the README's two set-up commands as a new user would, on a fresh minimal
# Debian 12 root, and checks that every component was built and the tests passed.
#
#   scripts/check-fresh-machine.sh [--cuda-only | --no-cuda-only] [--keep]
#
# It makes a minimal Debian 12 root with mmdebstrap (debootstrap as a fallback)
# from the Debian packages this machine reaches, copies a clean clone of the
# committed HEAD (and ../shared when present) into it, and runs scripts/run.sh,
# then scripts/test.sh, in a chroot. The CUDA toolkit is not a Debian package:
# the "cuda" run bind-mounts the host's /usr/local/cuda read-only, the "no-cuda"
# run has none. Needs root (chroot and mounts). Downloads a few hundred MB and
# takes many minutes, so it is not part of CI: run it whenever dependencies change.
# Exit 0 when every run passed, 1 otherwise.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=${GPUPROF_FRESH_WORK:-/var/tmp/gpuprof-fresh-machine}
suite=bookworm
modes=(cuda no-cuda)
keep=0
for argument in "$@"; do
  case $argument in
    --cuda-only) modes=(cuda) ;;
    --no-cuda-only) modes=(no-cuda) ;;
    --keep) keep=1 ;;
    *) echo "usage: $0 [--cuda-only | --no-cuda-only] [--keep]" >&2; exit 2 ;;
  esac
done

say() { echo "check-fresh-machine: $*"; }

if [[ $(id -u) -ne 0 ]]; then
  echo "check-fresh-machine: needs root for chroot and bind mounts; run: sudo $0 $*" >&2
  exit 1
fi
if ! git -C "$repo" diff --quiet HEAD 2>/dev/null; then
  say "note: uncommitted changes are NOT checked (the check clones the committed HEAD)"
fi

ensure_bootstrap_tool() {
  if command -v mmdebstrap >/dev/null; then echo mmdebstrap; return; fi
  if command -v debootstrap >/dev/null; then echo debootstrap; return; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
  echo mmdebstrap
}

# A minimal Debian 12 (variant minbase: apt, bash, coreutils; no compiler, no git, no sudo).
make_base() {
  local tarball=$1 tool
  tool=$(ensure_bootstrap_tool)
  say "making a minimal Debian 12 root with $tool"
  local no_expiry='Acquire::Check-Valid-Until "false"'
  if [[ $tool == mmdebstrap ]]; then
    mmdebstrap --quiet --variant=minbase --aptopt="$no_expiry" "$suite" "$tarball"
  else
    local staging="$work/debootstrap"
    rm -rf "$staging"
    debootstrap --variant=minbase "$suite" "$staging" >/dev/null
    echo "$no_expiry;" >"$staging/etc/apt/apt.conf.d/99no-expiry"
    tar -C "$staging" -cf "$tarball" .
    rm -rf "$staging"
  fi
}

mounted=()
unmount_all() {
  local index
  for ((index = ${#mounted[@]} - 1; index >= 0; index--)); do
    umount -l "${mounted[index]}" 2>/dev/null || true
  done
  mounted=()
}
trap unmount_all EXIT

bind() {  # bind SOURCE TARGET [ro]
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounted+=("$2")
  if [[ ${3:-} == ro ]]; then mount -o remount,bind,ro "$2"; fi
}

# A run killed with SIGKILL leaves its mounts behind; removing the old root through
# them would delete the host's /dev, so they go first, and a root that still has
# anything mounted is never removed.
unmount_stale() {
  local root=$1 mount_point
  while read -r mount_point; do
    umount -l "$mount_point" 2>/dev/null || true
  done < <(awk -v root="$root/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r)
  if awk -v root="$root/" 'index($2, root) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
    echo "check-fresh-machine: $root still has mounts; unmount them by hand" >&2
    exit 1
  fi
}

prepare_root() {
  local root=$1 mode=$2
  unmount_stale "$root"
  rm -rf --one-file-system "$root"
  mkdir -p "$root"
  tar -C "$root" -xf "$work/base.tar"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  mkdir -p "$root/home/user"
  git clone --quiet --no-hardlinks "$repo" "$root/home/user/gpuprof"
  if [[ -d $repo/../shared ]]; then cp -a "$repo/../shared" "$root/home/user/shared"; fi
  mkdir -p "$root/proc" "$root/dev"
  mount -t proc proc "$root/proc"
  mounted+=("$root/proc")
  bind /dev "$root/dev"
  bind /dev/pts "$root/dev/pts"
  if [[ $mode == cuda ]]; then
    local toolkit
    toolkit=$(readlink -f /usr/local/cuda)
    bind "$toolkit" "$root$toolkit" ro
    if [[ $toolkit != /usr/local/cuda ]]; then ln -s "$toolkit" "$root/usr/local/cuda"; fi
  fi
}

in_root() {  # in_root ROOT COMMAND: a login-like clean environment, as a new user's shell has
  chroot "$1" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /home/user/gpuprof && $2"
}

results=()
failures=0
check() {  # check MODE WHAT CONDITION-RESULT
  if [[ $3 == ok ]]; then results+=("$1|$2|ok"); else results+=("$1|$2|FAILED: $3"); failures=$((failures + 1)); fi
}

run_mode() {
  local mode=$1 root="$work/root-$1" log="$work/$1"
  say "[$mode] preparing the root"
  prepare_root "$root" "$mode"
  local start=$SECONDS
  say "[$mode] scripts/run.sh (log: $log-run.log)"
  if in_root "$root" scripts/run.sh >"$log-run.log" 2>&1; then check "$mode" "scripts/run.sh" ok
  else check "$mode" "scripts/run.sh" "exit $? ($(tail -n 1 "$log-run.log"))"; fi
  local run_minutes=$(((SECONDS - start + 30) / 60))
  start=$SECONDS
  say "[$mode] scripts/test.sh (log: $log-test.log)"
  if in_root "$root" scripts/test.sh >"$log-test.log" 2>&1; then check "$mode" "scripts/test.sh" ok
  else check "$mode" "scripts/test.sh" "exit $? ($(tail -n 1 "$log-test.log"))"; fi
  local test_minutes=$(((SECONDS - start + 30) / 60))

  local expected_left_out="" line
  if [[ $mode == no-cuda ]]; then expected_left_out="GPUPROF_BUILD_COLLECTOR GPUPROF_BUILD_WORKLOADS"; fi
  local left_out
  left_out=$(sed -n '/components left out, and why/,/^-- [A-Z]/p' "$log-run.log" | grep -o 'GPUPROF_BUILD_[A-Z]*' | sort -u | xargs || true)
  if ! grep -qE 'gpuprof: (all components are built|components left out)' "$log-run.log"; then
    check "$mode" "components" "the configure step printed no component summary"
  elif [[ $left_out == "$expected_left_out" ]]; then check "$mode" "components left out: ${left_out:-none}" ok
  else check "$mode" "components left out" "expected '${expected_left_out:-none}', configure said '${left_out:-none}'"; fi

  local binaries=(cli/gpuprof gui/gpuprof-gui)
  if [[ $mode == cuda ]]; then binaries+=(collector/libgpuprof_collector.so workloads/gpuprof-workload); fi
  for line in "${binaries[@]}"; do
    if [[ -e $root/home/user/gpuprof/build-release/$line ]]; then check "$mode" "built $line" ok
    else check "$mode" "built $line" "missing"; fi
  done
  # Issue 39: `man gpuprof` and completion work right after the README's commands, with no install step.
  if in_root "$root" "man -w gpuprof" >/dev/null 2>&1; then check "$mode" "man gpuprof finds the page" ok
  else check "$mode" "man gpuprof" "man -w gpuprof finds no page after scripts/run.sh"; fi
  if in_root "$root" "source /usr/share/bash-completion/bash_completion && __load_completion gpuprof && complete -p gpuprof" \
    >/dev/null 2>&1; then check "$mode" "bash completion for gpuprof loads" ok
  else check "$mode" "bash completion" "bash-completion does not load a completion for gpuprof"; fi
  # test.sh runs ctest twice (the CPU suite, then the fuzz regression): every run must pass.
  local summaries counts
  summaries=$(grep -E '^[0-9]+% tests passed' "$log-test.log" || true)
  counts=$(sed -E 's/.* out of ([0-9]+)$/\1/' <<<"$summaries" | paste -sd+ -)
  if [[ -n $summaries ]] && ! grep -qv '^100% tests passed' <<<"$summaries"; then
    check "$mode" "tests: all passed ($counts in the ctest runs)" ok
  elif [[ -z $summaries ]]; then check "$mode" "tests" "no test summary"
  else check "$mode" "tests" "$(grep -v '^100% tests passed' <<<"$summaries" | head -n 1)"; fi
  results+=("$mode|minutes: run.sh $run_minutes, test.sh $test_minutes|")
  unmount_all
  if ((keep == 0)); then rm -rf "$root"; fi
}

mkdir -p "$work"
started=$SECONDS
make_base "$work/base.tar"
for mode in "${modes[@]}"; do run_mode "$mode"; done

echo
printf '%-8s %-60s %s\n' run check result
for row in "${results[@]}"; do
  IFS='|' read -r mode what result <<<"$row"
  printf '%-8s %-60s %s\n' "$mode" "$what" "$result"
done
echo
say "$(((SECONDS - started + 30) / 60)) minutes in all; logs in $work"
if ((failures > 0)); then say "$failures check(s) FAILED"; exit 1; fi
say "every check passed"
