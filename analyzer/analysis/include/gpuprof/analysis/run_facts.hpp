#pragma once

// Facts a training program states about its run (global batch, batch size per
// process, GPUs): a meta key of the trace, or an NVTX mark named
// `gpuprof.meta KEY=VALUE` (any domain), which any program can emit without
// knowing about gpuprof's file format, e.g. PyTorch's torch.cuda.nvtx.mark.
// The meta table wins over marks; among marks the last one wins.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

inline constexpr std::string_view kRunFactMarkPrefix = "gpuprof.meta ";

std::optional<std::string> run_fact(const trace::TraceModel& model, std::string_view key);

// A positive decimal integer; anything else (text, zero, overflow) is no answer.
std::optional<std::int64_t> positive_run_fact(const trace::TraceModel& model, std::string_view key);

}  // namespace gpuprof::analysis
