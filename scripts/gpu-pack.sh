#!/usr/bin/env bash
# Builds the binaries for the GPU machine (preset `gpu`: sm_90, no GUI) and packs
# what scripts/gpu-check.sh needs into .gpu-carry/ (at most 64 MiB), to be named
# in the device tool's `carry`. The GPU machine has CUDA and PyTorch but none of
# our Debian libraries, so the shared libraries the binaries need beyond the CUDA
# toolkit and glibc travel along.
set -euo pipefail
cd "$(dirname "$0")/.."

# In a worktree .git is a file: ask git where the exclude file is.
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
grep -qx '/.gpu-carry/' "$exclude" 2>/dev/null || echo '/.gpu-carry/' >> "$exclude"
cmake --preset gpu
cmake --build --preset gpu

build="build-gpu"
carry=.gpu-carry
rm -rf "$carry"
mkdir -p "$carry/lib"
# The build tree without objects and archives: ctest needs its CTest files and executables in place.
rsync -a --exclude '*.o' --exclude '*.a' --exclude 'CMakeFiles/' --exclude '.ninja_*' "$build/" "$carry/$build/"
# Where the build lives here: CTest files hold absolute paths, recreated there by gpu-check.sh.
pwd > "$carry/source-dir.txt"

# Shared libraries that are neither glibc nor the CUDA toolkit's (found there on the machine).
find "$carry/$build" -type f -perm -u+x \( -name '*.so' -o ! -name '*.*' \) -print0 |
  xargs -0 ldd 2>/dev/null | awk '/=> \// {print $3}' | sort -u |
  grep -v -E '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' |
  grep -v -E '/usr/local/cuda|libcu|libnccl|libnvrtc|libnvJitLink|libnvToolsExt|libcudnn' |
  while read -r library; do cp -L "$library" "$carry/lib/"; done

size=$(du -sm "$carry" | cut -f1)
echo "gpuprof: packed $carry (${size} MiB): $(find "$carry/lib" -mindepth 1 -printf "%f ")"
if ((size > 64)); then
  echo "gpuprof: $carry is over the 64 MiB the device tool carries" >&2
  exit 1
fi
