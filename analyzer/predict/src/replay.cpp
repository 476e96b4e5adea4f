#include "gpuprof/predict/replay.hpp"

#include <algorithm>
#include <limits>

namespace gpuprof::predict {
namespace {

// At one instant a blocking call returns before the next call starts, calls start
// before the work they launch, and inserted work (keyed at the end of its inputs)
// runs before recorded work that starts at that instant and may wait for it.
enum class ItemType : std::uint8_t { call_end, call_start, inserted_op, op };

struct Item {
  std::int64_t key;
  ItemType type;
  std::int32_t index;
};

std::vector<Item> schedule(const ReplayGraph& graph) {
  std::vector<Item> items;
  items.reserve(graph.ops.size() + 2 * graph.calls.size());
  for (std::size_t c = 0; c < graph.calls.size(); ++c) {
    const auto& call = graph.calls[c];
    items.push_back({call.start_ns, ItemType::call_start, static_cast<std::int32_t>(c)});
    if (call.awaits != kNone) items.push_back({call.end_ns, ItemType::call_end, static_cast<std::int32_t>(c)});
  }
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const auto& op = graph.ops[o];
    std::int64_t key = op.start_ns;
    if (op.launch != kNone) key = std::max(key, graph.calls[static_cast<std::size_t>(op.launch)].start_ns);
    const auto type = op.kind == OpKind::inserted ? ItemType::inserted_op : ItemType::op;
    items.push_back({key, type, static_cast<std::int32_t>(o)});
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.key != b.key ? a.key < b.key : a.type < b.type; });
  return items;
}

class Replayer {
 public:
  explicit Replayer(const ReplayGraph& graph) : graph_(graph) {
    times_.op_start.assign(graph.ops.size(), 0.0);
    times_.op_end.assign(graph.ops.size(), 0.0);
    times_.call_start.assign(graph.calls.size(), 0.0);
    times_.call_end.assign(graph.calls.size(), 0.0);
    stream_free_.assign(graph.stream_ids.size(), -std::numeric_limits<double>::infinity());
  }

  ReplayTimes run() {
    for (const auto& item : schedule(graph_)) {
      if (item.type == ItemType::call_start)
        start_call(static_cast<std::size_t>(item.index));
      else if (item.type == ItemType::call_end)
        end_blocking_call(static_cast<std::size_t>(item.index));
      else
        run_op(static_cast<std::size_t>(item.index));  // inserted or recorded work
    }
    return std::move(times_);
  }

 private:
  // The host keeps its own pace: the time since its previous call is kept.
  void start_call(std::size_t c) {
    const auto& call = graph_.calls[c];
    const bool same_thread = c > 0 && graph_.calls[c - 1].thread == call.thread;
    const double start = same_thread
                             ? times_.call_end[c - 1] + static_cast<double>(call.start_ns - graph_.calls[c - 1].end_ns)
                             : static_cast<double>(call.start_ns);
    times_.call_start[c] = start;
    times_.call_end[c] = start + static_cast<double>(call.end_ns - call.start_ns);
  }

  // The call returns as long after the awaited work ends as it did in the trace; the part of
  // the call that was not waiting keeps its length.
  void end_blocking_call(std::size_t c) {
    const auto& call = graph_.calls[c];
    const auto awaited = static_cast<std::size_t>(call.awaits);
    const auto& op = graph_.ops[awaited];
    const double recorded = static_cast<double>(call.awaits_start ? op.start_ns : op.end_ns);
    const double replayed = call.awaits_start ? times_.op_start[awaited] : times_.op_end[awaited];
    const double duration = static_cast<double>(call.end_ns - call.start_ns);
    const double waited = std::clamp(recorded - static_cast<double>(call.start_ns), 0.0, duration);
    const double lag = std::max(0.0, static_cast<double>(call.end_ns) - recorded);
    times_.call_end[c] = std::max(times_.call_start[c] + duration - waited, replayed + lag);
  }

  void run_op(std::size_t o) {
    const auto& op = graph_.ops[o];
    double ready = stream_free_[static_cast<std::size_t>(op.stream)];
    if (op.launch != kNone)
      ready = std::max(ready, times_.call_start[static_cast<std::size_t>(op.launch)] + op.launch_latency_ns);
    if (op.after != kNone) ready = std::max(ready, times_.op_end[static_cast<std::size_t>(op.after)] + op.after_lag_ns);
    for (const auto input : op.inputs) ready = std::max(ready, times_.op_end[static_cast<std::size_t>(input)]);
    // Work with nothing before it in the replay keeps its recorded start.
    if (ready == -std::numeric_limits<double>::infinity()) ready = static_cast<double>(op.start_ns);
    times_.op_start[o] = ready;
    times_.op_end[o] = std::max(ready + op.duration_ns, op.earliest_end_ns);
    stream_free_[static_cast<std::size_t>(op.stream)] = times_.op_end[o];
  }

  const ReplayGraph& graph_;
  ReplayTimes times_;
  std::vector<double> stream_free_;
};

}  // namespace

ReplayTimes replay(const ReplayGraph& graph) { return Replayer(graph).run(); }

ReplayTimes recorded_times(const ReplayGraph& graph) {
  ReplayTimes times;
  for (const auto& op : graph.ops) {
    times.op_start.push_back(static_cast<double>(op.start_ns));
    times.op_end.push_back(static_cast<double>(op.end_ns));
  }
  for (const auto& call : graph.calls) {
    times.call_start.push_back(static_cast<double>(call.start_ns));
    times.call_end.push_back(static_cast<double>(call.end_ns));
  }
  return times;
}

std::vector<SteadyPiece> steady_pieces(const ReplayGraph& graph, const ReplayTimes& times) {
  const auto windows = graph.windows.size();
  std::vector<double> first(windows, std::numeric_limits<double>::infinity()), last(windows, 0.0);
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const auto w = graph.ops[o].window;
    if (w == kNone) continue;
    first[static_cast<std::size_t>(w)] = std::min(first[static_cast<std::size_t>(w)], times.op_start[o]);
    last[static_cast<std::size_t>(w)] = std::max(last[static_cast<std::size_t>(w)], times.op_end[o]);
  }
  const bool all_warmup =
      std::all_of(graph.windows.begin(), graph.windows.end(), [](const auto& w) { return w.warmup; });
  std::vector<SteadyPiece> periods, lengths;
  for (std::size_t w = 0; w < windows; ++w) {
    if ((graph.windows[w].warmup && !all_warmup) || first[w] == std::numeric_limits<double>::infinity()) continue;
    if (w + 1 < windows && first[w + 1] != std::numeric_limits<double>::infinity())
      periods.push_back({first[w], first[w + 1]});
    else
      lengths.push_back({first[w], last[w]});
  }
  return periods.empty() ? lengths : periods;
}

StepPeriod steady_step_period(const ReplayGraph& graph, const ReplayTimes& times) {
  const auto pieces = steady_pieces(graph, times);
  if (pieces.empty()) return {};
  double total = 0;
  for (const auto& piece : pieces) total += piece.end - piece.start;
  return {total / static_cast<double>(pieces.size()), static_cast<std::int64_t>(pieces.size())};
}

}  // namespace gpuprof::predict
