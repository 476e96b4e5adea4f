#include "gpuprof/gui/rank_marks.hpp"

#include <algorithm>
#include <cstdint>

#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {

RankMark rank_mark(const Session& session, std::size_t index) {
  if (session.ranks.size() < 2 || index >= session.ranks.size()) return {};
  const auto& report = session.job.stragglers;
  const std::int32_t rank = session.ranks[index]->analysis.rank;
  RankMark mark;
  if (report.job.slowest_rank == rank) {
    mark.kind = RankMarkKind::slowest;
    mark.text = "slowest";
    mark.label = "slowest";
  }
  const auto& stragglers = report.job.stragglers;
  if (std::find(stragglers.begin(), stragglers.end(), rank) != stragglers.end()) {
    const auto timing = std::find_if(report.ranks.begin(), report.ranks.end(),
                                     [&](const auto& entry) { return entry.rank == rank; });
    std::string text = "straggler";
    if (timing != report.ranks.end()) {
      text += ", " + units::format_duration(static_cast<std::int64_t>(timing->mean_lateness_ns)) + " late";
    }
    mark.text = mark.text.empty() ? text : mark.text + "; " + text;
    mark.label = mark.label.empty() ? "straggler" : mark.label + ", straggler";
    if (mark.kind == RankMarkKind::none) mark.kind = RankMarkKind::straggler;
  }
  return mark;
}

}  // namespace gpuprof::gui
