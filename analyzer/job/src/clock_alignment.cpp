#include "gpuprof/job/clock_alignment.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::job {
namespace {

struct Estimate {
  std::int64_t offset_ns = 0, spread_ns = 0, matched = 0;
};

// The median resists the few collectives that end late on one rank (a
// preempted kernel); the spread tells the reader how much to trust it.
Estimate summarize(std::vector<std::int64_t> values) {
  if (values.empty()) return {};
  const auto [smallest, largest] = std::minmax_element(values.begin(), values.end());
  const auto spread = *largest - *smallest;
  return {units::whole_median(values), spread, static_cast<std::int64_t>(values.size())};
}

// realtime − trace time per pair; empty when the pairs disagree.
std::optional<Estimate> calibration_estimate(const RankSummary& rank) {
  std::vector<std::int64_t> offsets;
  for (const auto& pair : rank.calibration) offsets.push_back(pair.realtime_ns - pair.trace_ns);
  if (offsets.empty()) return std::nullopt;
  auto estimate = summarize(offsets);
  if (estimate.spread_ns > kCalibrationToleranceNs) return std::nullopt;
  return estimate;
}

std::optional<ClockAlignment> align_by_calibration(const std::vector<RankSummary>& ranks) {
  std::vector<Estimate> estimates;
  for (const auto& rank : ranks) {
    const auto estimate = calibration_estimate(rank);
    if (!estimate) return std::nullopt;
    estimates.push_back(*estimate);
  }
  ClockAlignment result;
  result.method = ClockMethod::calibration;
  result.reference_rank = ranks.front().analysis.rank;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    result.offsets.push_back({ranks[i].analysis.rank, estimates[i].offset_ns - estimates.front().offset_ns,
                              ClockMethod::calibration, estimates[i].matched, estimates[i].spread_ns});
  }
  return result;
}

struct End {
  std::int64_t end_ns = 0, length_ns = 0;
};

// End time (and length) of every collective of a rank that may be matched across ranks
// (collective_groups.hpp), keyed by (name, ordinal), on the lowest device that runs that collective: all
// devices of a process share a clock.
std::map<std::pair<std::string, std::int64_t>, End> collective_ends(const RankSummary& rank, bool whole_world) {
  std::map<std::pair<std::string, std::int64_t>, End> ends;
  for (const auto& collective : rank.collectives) {
    if (!matchable_across_ranks(collective, whole_world)) continue;
    ends.try_emplace({collective.name, collective.ordinal},
                     End{collective.end_ns, collective.end_ns - collective.start_ns});
  }
  return ends;
}

ClockAlignment align_by_collectives(const std::vector<RankSummary>& ranks) {
  ClockAlignment result;
  result.method = ClockMethod::collectives;
  result.reference_rank = ranks.front().analysis.rank;
  const bool whole_world = holds_whole_world(ranks);
  const auto reference = collective_ends(ranks.front(), whole_world);
  bool any_matched = false;
  for (const auto& rank : ranks) {
    const bool is_reference = rank.analysis.rank == result.reference_rank;
    std::vector<std::int64_t> differences;
    std::int64_t longest = 0;
    for (const auto& [key, end] : collective_ends(rank, whole_world)) {
      const auto found = reference.find(key);
      if (found == reference.end()) continue;
      differences.push_back(found->second.end_ns - end.end_ns);
      longest = std::max({longest, found->second.length_ns, end.length_ns});
    }
    const auto estimate = summarize(differences);
    // One collective ends at nearly the same instant everywhere: estimates further apart than the kernels
    // last cannot all come from one collective each.
    if (!is_reference && estimate.spread_ns > longest) {
      result.notices.push_back(fmt::format(
          "rank {}'s clock offset from rank {} varies by {} over its {} matched collectives, more than the "
          "kernels last ({} at most): they may not be the same collectives, and the offset is doubtful",
          rank.analysis.rank, result.reference_rank, units::format_duration(estimate.spread_ns), estimate.matched,
          units::format_duration(longest)));
    }
    const auto method = estimate.matched > 0 ? ClockMethod::collectives : ClockMethod::none;
    // The reference is on its own clock by definition: only the other ranks can lack a match with it.
    if (!is_reference && method == ClockMethod::none) {
      result.notices.push_back(fmt::format("rank {} shares no collective with rank {}; its clock is taken as is",
                                           rank.analysis.rank, result.reference_rank));
    }
    if (!is_reference && method != ClockMethod::none) any_matched = true;
    result.offsets.push_back({rank.analysis.rank, estimate.offset_ns, method, estimate.matched, estimate.spread_ns});
  }
  if (!any_matched) result.method = ClockMethod::none;
  return result;
}

}  // namespace

std::string_view to_string(ClockMethod method) {
  switch (method) {
    case ClockMethod::single_rank: return "single rank";
    case ClockMethod::calibration: return "calibration pairs";
    case ClockMethod::collectives: return "matched collectives";
    case ClockMethod::none: return "none (clocks taken as shared)";
  }
  return "none";
}

std::int64_t ClockAlignment::offset_of(std::int32_t rank) const {
  for (const auto& entry : offsets) {
    if (entry.rank == rank) return entry.offset_ns;
  }
  return 0;
}

ClockAlignment align_clocks(const std::vector<RankSummary>& ranks) {
  if (ranks.size() <= 1) {
    ClockAlignment single;
    if (!ranks.empty()) {
      single.reference_rank = ranks.front().analysis.rank;
      single.offsets.push_back({single.reference_rank, 0, ClockMethod::single_rank, 0, 0});
    }
    return single;
  }
  if (auto calibrated = align_by_calibration(ranks)) return std::move(*calibrated);
  auto matched = align_by_collectives(ranks);
  const bool any_pairs = std::any_of(ranks.begin(), ranks.end(), [](const RankSummary& rank) {
    return !rank.calibration.empty();
  });
  if (any_pairs) {
    matched.notices.insert(matched.notices.begin(), "clock calibration pairs are missing or inconsistent on some "
                                                    "ranks; aligned by matching collectives instead");
  }
  if (matched.method == ClockMethod::none) {
    matched.notices.push_back("no way to align rank clocks (no calibration pairs, no shared collectives); "
                              "they are taken as one clock");
  }
  return matched;
}

}  // namespace gpuprof::job
