#pragma once

#include <cstdint>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

// Which rows a time shift moves.
enum class ShiftedRows {
  every_event,  // a time base learned after the rows were written (Kineto's baseTimeNanoseconds)
  gpu_side,     // what the GPU clock timed: kernels, copies, memsets and GPU ranges (gpu_clock_check)
};

// Adds `shift_ns` to start_ns and end_ns of those rows of a finished trace and
// rewrites the column chunks, which were encoded from the unshifted rows (a
// loader trusting them would undo the shift). Runs inside the caller's
// transaction; the caller checks that the shifted times fit.
void shift_event_times(sqlite::Database& trace, std::int64_t shift_ns, ShiftedRows rows);

}  // namespace gpuprof::importers
