#pragma once

// Host ranges that enclose a phase of the work rather than do it (DESIGN.md, "Idle causes"): PyTorch's
// `ProfilerStep#N`, `## forward ##`, `DistributedDataParallel.forward`, a module's `forward`,
// `Optimizer.step#…`. Such a range spans its phase, the GPU's idle time included, as the step range
// does: the thread is in it while it runs Python between operations or waits, so being in it is no
// evidence that the host was busy. Only the ranges inside it say what the thread did.
//
// The rule is structural, not a list of names: a range encloses its phase when GPU work was launched
// (an API call that launched a kernel, copy or memset) under two or more of its child ranges on its
// thread (a range of the same thread inside it with no other range between). An operation that
// launches its work itself, or through one child (`aten::linear` around `aten::addmm`), does its
// work and stays evidence; ranges of one thread that cross without nesting are read as siblings.

#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

// Per row of model.ranges: true where the range encloses its phase (GPU-side rows are false).
std::vector<bool> phase_ranges(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations);
// The same from `launched` (per row of model.api_calls: the call launched GPU work), for a caller that
// gathers the launches already (HostCauses).
std::vector<bool> phase_ranges(const trace::TraceModel& model, const std::vector<bool>& launched);

// Per row of model.api_calls: the call launched a kernel, copy or memset.
std::vector<bool> launched_calls(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations);

}  // namespace gpuprof::idle
