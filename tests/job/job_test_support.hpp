#pragma once

// Synthetic rank files for job tests, and the SQL edits that fake a rank with
// its own clock.

#include <cstdint>
#include <string>

#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace gpuprof::testing {

// A synthetic trace of `rank` of a `world_size` job (small: few kernels per step).
std::string write_rank(const std::string& path, std::int32_t rank, std::int32_t world_size,
                       synthetic::SynthOptions options = {});

// Runs SQL statements on a trace file; throws std::runtime_error on failure.
void execute_sql(const std::string& path, const std::string& sql);

// Moves every timestamp of the trace by `offset_ns`, as a rank with a different clock would record them.
void shift_times(const std::string& path, std::int64_t offset_ns);

// The trace's meta `rank` becomes `rank`.
void set_rank(const std::string& path, std::int32_t rank);

}  // namespace gpuprof::testing
