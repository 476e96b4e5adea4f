#include <algorithm>
#include <cctype>
#include <map>

#include "replay_graph_parts.hpp"

namespace gpuprof::predict {
namespace {

bool names_backward(std::string_view name) {
  constexpr std::string_view kWord = "backward";
  const auto found = std::search(name.begin(), name.end(), kWord.begin(), kWord.end(),
                                 [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return found != name.end();
}

}  // namespace

void mark_backward(const trace::TraceModel& model, ReplayGraph& graph) {
  // Backward ranges per thread, as (start, end), sorted.
  std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> ranges;
  const auto& table = model.ranges;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (!table.on_gpu[i] && names_backward(model.string(table.name[i])))
      ranges[table.thread_id[i]].emplace_back(table.start_ns[i], table.end_ns[i]);
  for (auto& [thread, spans] : ranges) std::sort(spans.begin(), spans.end());
  for (auto& op : graph.ops) {
    if (op.launch == kNone) continue;
    const auto& call = graph.calls[static_cast<std::size_t>(op.launch)];
    const auto found = ranges.find(call.thread);
    if (found == ranges.end()) continue;
    const auto& spans = found->second;
    // Ranges nest, so any range starting before the call may hold it; scan back a few.
    auto it = std::upper_bound(spans.begin(), spans.end(), std::make_pair(call.start_ns, INT64_MAX));
    for (int checked = 0; it != spans.begin() && checked < 64; ++checked) {
      --it;
      if (it->second >= call.start_ns) {
        op.backward = true;
        break;
      }
    }
    graph.backward_from_ranges = graph.backward_from_ranges || op.backward;
  }
}

}  // namespace gpuprof::predict
