#include "gpuprof/analysis/comm_rules.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/analysis/kernel_names.hpp"

namespace gpuprof::analysis {
namespace {

std::string lower(std::string_view text) {
  std::string result(text);
  std::transform(result.begin(), result.end(), result.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return result;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

bool contains_any(std::string_view text, std::initializer_list<std::string_view> parts) {
  return std::any_of(parts.begin(), parts.end(), [text](std::string_view part) { return contains(text, part); });
}

// Host ranges of communication libraries per thread, as interval sets.
std::map<std::int64_t, IntervalSet> comm_ranges_by_thread(const trace::TraceModel& model,
                                                          std::map<std::int64_t, std::vector<std::size_t>>& rows) {
  const auto& ranges = model.ranges;
  std::vector<std::int8_t> is_comm(model.strings.size(), -1);
  const auto comm_string = [&](trace::StringId id) {
    if (id >= is_comm.size()) return false;
    if (is_comm[id] < 0) is_comm[id] = is_comm_library_call(model.strings[id]) ? 1 : 0;
    return is_comm[id] == 1;
  };
  std::map<std::int64_t, std::vector<Interval>> raw;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] != 0) continue;
    if (!comm_string(ranges.name[row]) && !comm_string(ranges.domain[row])) continue;
    raw[ranges.thread_id[row]].push_back({ranges.start_ns[row], ranges.end_ns[row]});
    rows[ranges.thread_id[row]].push_back(row);
  }
  std::map<std::int64_t, IntervalSet> sets;
  for (auto& [thread, intervals] : raw) sets[thread] = normalize(std::move(intervals));
  return sets;
}

// Name of the innermost-starting communication range of `thread` that holds `time`, or nullopt.
std::optional<std::string_view> enclosing_range(const trace::TraceModel& model,
                                                const std::vector<std::size_t>& rows, std::int64_t time) {
  const auto& ranges = model.ranges;
  std::optional<std::string_view> found;
  std::int64_t latest_start = 0;
  for (const auto row : rows) {
    if (ranges.start_ns[row] > time || time >= ranges.end_ns[row]) continue;
    if (!found || ranges.start_ns[row] >= latest_start) {
      latest_start = ranges.start_ns[row];
      const bool named = is_comm_library_call(model.string(ranges.name[row]));
      found = named ? model.string(ranges.name[row]) : model.string(ranges.domain[row]);
    }
  }
  return found;
}

bool holds(const IntervalSet& set, std::int64_t time) {
  const auto it = std::upper_bound(set.begin(), set.end(), time,
                                   [](std::int64_t value, const Interval& interval) { return value < interval.start; });
  return it != set.begin() && time < std::prev(it)->end;
}

}  // namespace

std::optional<std::string> builtin_comm_rule(std::string_view kernel_name) {
  const auto full = lower(readable_kernel_name(kernel_name));
  const auto base = lower(short_kernel_name(kernel_name));
  if (base.starts_with("nccl") || base.starts_with("rccl")) return "NCCL/RCCL kernel name";
  if (contains(full, "msccl")) return "MSCCL/MSCCL++ kernel name";
  if (contains(full, "nvshmem")) return "NVSHMEM kernel name";
  // DeepEP and its forks keep the internode / internode_ll / intranode namespaces under their own top one;
  // their layout kernels (deep_ep::layout::get_dispatch_layout) compute, so the namespace decides.
  if (contains_any(full, {"internode::", "internode_ll::", "intranode::"}) &&
      contains_any(base, {"dispatch", "combine", "notify"})) {
    return "DeepEP (or fork) dispatch/combine/notify kernel";
  }
  if (contains(full, "pplx") && contains_any(base, {"dispatch", "combine"})) return "pplx-kernels all-to-all kernel";
  if (contains_any(base, {"all_to_all", "alltoall"})) return "expert-parallel all-to-all kernel name";
  if (contains_any(base, {"multimem_all_reduce", "one_shot_all_reduce", "two_shot_all_reduce",
                          "multimem_one_shot_all_reduce", "multimem_all_gather", "multimem_reduce_scatter"}) ||
      contains(full, "symmetric_memory::")) {
    return "PyTorch symmetric-memory collective";
  }
  if (base.starts_with("cross_device_reduce") || (contains(full, "vllm::") && contains(base, "all_reduce"))) {
    return "vLLM custom all-reduce kernel";
  }
  if (contains(full, "tensorrt_llm") && contains_any(base, {"allreduce", "all_reduce"})) {
    return "TensorRT-LLM custom all-reduce kernel";
  }
  return std::nullopt;
}

bool is_comm_library_call(std::string_view name) {
  // Called per launch: compares in place instead of lowering a copy of the name.
  const auto starts_with = [name](std::string_view prefix) {
    return name.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), name.begin(), [](char wanted, char actual) {
             return wanted == std::tolower(static_cast<unsigned char>(actual));
           });
  };
  return starts_with("nccl") || starts_with("rccl") || starts_with("nvshmem") || starts_with("mscclpp");
}

std::vector<std::string> launched_by_comm_call(const trace::TraceModel& model, const CorrelationIndex& correlations) {
  std::vector<std::string> rules(model.strings.size());
  std::map<std::int64_t, std::vector<std::size_t>> range_rows;
  const auto ranges = comm_ranges_by_thread(model, range_rows);
  const auto& kernels = model.kernels;
  const auto& api = model.api_calls;
  // Per API name: -1 not looked at yet, 0 no, 1 a communication library call (millions of launches, few names).
  std::vector<std::int8_t> comm_call(model.strings.size(), -1);
  const auto is_comm_call = [&](trace::StringId call_id) {
    if (comm_call[call_id] < 0) comm_call[call_id] = is_comm_library_call(model.string(call_id)) ? 1 : 0;
    return comm_call[call_id] == 1;
  };
  // With no communication range and no communication library call among the API calls there is nothing to
  // find: a read of the API names saves looking every kernel's call up (a random read of the API table per
  // kernel, the kernel classes' time), which is what most traces, launched through cudaLaunchKernel, need.
  if (ranges.empty() && std::none_of(api.name.begin(), api.name.end(), [&](trace::StringId call_id) {
        return call_id < comm_call.size() && is_comm_call(call_id);
      })) {
    return rules;
  }
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    const auto name = kernels.name[row];
    if (name >= rules.size() || !rules[name].empty()) continue;
    const auto api_row = correlations.api_row(kernels.correlation_id[row]);
    if (api_row == CorrelationIndex::kNone || api_row >= api.size()) continue;
    const auto call_id = api.name[api_row];
    if (call_id >= comm_call.size()) continue;
    if (is_comm_call(call_id)) {
      rules[name] = "launched by " + std::string(model.string(call_id));
      continue;
    }
    const auto thread = ranges.find(api.thread_id[api_row]);
    if (thread == ranges.end() || !holds(thread->second, api.start_ns[api_row])) continue;
    const auto range = enclosing_range(model, range_rows[thread->first], api.start_ns[api_row]);
    if (range) rules[name] = "launched inside " + std::string(*range);
  }
  return rules;
}

}  // namespace gpuprof::analysis
