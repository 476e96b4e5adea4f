#!/usr/bin/env bash
# The room-walls check (cmake/check_room_walls.cmake) on a small tree, tests/scripts/room_walls_fixture: it must
# fail, naming each of the three wrong includes (up, sideways, and up from a room nested in another's folder) and
# the wrong link, and leave the allowed ones alone.
#   room_walls_test.sh SOURCE_DIR CMAKE
set -u
root=$1
cmake=$2
out=$("$cmake" -DROOT="$root/tests/scripts/room_walls_fixture" -DREQUIRE_EVERY_ROOM=OFF \
  -P "$root/cmake/check_room_walls.cmake" 2>&1)
rc=$?
failed=0
fail() { echo "FAIL: $*"; failed=1; }
[ "$rc" -ne 0 ] || fail "the check passed a tree with wrong includes"
grep -q 'analyzer/analysis/src/upward.cpp: room analysis includes gpuprof/rank/rank_analysis.hpp of room rank' <<<"$out" ||
  fail "the upward include of analysis is not named"
grep -q 'analyzer/memory/include/gpuprof/memory/sideways.hpp: room memory includes gpuprof/idle/idle_cause.hpp of room idle' <<<"$out" ||
  fail "the sideways include of memory is not named"
grep -q 'collector/launcher/src/nested.cpp: room launcher includes gpuprof/collector/buffers.hpp of room collector' <<<"$out" ||
  fail "the launcher's include of the collector is not named"
grep -q 'analyzer/analysis/CMakeLists.txt: room analysis links gpuprof::rank of room rank' <<<"$out" ||
  fail "the link of analysis to rank is not named"
grep -q '4 includes or links across a wall, in 6 files read' <<<"$out" || fail "not 4 wrong includes and links in 6 files"
if grep -q 'downward.cpp\|top.cpp\|trace_model\|steps.hpp\|gpuprof::trace\|gpuprof::warnings' <<<"$out"; then fail "an allowed include was reported"; fi
if [ "$failed" -ne 0 ]; then echo "$out"; exit 1; fi
echo "room walls check: the 3 wrong includes and the wrong link named, the allowed ones not"
