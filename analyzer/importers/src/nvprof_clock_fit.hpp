#pragma once

// nvprof's host clock can jump mid-run (by ~1.8 ms in a real 2-rank MPI
// recording): one constant shift then leaves synchronize calls returning before
// the GPU work they waited for. The bounds of every linked launch, synchronous
// copy and device-wide synchronize are fitted piecewise (clock_segments.hpp) and
// the GPU rows of each segment moved by its offset.

#include <cstdint>
#include <vector>

#include "clock_segments.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

// The bounds of a trace being imported.
std::vector<ClockBound> clock_bounds(sqlite::Database& trace);

// Moves the GPU rows (kernels, copies, memsets, GPU ranges) of each segment by its offset and records meta
// gpu_clock_segments, gpu_clock_violations ("constant shift N, piecewise M") and collector_stats
// import.gpu_clock_segments. Runs in its own savepoint (a caller may roll it back); the caller checks the
// times fit. Each row moves once, by the offset of the segment holding its original start.
void apply_clock_segments(sqlite::Database& trace, const ClockFit& fit);

}  // namespace gpuprof::importers
