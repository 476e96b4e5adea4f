#include <algorithm>
#include <map>

#include "replay_graph_parts.hpp"

namespace gpuprof::predict {
namespace {

std::int32_t window_of(const std::vector<analysis::GpuStep>& windows, std::int64_t start_ns) {
  const auto after = std::upper_bound(windows.begin(), windows.end(), start_ns,
                                      [](std::int64_t t, const auto& w) { return t < w.start_ns; });
  if (after == windows.begin()) return kNone;
  const auto index = static_cast<std::int32_t>(after - windows.begin() - 1);
  // Work after the last window's end belongs to no step.
  if (after == windows.end() && start_ns >= windows.back().end_ns) return kNone;
  return index;
}

class OpCollector {
 public:
  OpCollector(const analysis::CorrelationIndex& correlations, ReplayGraph& graph)
      : correlations_(correlations), graph_(graph) {}

  void add(const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices,
           const std::function<void(std::size_t, ReplayOp&)>& fill) {
    for (const auto& slice : slices) {
      if (slice.device != graph_.device) continue;
      const auto stream = stream_index(slice.stream);
      for (auto row = slice.begin; row < slice.end; ++row) {
        ReplayOp op;
        op.stream = stream;
        op.start_ns = table.start_ns[row];
        op.end_ns = std::max(op.start_ns, table.end_ns[row]);
        op.duration_ns = static_cast<double>(op.end_ns - op.start_ns);
        op.correlation_id = table.correlation_id[row];
        const auto api = correlations_.api_row(table.correlation_id[row]);
        op.launch = api == analysis::CorrelationIndex::kNone ? kNone : static_cast<std::int32_t>(api);
        op.window = window_of(graph_.windows, op.start_ns);
        fill(row, op);
        graph_.ops.push_back(std::move(op));
      }
    }
  }

 private:
  std::int32_t stream_index(std::int64_t stream) {
    const auto [it, added] = streams_.try_emplace(stream, static_cast<std::int32_t>(graph_.stream_ids.size()));
    if (added) graph_.stream_ids.push_back(stream);
    return it->second;
  }

  const analysis::CorrelationIndex& correlations_;
  ReplayGraph& graph_;
  std::map<std::int64_t, std::int32_t> streams_;
};

}  // namespace

void collect_ops(const trace::TraceModel& model, const std::vector<analysis::KernelCategory>& categories,
                 const analysis::CorrelationIndex& correlations, ReplayGraph& graph) {
  OpCollector collector(correlations, graph);
  collector.add(model.kernels, model.kernel_streams, [&](std::size_t row, ReplayOp& op) {
    const auto name = model.kernels.name[row];
    const bool comm = name < categories.size() && categories[name] == analysis::KernelCategory::communication;
    op.kind = comm ? OpKind::communication : OpKind::compute;
  });
  collector.add(model.memcpys, model.memcpy_streams, [&](std::size_t row, ReplayOp& op) {
    op.kind = OpKind::copy;
    op.bytes = model.memcpys.bytes[row];
    op.copy_kind = model.memcpys.copy_kind[row];
  });
  // Memsets count as computation (DESIGN.md, "Communication kernel").
  collector.add(model.memsets, model.memset_streams, [](std::size_t, ReplayOp& op) { op.kind = OpKind::compute; });
  std::stable_sort(graph.ops.begin(), graph.ops.end(),
                   [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
}

}  // namespace gpuprof::predict
