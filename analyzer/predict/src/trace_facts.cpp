#include "trace_facts.hpp"

#include <algorithm>
#include <cctype>

#include "gpuprof/analysis/run_facts.hpp"

namespace gpuprof::predict {
namespace {

bool contains_word(std::string_view name, std::string_view word) {
  return std::search(name.begin(), name.end(), word.begin(), word.end(),
                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }) != name.end();
}

}  // namespace

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
  for (const auto& call : graph.calls)
    if (call.awaits == kNone) pipeline.launch_ns += static_cast<double>(call.end_ns - call.start_ns);
  const auto windows = static_cast<double>(graph.windows.size());
  pipeline.data_ns /= windows;
  pipeline.launch_ns /= windows;
  return pipeline;
}

}  // namespace gpuprof::predict
