# shellcheck shell=bash
# Sourced by scripts/gpu-pack.sh, scripts/gpu-check.sh and their test: what the
# device tool takes to the GPU machine and brings back, in one place
# (/work/.library/device/README.md, "Limits"). A run that breaks one of these loses
# its results, or never starts, so both scripts check them instead of trusting sizes
# measured once by hand.

# The working tree that travels: tracked and untracked-not-ignored files plus the
# carried paths, together.
gpu_limit_travel_bytes=$((64 * 1024 * 1024))
# What comes back from $OUT: each file, how many, all of them together, how deep.
gpu_limit_file_bytes=$((16 * 1024 * 1024))
gpu_limit_files=8
gpu_limit_returned_bytes=$((64 * 1024 * 1024))
gpu_limit_folders_down=2

# Bytes as MiB with one decimal, for messages.
gpu_mib() {
  awk -v bytes="$1" 'BEGIN { printf "%.1f MiB", bytes / 1048576 }'
}

# The bytes of the regular files under each PATH (apparent sizes: what is copied,
# not the disk blocks it takes; a symbolic link travels as a link).
gpu_tree_bytes() {
  find "$@" -type f -printf '%s\n' 2>/dev/null | awk '{ sum += $1 } END { print sum + 0 }'
}

# The bytes of the repository's files that travel without being carried: tracked
# ones and untracked ones git does not ignore. Run inside the repository.
gpu_travelling_repository_bytes() {
  git ls-files -z --cached --others --exclude-standard |
    xargs -0 -r stat -c '%F %s' -- 2>/dev/null |
    awk '$1 == "regular" { sum += $NF } END { print sum + 0 }'
}

# Tars FOLDER's contents into TARBALL (gzip) within the size of one returned file.
# When the tarball is too big, the largest file left in FOLDER is deleted and named
# in FOLDER/LEFT-OUT.txt, and the tarball made again: the small logs that explain a
# run matter more than one huge trace. Returns 1 when even that does not fit.
gpu_tar_within_limit() {
  local tarball=$1 folder=$2 largest size
  local tries=0
  while :; do
    tar -C "$folder" -czf "$tarball" . 2>/dev/null
    size=$(stat -c %s "$tarball")
    ((size <= gpu_limit_file_bytes)) && return 0
    largest=$(find "$folder" -type f ! -name LEFT-OUT.txt -printf '%s\t%P\n' | sort -n | tail -1)
    if [[ -z "$largest" ]] || ((++tries > 50)); then
      return 1
    fi
    printf 'left out, the tarball was %s: %s (%s)\n' "$(gpu_mib "$size")" "${largest#*$'\t'}" \
      "$(gpu_mib "${largest%%$'\t'*}")" >> "$folder/LEFT-OUT.txt"
    rm -f -- "$folder/${largest#*$'\t'}"
  done
}

# Lists what OUT_DIR holds (size and path, one a line) and prints one line per
# broken limit to stderr. Returns 1 when the device tool would not bring it all back.
gpu_check_returned_files() {
  local out=$1 problems=0 count=0 total=0 type size path depth
  echo "files left in $out for the device tool to bring back:"
  while IFS=$'\t' read -r type size path; do
    count=$((count + 1))
    total=$((total + size))
    printf '  %10s  %s\n' "$(gpu_mib "$size")" "$path"
    if [[ $type != f ]]; then
      echo "gpu-check.sh: LIMIT BROKEN: $path is not a plain file (a link or a device): it does not come back" >&2
      problems=1
    fi
    if ((size > gpu_limit_file_bytes)); then
      echo "gpu-check.sh: LIMIT BROKEN: $path is $(gpu_mib "$size"), over $(gpu_mib "$gpu_limit_file_bytes")" >&2
      problems=1
    fi
    depth=$(tr -cd / <<< "$path" | wc -c)
    if ((depth > gpu_limit_folders_down)); then
      echo "gpu-check.sh: LIMIT BROKEN: $path is more than $gpu_limit_folders_down folders down" >&2
      problems=1
    fi
    if [[ ! $path =~ ^[A-Za-z0-9._/-]+$ ]]; then
      echo "gpu-check.sh: LIMIT BROKEN: $path has a character other than letters, digits, '.', '_' or '-'" >&2
      problems=1
    fi
  done < <(find "$out" -mindepth 1 ! -type d -printf '%y\t%s\t%P\n' | sort -t$'\t' -k3)
  echo "  $count files, $(gpu_mib "$total")"
  if ((count > gpu_limit_files)); then
    echo "gpu-check.sh: LIMIT BROKEN: $count files in $out, the device tool brings back $gpu_limit_files" >&2
    problems=1
  fi
  if ((total > gpu_limit_returned_bytes)); then
    echo "gpu-check.sh: LIMIT BROKEN: $(gpu_mib "$total") in $out, over $(gpu_mib "$gpu_limit_returned_bytes")" >&2
    problems=1
  fi
  return "$problems"
}

# Whether the repository's travelling files and the carried folder fit the device
# tool together: REPOSITORY_BYTES CARRIED_BYTES. Prints the sum; 1 when over.
gpu_check_travel() {
  local repository=$1 carried=$2 total
  total=$((repository + carried))
  echo "gpuprof: travels: repository files $(gpu_mib "$repository") + carried $(gpu_mib "$carried")" \
    "= $(gpu_mib "$total") of $(gpu_mib "$gpu_limit_travel_bytes")"
  if ((total > gpu_limit_travel_bytes)); then
    echo "gpuprof: LIMIT BROKEN: $(gpu_mib $((total - gpu_limit_travel_bytes))) over what the device tool takes" >&2
    return 1
  fi
}

# Gzips each file of OUT_DIR over the size of a returned file (a test log that grew,
# say) so that it still comes back; what does not fit even then is left to
# gpu_check_returned_files to report.
gpu_compress_oversized() {
  local file
  while IFS= read -r -d '' file; do
    [[ $file == *.gz ]] && continue
    gzip -f -- "$file"
  done < <(find "$1" -type f -size +"$((gpu_limit_file_bytes / 1024))"k -print0)
}
