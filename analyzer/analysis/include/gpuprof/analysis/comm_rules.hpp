#pragma once

// The rules that make a kernel a communication kernel (DESIGN.md,
// "Communication kernel"): library kernel names, recognised with no option,
// and the structural rule "launched by a communication library call".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

// The name of the built-in rule that matches a kernel name (mangled or not),
// e.g. "NCCL/RCCL kernel name"; nullopt when none does.
std::optional<std::string> builtin_comm_rule(std::string_view kernel_name);

// True for API call, range or range-domain names of NCCL, RCCL, NVSHMEM or MSCCL++
// (`ncclAllReduce`, Kineto's `nccl:all_reduce`, the `NCCL` NVTX domain).
bool is_comm_library_call(std::string_view name);

// Per StringId of a kernel name: the rule "launched by <call>" when some
// kernel of that name was launched by an API call that is a communication
// library call or lies inside a host range of one (same thread); empty otherwise.
std::vector<std::string> launched_by_comm_call(const trace::TraceModel& model, const CorrelationIndex& correlations);

}  // namespace gpuprof::analysis
