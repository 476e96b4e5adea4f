#pragma once

// What the reader must know about a trace's host and GPU time bases
// (importers/gpu_clock_check.hpp has the rule and its thresholds).

#include <map>
#include <optional>
#include <string>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

// The sentence telling the reader that an import moved the GPU timestamps onto
// the host clock (meta gpu_clock_shift_ns / gpu_clock_shift_reason, written by
// importers::align_gpu_clock), or nullopt when the trace records no shift.
std::optional<std::string> clock_shift_notice(const std::map<std::string, std::string>& meta);

// For nvprof imports, the piecewise fit of the host-to-GPU offset (meta gpu_clock_segments,
// gpu_clock_violations): "2 segments; bounds broken: constant shift 14, piecewise 0"; nullopt without one.
std::optional<std::string> clock_fit_notice(const std::map<std::string, std::string>& meta);

// clock_shift_notice, or, for a trace no import aligned (the collector's own),
// the same rule applied to its launches in memory: a warning sentence when host
// and GPU disagree. Such a trace is read as recorded, never rewritten.
std::optional<std::string> time_base_notice(const trace::TraceModel& model, const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
