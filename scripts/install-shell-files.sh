#!/usr/bin/env bash
# Installs what the build generated from gpuprof's option definitions (build-release/cli/reference/): the man
# page and the bash and zsh completion, where man and the shells look without any set-up (/usr/local/share), so
# that `man gpuprof` and completion work right after scripts/run.sh without `cmake --install`. As root, or
# through sudo when not root; without either it says how and leaves the files where the build put them.
# PREFIX (default /usr/local) and the first argument (the folder of generated files) are for tests.
set -euo pipefail
cd "$(dirname "$0")/.."

reference=${1:-build-release/cli/reference}
prefix=${PREFIX:-/usr/local}
targets=(
  "$reference/gpuprof.1:$prefix/share/man/man1/gpuprof.1"
  "$reference/gpuprof.bash:$prefix/share/bash-completion/completions/gpuprof"
  "$reference/_gpuprof:$prefix/share/zsh/site-functions/_gpuprof"
)
for target in "${targets[@]}"; do
  if [[ ! -f ${target%%:*} ]]; then
    echo "gpuprof: ${target%%:*} is missing (build the gpuprof_cli_reference target first)" >&2
    exit 1
  fi
done

as_root=()
mkdir -p "$prefix/share" 2>/dev/null || true
if [[ ! -w $prefix/share ]]; then
  if [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null; then
    as_root=(sudo)
  else
    echo "gpuprof: cannot write to $prefix/share; as root run: $0 to install the man page and completion" >&2
    exit 0
  fi
fi
for target in "${targets[@]}"; do
  "${as_root[@]}" install -D -m 644 "${target%%:*}" "${target#*:}"
done
echo "gpuprof: man page and bash/zsh completion installed under $prefix/share (man gpuprof)"
