#pragma once

#include <map>
#include <optional>
#include <string>

namespace gpuprof::analysis {

// The sentence telling the reader that an import moved the GPU timestamps onto
// the host clock (meta gpu_clock_shift_ns / gpu_clock_shift_reason, written by
// importers::align_gpu_clock), or nullopt when the trace records no shift.
std::optional<std::string> clock_shift_notice(const std::map<std::string, std::string>& meta);

}  // namespace gpuprof::analysis
