#include "input_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// A kernel's name without its argument list and digits: "gemm_128x64(float*)" and "gemm_64x64(...)" are one.
std::string kernel_family(std::string_view name) {
  std::string family;
  for (const char c : name.substr(0, argument_list_start(name)))
    if (!std::isdigit(static_cast<unsigned char>(c))) family.push_back(c);
  return family;
}

std::map<std::string, double> kernel_time_by_family(const trace::TraceModel& model, std::int32_t device) {
  std::map<std::string, double> time;
  const auto& kernels = model.kernels;
  for (std::size_t k = 0; k < kernels.size(); ++k)
    if (kernels.device[k] == device)
      time[kernel_family(model.string(kernels.name[k]))] +=
          static_cast<double>(std::max<std::int64_t>(0, kernels.end_ns[k] - kernels.start_ns[k]));
  return time;
}

}  // namespace

std::size_t argument_list_start(std::string_view name) {
  if (name.empty() || name.back() != ')') return name.size();
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return i;
  }
  return name.size();
}

void check_steady_steps(const ReplayGraph& graph, std::int64_t warmup_steps) {
  if (std::any_of(graph.windows.begin(), graph.windows.end(), [](const auto& w) { return !w.warmup; })) return;
  throw TraceError::bad_input(graph.path, fmt::format("--warmup-steps {} leaves no steady step (the trace has {} "
                                                      "step{}): give fewer warm-up steps or record more steps",
                                                      warmup_steps, graph.windows.size(),
                                                      graph.windows.size() == 1 ? "" : "s"));
}

void check_one_gpu_trace(const trace::TraceModel& model, const ReplayGraph& graph, bool accepted) {
  if (accepted) return;
  const auto communication = std::count_if(graph.ops.begin(), graph.ops.end(),
                                           [](const auto& op) { return op.kind == OpKind::communication; });
  std::string reason;
  if (communication > 0)
    reason = fmt::format("{} communication kernels on GPU {}", communication, graph.device);
  else if (model.collectives.size() > 0)
    reason = fmt::format("{} collectives", model.collectives.size());
  else if (graph.devices_with_work > 1)
    reason = fmt::format("work on {} GPUs", graph.devices_with_work);
  else if (const auto world = model.world_size(); world && *world > 1)
    reason = fmt::format("rank {} of {}", model.rank().value_or(0), *world);
  if (reason.empty()) return;
  throw TraceError::bad_input(model.path,
                              fmt::format("not a 1-GPU run ({}): predict adds the N-GPU communication to a 1-GPU "
                                          "step; give a 1-GPU trace, or --multi-gpu-input if this is meant (its "
                                          "communication then stays in the replay)",
                                          reason));
}

double shared_kernel_time(const trace::TraceModel& a, const ReplayGraph& graph_a, const trace::TraceModel& b,
                          const ReplayGraph& graph_b) {
  const auto mine = kernel_time_by_family(a, graph_a.device);
  const auto theirs = kernel_time_by_family(b, graph_b.device);
  double total = 0, shared = 0;
  for (const auto& [family, time] : mine) {
    total += time;
    if (theirs.contains(family)) shared += time;
  }
  return total > 0 ? shared / total : 1.0;
}

void check_same_program(const trace::TraceModel& one, const ReplayGraph& graph_one, const trace::TraceModel& two,
                        const ReplayGraph& graph_two) {
  const double forward = shared_kernel_time(one, graph_one, two, graph_two);
  const double backward = shared_kernel_time(two, graph_two, one, graph_one);
  if (std::min(forward, backward) >= 0.5) return;
  throw TraceError::bad_input(
      two.path, fmt::format("not the same program as {}: {:.0f} % of its kernel time is in kernels the 1-GPU trace "
                            "runs, and {:.0f} % the other way (at least 50 % both ways for one program at another "
                            "batch)",
                            one.path, 100 * backward, 100 * forward));
}

std::int64_t memory_bound(const trace::TraceModel& model, const ReplayGraph& graph) {
  for (const auto& row : model.devices)
    if (row.id == graph.device && row.memory_bytes && *row.memory_bytes > 0)
      return std::min(*row.memory_bytes, kMaxGpuMemoryBytes);
  return kMaxGpuMemoryBytes;
}

void check_bytes_fit(const trace::TraceModel& model, const ReplayGraph& graph, std::int64_t bytes,
                     const std::string& what) {
  const auto bound = memory_bound(model, graph);
  if (bytes <= bound) return;
  throw TraceError::bad_input(model.path, fmt::format("{} of {} bytes is more than the {} bytes of GPU memory the "
                                                      "1-GPU run had: no model trained on it moves that much per step",
                                                      what, bytes, bound));
}

}  // namespace gpuprof::predict
