#include "trace_facts.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "gpuprof/analysis/run_facts.hpp"
#include "input_checks.hpp"

namespace gpuprof::predict {
namespace {

bool contains_word(std::string_view name, std::string_view word) {
  return std::search(name.begin(), name.end(), word.begin(), word.end(),
                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }) != name.end();
}

bool optimizer_update_name(std::string_view name) {
  const auto head = name.substr(0, argument_list_start(name));
  const bool update = contains_word(head, "adam") || contains_word(head, "sgd") || contains_word(head, "optimizer");
  const auto arguments = name.substr(std::min(name.size(), head.size()));
  const bool fp32 = contains_word(arguments, "float") && !contains_word(arguments, "half") &&
                    !contains_word(arguments, "bfloat");
  return update && fp32 && !contains_word(head, "multi_tensor");
}

}  // namespace

std::optional<GradientSize> gradient_size_from_optimizer(const trace::TraceModel& model, const ReplayGraph& graph) {
  const auto& kernels = model.kernels;
  if (kernels.grid.size() != kernels.size() || graph.windows.empty()) return std::nullopt;
  std::optional<trace::StringId> name;
  std::optional<std::int64_t> threads;
  std::vector<int> launches(graph.windows.size(), 0);
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    if (kernels.device[k] != graph.device || !optimizer_update_name(model.string(kernels.name[k]))) continue;
    const auto& grid = kernels.grid[k];
    const auto& block = kernels.block[k];
    const std::int64_t count = std::int64_t{grid.x} * block.x;
    if (grid.y != 1 || grid.z != 1 || block.y != 1 || block.z != 1 || count <= 0) return std::nullopt;
    if ((name && *name != kernels.name[k]) || (threads && *threads != count)) return std::nullopt;  // not one kernel
    name = kernels.name[k], threads = count;
    const auto start = kernels.start_ns[k] - graph.origin_ns;
    for (std::size_t w = 0; w < graph.windows.size(); ++w)
      if (start >= graph.windows[w].start_ns && start < graph.windows[w].end_ns) ++launches[w];
  }
  if (!threads || std::any_of(launches.begin(), launches.end(), [](int n) { return n != 1; })) return std::nullopt;
  return GradientSize{*threads * 4, "the optimizer's update kernel: " + std::to_string(*threads) +
                                        " threads per step, one per fp32 parameter (an upper bound within one block)"};
}

std::optional<GradientSize> gradient_size_from_all_reduces(const trace::TraceModel& model, const ReplayGraph& graph) {
  const auto& collectives = model.collectives;
  std::map<std::int64_t, std::int64_t> bytes_of;  // by correlation id, on the replayed GPU
  for (std::size_t c = 0; c < collectives.size(); ++c) {
    const auto name = model.string(collectives.name[c]);
    const bool all_reduce = contains_word(name, "all_reduce") || contains_word(name, "allreduce");
    if (all_reduce && collectives.device[c] == graph.device && collectives.in_bytes[c] > 0)
      bytes_of[collectives.correlation_id[c]] = collectives.in_bytes[c];
  }
  std::vector<std::int64_t> per_window(graph.windows.size(), 0);
  for (const auto& op : graph.ops)
    if (op.kind == OpKind::communication && op.window != kNone)
      if (const auto found = bytes_of.find(op.correlation_id); found != bytes_of.end())
        per_window[static_cast<std::size_t>(op.window)] += found->second;
  std::optional<std::int64_t> bytes;
  for (std::size_t w = 0; w < graph.windows.size(); ++w) {
    if (graph.windows[w].warmup) continue;
    if (per_window[w] <= 0 || (bytes && *bytes != per_window[w])) return std::nullopt;
    bytes = per_window[w];
  }
  if (!bytes) return std::nullopt;
  return GradientSize{*bytes, "the trace's own all-reduces: the same bytes in every steady step"};
}

std::optional<GradientSize> gradient_size_from_trace(const trace::TraceModel& model) {
  if (const auto bytes = analysis::positive_run_fact(model, "gradient_bytes")) {
    const auto source = analysis::run_fact(model, "gradient_bytes_source");
    return GradientSize{*bytes, source ? "trace meta gradient_bytes: " + *source : "trace meta gradient_bytes"};
  }
  if (const auto count = analysis::positive_run_fact(model, "parameter_count"))
    return GradientSize{*count * 4, "trace meta parameter_count x 4 bytes (fp32 gradients)"};
  return std::nullopt;
}

HostPipeline host_pipeline(const trace::TraceModel& model, const ReplayGraph& graph) {
  HostPipeline pipeline;
  if (graph.windows.empty()) return pipeline;
  const auto first = graph.windows.front().start_ns + graph.origin_ns;
  const auto last = graph.windows.back().end_ns + graph.origin_ns;
  const auto& ranges = model.ranges;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    if (ranges.on_gpu[i] || ranges.start_ns[i] < first || ranges.start_ns[i] >= last) continue;
    const auto name = model.string(ranges.name[i]);
    if (contains_word(name, "data") || contains_word(name, "loader"))
      pipeline.data_ns += static_cast<double>(ranges.end_ns[i] - ranges.start_ns[i]);
  }
  for (const auto& call : graph.calls) {
    const auto span = static_cast<double>(call.end_ns - call.start_ns);
    if (call.awaits == kNone) pipeline.launch_ns += span;
    if (call.copy_wait) pipeline.copy_wait_ns += span;
  }
  const auto windows = static_cast<double>(graph.windows.size());
  pipeline.data_ns /= windows;
  pipeline.launch_ns /= windows;
  pipeline.copy_wait_ns /= windows;
  return pipeline;
}

}  // namespace gpuprof::predict
