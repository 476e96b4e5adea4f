#!/usr/bin/env bash
# No binary we build has an empty RUNPATH entry: the loader reads one as the
# current directory, where anyone could plant a libcupti.so.13.
set -euo pipefail
if ! command -v readelf >/dev/null; then
  echo "readelf (binutils) is not installed: nothing checked" >&2
  exit 77  # ctest's SKIP_RETURN_CODE
fi
status=0
for binary in "$@"; do
  runpath=$(readelf -d "$binary" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p; s/.*(RPATH).*\[\(.*\)\]/\1/p')
  if [[ ":$runpath:" == *"::"* && -n "$runpath" ]]; then
    echo "$binary: RUNPATH '$runpath' has an empty entry" >&2
    status=1
  else
    echo "$binary: RUNPATH '${runpath}'"
  fi
done
exit "$status"
