#include "gpuprof/predict/comm_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>

#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/analysis/run_facts.hpp"
#include "gpuprof/predict/collective_time.hpp"
#include "gpuprof/predict/replay.hpp"

namespace gpuprof::predict {
namespace {

struct Sized {
  std::string name;  // the collective as the trace names it, to match it across ranks
  double time_ns = 0;
  bool group_from_world = false;
};

// Predicted time of each communication kernel of `device` the trace sizes, by correlation id.
std::map<std::int64_t, Sized> predicted_collectives(const trace::TraceModel& model, std::int32_t device,
                                                    const AllReduceCurve& curve) {
  const auto world = analysis::positive_run_fact(model, "world_size");
  std::map<std::int64_t, Sized> sized;
  const auto& table = model.collectives;
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (table.device[row] != device) continue;
    const bool from_world = table.group_size[row] == trace::kUnknown;
    const std::int64_t group = from_world ? world.value_or(0) : table.group_size[row];
    if (group < 2 || group > INT32_MAX) continue;
    const auto name = std::string(model.string(table.name[row]));
    const auto kind = analysis::collective_kind(name);
    const auto bytes = collective_bytes(kind, table.in_bytes[row], table.out_bytes[row], group);
    if (!bytes) continue;
    if (const auto time = collective_time_ns(curve, kind, *bytes, static_cast<std::int32_t>(group)))
      sized[table.correlation_id[row]] = {name, *time, from_world};
  }
  return sized;
}

// The same collective on every rank: its name and its ordinal among the rank's collectives of that name
// (as the job analysis matches them, job/collective_groups.hpp).
using CollectiveKey = std::pair<std::string, std::int64_t>;

// Trace start of each sized collective on the GPU the replay takes from `model`.
std::map<CollectiveKey, std::int64_t> collective_starts(const trace::TraceModel& model,
                                                       const analysis::AnalysisOptions& options) {
  const auto graph = build_replay_graph(model, options);
  std::map<std::int64_t, std::string> names;
  const auto& table = model.collectives;
  for (std::size_t row = 0; row < table.size(); ++row)
    if (table.device[row] == graph.device) names[table.correlation_id[row]] = model.string(table.name[row]);
  std::map<std::string, std::int64_t> ordinals;
  std::map<CollectiveKey, std::int64_t> starts;
  for (const auto& op : graph.ops) {
    const auto found = names.find(op.correlation_id);
    if (op.kind != OpKind::communication || found == names.end()) continue;
    starts[{found->second, ordinals[found->second]++}] = op.start_ns + graph.origin_ns;
  }
  return starts;
}

analysis::IntervalSet intervals(const ReplayGraph& graph, const ReplayTimes& times, OpKind kind) {
  std::vector<analysis::Interval> spans;
  for (std::size_t o = 0; o < graph.ops.size(); ++o)
    if (graph.ops[o].kind == kind)
      spans.push_back({std::llround(times.op_start[o]), std::llround(times.op_end[o])});
  return analysis::normalize(std::move(spans));
}

// Exposed communication (|comm - compute|, DESIGN.md) inside the steady pieces, over their length.
double exposed_share(const ReplayGraph& graph, const ReplayTimes& times) {
  const auto exposed = analysis::subtract(intervals(graph, times, OpKind::communication),
                                          intervals(graph, times, OpKind::compute));
  double inside = 0, span = 0;
  for (const auto& piece : steady_pieces(graph, times)) {
    inside += static_cast<double>(
        analysis::length_within(exposed, std::llround(piece.start), std::llround(piece.end)));
    span += piece.end - piece.start;
  }
  return span > 0 ? inside / span : 0.0;
}

bool in_steady_window(const ReplayGraph& graph, const ReplayOp& op) {
  if (op.window == kNone) return false;
  const bool all_warmup =
      std::all_of(graph.windows.begin(), graph.windows.end(), [](const auto& w) { return w.warmup; });
  return all_warmup || !graph.windows[static_cast<std::size_t>(op.window)].warmup;
}

std::string device_name(const trace::TraceModel& model, std::int32_t device) {
  for (const auto& row : model.devices)
    if (row.id == device && row.name) return *row.name;
  return "";
}

}  // namespace

CommCase leave_communication_out(const trace::TraceModel& model, const LinkProfile& link,
                                 const analysis::AnalysisOptions& options,
                                 const std::vector<const trace::TraceModel*>& partners) {
  const auto graph = build_replay_graph(model, options);
  CommCase result;
  result.trace = model.path;
  result.device_name = device_name(model, graph.device);
  result.link_name = link.name;
  result.partner_ranks = static_cast<std::int64_t>(partners.size());
  std::vector<std::map<CollectiveKey, std::int64_t>> partner_starts;
  for (const auto* partner : partners) partner_starts.push_back(collective_starts(*partner, options));
  const auto sized = predicted_collectives(model, graph.device, link.curve());
  auto edited = graph;
  double measured_comm = 0, sized_comm = 0, predicted_comm = 0;
  bool from_world = false, from_trace = false;
  std::map<std::string, std::int64_t> ordinals;
  for (auto& op : edited.ops) {
    if (op.kind != OpKind::communication) continue;
    const auto found = sized.find(op.correlation_id);
    const bool steady = in_steady_window(graph, op);
    if (found != sized.end()) {
      if (steady) ++result.sized_kernels, sized_comm += op.duration_ns;
      op.duration_ns = found->second.time_ns;
      (found->second.group_from_world ? from_world : from_trace) = true;
      // The collective moves data only once its last partner has arrived (their recorded starts); the kernel
      // spins from its own start until then, as NCCL's does.
      const CollectiveKey key{found->second.name, ordinals[found->second.name]++};
      for (const auto& starts : partner_starts)
        if (const auto start = starts.find(key); start != starts.end())
          op.earliest_end_ns = std::max(op.earliest_end_ns,
                                        static_cast<double>(start->second - graph.origin_ns) + op.duration_ns);
    }
    if (steady) ++result.comm_kernels, measured_comm += static_cast<double>(op.end_ns - op.start_ns);
  }
  result.group_source = from_world && from_trace ? "the trace's groups, else its world size"
                        : from_world          ? "the trace's world size (the annotations state no group)"
                                              : "the trace's collective args";
  result.sized_share = measured_comm > 0 ? sized_comm / measured_comm : 0.0;
  const auto measured_times = recorded_times(graph);
  const auto measured = steady_step_period(graph, measured_times);
  const auto predicted_times = replay(edited);
  for (std::size_t o = 0; o < edited.ops.size(); ++o)
    if (edited.ops[o].kind == OpKind::communication && in_steady_window(graph, edited.ops[o]))
      predicted_comm += predicted_times.op_end[o] - predicted_times.op_start[o];
  const auto steady_windows = std::count_if(graph.windows.begin(), graph.windows.end(), [&](const auto& w) {
    return !w.warmup || std::all_of(graph.windows.begin(), graph.windows.end(), [](const auto& v) { return v.warmup; });
  });
  const auto steps = static_cast<double>(std::max<std::int64_t>(1, steady_windows));
  result.measured_step_ns = measured.mean_ns;
  result.predicted_step_ns = steady_step_period(edited, predicted_times).mean_ns;
  result.measured_exposed_share = exposed_share(graph, measured_times);
  result.predicted_exposed_share = exposed_share(edited, predicted_times);
  result.measured_comm_ns = measured_comm / steps;
  result.predicted_comm_ns = predicted_comm / steps;
  // The same without the partners' arrivals: what the sizes and the link alone explain.
  for (auto& op : edited.ops) op.earliest_end_ns = -std::numeric_limits<double>::infinity();
  const auto alone_times = replay(edited);
  result.transfer_only_step_ns = steady_step_period(edited, alone_times).mean_ns;
  result.transfer_only_exposed_share = exposed_share(edited, alone_times);
  return result;
}

}  // namespace gpuprof::predict
