# shellcheck shell=bash
# Sourced by scripts/gpu-pack.sh and its test: which shared libraries of our
# binaries travel to the GPU machine in .gpu-carry/lib. That folder comes first on
# our binaries' library path there, so a library in it replaces the machine's own:
#  - no part of glibc may travel: its libraries only work with the ld.so and libc of
#    the same build, and the machine's ld.so is the one that runs. A carried
#    libutil.so.1 from Debian was once found first on that path;
#  - the CUDA toolkit's and driver's libraries are the machine's own (they must
#    match its driver), found there through the toolkit's folder;
#  - the C++ runtime (libstdc++, libgcc_s) is the machine's: python3 under
#    `gpuprof record` gets our path too, and torch needs the machine's.
# Everything else our binaries link (SQLite, fmt, zlib, ...) travels.

# glibc's shared libraries, by the name before ".so" (glibc 2.36: the files its
# Debian package libc6 installs, plus libcrypt, which glibc built until 2.38).
gpu_glibc_libraries=(
  ld-linux ld-linux-x86-64 ld-linux-aarch64 libc libm libmvec libdl libpthread librt libutil libresolv libnsl
  libanl libcrypt libBrokenLocale libthread_db libmemusage libpcprofile libc_malloc_debug libSegFault
  'libnss_[A-Za-z0-9_]+'
)
# The C++ runtime the machine has.
gpu_compiler_runtime_libraries=(libstdc++ libgcc_s libatomic libgomp)
# The CUDA toolkit's and driver's libraries (by name: the machine's toolkit may live elsewhere).
gpu_cuda_libraries=(
  libcuda libcudart libcupti libcublas libcublasLt libcufft libcufftw libcurand libcusparse libcusolver
  libcusolverMg libnvrtc 'libnvrtc-builtins' libnvJitLink libnvToolsExt libnvtx3interop 'libcudnn[A-Za-z0-9_]*'
  libnccl libnvidia-ml 'libnvidia-[A-Za-z0-9_-]+' libnvperf_host libnvperf_target libpcsamplingutil libcheckpoint
)

# The extended regular expression that a library's file name (no folder) matches
# when it stays behind.
gpu_staying_library_pattern() {
  local IFS='|'
  local names="${gpu_glibc_libraries[*]}|${gpu_compiler_runtime_libraries[*]}|${gpu_cuda_libraries[*]}"
  # + in libstdc++ is literal.
  names=${names//++/\\+\\+}
  echo "^($names)\\.so(\\.[0-9]+)*\$"
}

# Reads library paths, one a line, and prints those that travel: not glibc, not the
# C++ runtime, not CUDA's, nor anything from the CUDA toolkit's folders.
gpu_travelling_libraries() {
  local pattern path
  pattern=$(gpu_staying_library_pattern)
  while IFS= read -r path; do
    [[ -n "$path" ]] || continue
    [[ ${path##*/} =~ $pattern ]] && continue
    [[ $path == /usr/local/cuda* ]] && continue
    echo "$path"
  done
}

# Whether FILE is an ELF object (executable or shared library): only those are stripped.
gpu_is_elf() {
  [[ $(head -c 4 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n') == 7f454c46 ]]
}

# Strips every ELF file under FOLDER of what running it does not need (symbols and
# debug sections; the CUDA fat binaries stay): 61.8 MiB became 50.8 when first
# measured, and unstripped the pack did not fit. Fails on the first file strip refuses.
gpu_strip_tree() {
  local file
  while IFS= read -r -d '' file; do
    gpu_is_elf "$file" || continue
    strip --strip-unneeded "$file" || { echo "gpuprof: strip --strip-unneeded $file failed" >&2; return 1; }
  done < <(find "$1" -type f -print0)
}
