#include <algorithm>
#include <tuple>
#include <vector>

#include "gpuprof/report/report_model.hpp"
#include "json_fields.hpp"
#include "json_idle.hpp"

namespace gpuprof::report {
namespace {

using json::field;
using json::key;

struct RankedInterval {
  const analysis::RankAnalysis* analysis = nullptr;
  const idle::IdleInterval* interval = nullptr;
  std::int32_t rank() const { return analysis->rank; }
  std::int64_t length() const { return interval->end_ns - interval->start_ns; }
};

// Every kept interval, longest first (ties in rank, device and time order, so the cut is reproducible).
std::vector<RankedInterval> longest_first(const ReportInput& input) {
  std::vector<RankedInterval> all;
  for (const auto& rank : input.ranks) {
    for (const auto& interval : rank.idle_intervals) all.push_back({&rank, &interval});
  }
  std::stable_sort(all.begin(), all.end(), [](const RankedInterval& a, const RankedInterval& b) {
    return std::make_tuple(-a.length(), a.rank(), a.interval->device, a.interval->start_ns) <
           std::make_tuple(-b.length(), b.rank(), b.interval->device, b.interval->start_ns);
  });
  return all;
}

// Whether the analyses kept every interval their tallies count (RankAnalysis::idle_intervals is filled on
// request only).
bool every_interval_kept(const ReportInput& input, std::size_t kept) {
  std::int64_t counted = 0;
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      counted += device.total.idle_in_steps_causes.intervals + device.total.batch_gap_causes.intervals;
    }
  }
  return counted == static_cast<std::int64_t>(kept);
}

void write_row(JsonWriter& w, const RankedInterval& entry) {
  const auto& interval = *entry.interval;
  const auto verdict = idle::judge(interval.causes);
  w.StartObject();
  field(w, "rank", std::int64_t{entry.rank()});
  field(w, "device", std::int64_t{interval.device});
  field(w, "step", interval.step);
  field(w, "part", std::string_view(interval.in_gap ? "batch_gap" : "in_step"));
  field(w, "start_ns", interval.start_ns);
  field(w, "end_ns", interval.end_ns);
  field(w, "idle_ns", entry.length());
  field(w, "cause", idle::to_string(verdict.label));
  field(w, "covered_ns", verdict.covered_ns);
  field(w, "coverage", entry.length() > 0 ? static_cast<double>(verdict.covered_ns) / static_cast<double>(entry.length())
                                          : 0.0);
  // The covering causes, largest first (ties in cause order): for `mixed`, what it is made of.
  std::vector<std::pair<std::int64_t, std::size_t>> causes;
  for (std::size_t i = 0; i < interval.causes.size(); ++i) {
    if (interval.causes[i] > 0) causes.emplace_back(-interval.causes[i], i);
  }
  std::sort(causes.begin(), causes.end());
  key(w, "causes");
  w.StartArray();
  for (const auto& [negative_ns, cause] : causes) {
    w.StartObject();
    field(w, "cause", idle::to_string(static_cast<idle::IdleCause>(cause)));
    field(w, "idle_ns", -negative_ns);
    w.EndObject();
  }
  w.EndArray();
  const auto index = static_cast<std::size_t>(entry.interval - entry.analysis->idle_intervals.data());
  if (const auto found = entry.analysis->interval_host_activity.find(index);
      found != entry.analysis->interval_host_activity.end()) {
    write_host_activity(w, found->second);
  }
  w.EndObject();
}

}  // namespace

void write_idle_intervals(JsonWriter& w, const ReportInput& input) {
  const auto all = longest_first(input);
  const auto listed = input.max_intervals == 0 ? all.size() : std::min(all.size(), input.max_intervals);
  std::int64_t total_ns = 0, omitted_ns = 0;
  for (std::size_t i = 0; i < all.size(); ++i) (i < listed ? total_ns : omitted_ns) += all[i].length();
  total_ns += omitted_ns;
  key(w, "idle_intervals");
  w.StartObject();
  key(w, "kept"), w.Bool(every_interval_kept(input, all.size()));
  field(w, "order", std::string_view("longest first"));
  field(w, "limit", static_cast<std::int64_t>(input.max_intervals));
  field(w, "total", static_cast<std::int64_t>(all.size()));
  field(w, "total_ns", total_ns);
  field(w, "listed", static_cast<std::int64_t>(listed));
  field(w, "omitted", static_cast<std::int64_t>(all.size() - listed));
  field(w, "omitted_ns", omitted_ns);
  key(w, "rows");
  w.StartArray();
  for (std::size_t i = 0; i < listed; ++i) write_row(w, all[i]);
  w.EndArray();
  w.EndObject();
}

}  // namespace gpuprof::report
