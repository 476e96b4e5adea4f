#include "job_chrome_trace.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/job/collective_groups.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/progress/counted_loading.hpp"
#include "gpuprof/progress/stage_counter.hpp"
#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

using trace::kUnknown;
using trace::kUnknown32;

// What the file needs of a rank before any of its events is written (the
// header lists every device; times are relative to the job's first instant).
struct RankFacts {
  TraceTracks tracks;
  std::vector<trace::DeviceRow> devices;
  std::optional<std::int64_t> earliest_ns;
  std::int64_t largest_correlation = 0;
  std::optional<std::int32_t> world_size;
  std::string backend;
};

struct JobPlan {
  std::vector<RankPlacement> placements;  // parallel to the job's ranks
  std::vector<std::int64_t> correlation_offsets;
  TraceHeader header;
  std::int64_t base_ns = 0;
  std::vector<std::string> notices;
};

RankFacts facts_of(const trace::TraceModel& model) {
  RankFacts facts;
  facts.tracks = trace_tracks(model, {}, false);
  facts.devices = model.devices;
  facts.earliest_ns = earliest_start(model);
  facts.largest_correlation = largest_correlation(model);
  facts.world_size = model.world_size();
  const auto backend = model.meta.find("distributed_backend");
  if (backend != model.meta.end()) facts.backend = backend->second;
  return facts;
}

// Each rank's devices take the next job device numbers, in rank order.
void number_devices(const std::vector<const RankFacts*>& facts, const std::vector<std::int32_t>& ranks, JobPlan& plan) {
  std::int32_t next = 0;
  for (std::size_t i = 0; i < facts.size(); ++i) {
    auto& placement = plan.placements[i];
    placement.rank = ranks[i];
    for (const auto device : facts[i]->tracks.devices) {
      if (device == kUnknown32) continue;
      placement.device_numbers.emplace(device, next);
      for (auto row : facts[i]->devices) {
        if (row.id != device) continue;
        row.id = next;
        plan.header.devices.push_back(std::move(row));
      }
      ++next;
    }
  }
}

// A rank whose host pid an earlier rank has (ranks in containers, or on other
// hosts) moves past every pid used so far, so each rank keeps its own process.
void place_hosts(const std::vector<const RankFacts*>& facts, const std::vector<std::int32_t>& ranks, JobPlan& plan) {
  std::set<std::int64_t> used;
  for (std::size_t i = 0; i < facts.size(); ++i) {
    auto processes = facts[i]->tracks.host_processes();
    processes.erase(kUnknown);
    const bool clash = std::any_of(processes.begin(), processes.end(), [&](auto pid) { return used.contains(pid); });
    std::int64_t shift = 0;
    if (clash) {
      // Checked: pids come from the trace files, and hostile ones sit at the ends of the range.
      std::int64_t wanted = 0, top = 0;
      if (!__builtin_sub_overflow(*used.rbegin(), *processes.begin(), &wanted) &&
          !__builtin_add_overflow(wanted, 1, &wanted) && !__builtin_add_overflow(*processes.rbegin(), wanted, &top)) {
        shift = wanted;
      } else {
        plan.notices.push_back(fmt::format("rank {}'s host process ids cannot be kept apart from other ranks'; "
                                           "they are drawn together", ranks[i]));
      }
    }
    plan.placements[i].host_pid_shift = shift;
    for (const auto pid : processes) used.insert(pid + shift);
  }
  // GPUs take pids 0, 1, ... as Kineto's do, unless a host process has one of them.
  std::int64_t devices = 0;
  for (const auto& placement : plan.placements) devices += static_cast<std::int64_t>(placement.device_numbers.size());
  const bool clash = std::any_of(used.begin(), used.end(), [&](auto pid) { return pid >= 0 && pid < devices; });
  if (!clash) return;
  std::int64_t offset = 0;
  if (__builtin_add_overflow(*used.rbegin(), 1, &offset)) offset = 0;
  for (auto& placement : plan.placements) placement.device_pid_offset = offset;
}

// Rank r's correlation ids become r·10^k + id, with 10^k above every id of the
// job, so a reader still sees the original id and the rank in it.
void offset_correlations(const std::vector<const RankFacts*>& facts, const std::vector<std::int32_t>& ranks,
                         JobPlan& plan) {
  std::int64_t largest = 0;
  for (const auto* rank : facts) largest = std::max(largest, rank->largest_correlation);
  std::int64_t stride = 10;
  bool fits = true;
  while (fits && stride <= largest) fits = !__builtin_mul_overflow(stride, 10, &stride);
  plan.correlation_offsets.assign(facts.size(), 0);
  for (std::size_t i = 0; i < facts.size() && fits; ++i) {
    std::int64_t top = 0;
    fits = !__builtin_mul_overflow(static_cast<std::int64_t>(ranks[i]) + 1, stride, &top);
    plan.correlation_offsets[i] = static_cast<std::int64_t>(ranks[i]) * stride;
  }
  if (fits) return;
  plan.correlation_offsets.assign(facts.size(), 0);
  plan.notices.push_back("correlation ids are too large to keep the ranks' launches apart; they are written as "
                         "they are, so a re-import may join launches of different ranks");
}

JobPlan plan_job(const job::JobAnalysis& job, const std::map<std::int32_t, RankFacts>& facts_by_rank) {
  std::vector<const RankFacts*> facts;
  std::vector<std::int32_t> ranks;
  for (const auto& rank : job.ranks) {
    facts.push_back(&facts_by_rank.at(rank.analysis.rank));
    ranks.push_back(rank.analysis.rank);
  }
  JobPlan plan;
  plan.placements.resize(facts.size());
  number_devices(facts, ranks, plan);
  place_hosts(facts, ranks, plan);
  offset_correlations(facts, ranks, plan);
  plan.header.world_size = facts.front()->world_size;
  plan.header.backend = facts.front()->backend;
  std::optional<std::int64_t> base;
  for (std::size_t i = 0; i < facts.size(); ++i) {
    if (!facts[i]->earliest_ns) continue;
    const auto aligned = *facts[i]->earliest_ns + job.clocks.offset_of(ranks[i]);
    base = base ? std::min(*base, aligned) : aligned;
  }
  plan.base_ns = base.value_or(0);
  return plan;
}

struct Member {
  std::int64_t aligned_start_ns = 0;
  Track track;
};

// One collective (the same name and ordinal, DESIGN.md) on several ranks: a
// chain of arrows in order of arrival, ending at the member that arrived last,
// the one every other member waited for.
std::int64_t write_collective_arrows(const job::JobAnalysis& job, const JobPlan& plan, std::int64_t& next_id,
                                     EventWriter& writer) {
  writer.set_origin(plan.base_ns);
  std::int64_t arrows = 0;
  for (const auto& [key, group] : job::match_collectives(job.ranks, job.clocks)) {
    std::vector<Member> members;
    std::set<std::size_t> ranks;
    for (const auto& member : group.members) {
      const auto& collective = job.ranks[member.rank].collectives[member.collective];
      const auto track = plan.placements[member.rank].device_track(collective.device, collective.stream);
      if (track.pid == kUnknown) continue;
      members.push_back({member.aligned_start_ns, track});
      ranks.insert(member.rank);
    }
    if (ranks.size() < 2) continue;
    std::stable_sort(members.begin(), members.end(),
                     [](const Member& a, const Member& b) { return a.aligned_start_ns < b.aligned_start_ns; });
    const auto id = next_id++;
    for (std::size_t m = 0; m < members.size(); ++m) {
      const bool last = m + 1 == members.size();
      writer.begin_event(m == 0 ? "s" : last ? "f" : "t", "gpuprof_collective", key.first, members[m].track,
                         members[m].aligned_start_ns);
      writer.number_arg("id", id);
      if (last) writer.string_arg("bp", "e");
      writer.end_event();
    }
    arrows += static_cast<std::int64_t>(members.size()) - 1;
  }
  return arrows;
}

// Where the progress line is while ranks are written: the rank and how many are left.
struct RankProgress {
  const progress::ProgressCallback& callback;
  std::size_t ranks = 0;
  std::string item(const job::RankSummary& rank, std::size_t index) const {
    return fmt::format("rank {}, {} of {}", rank.analysis.rank, index + 1, ranks);
  }
};

void write_rank(const job::RankSummary& rank, const JobPlan& plan, std::size_t index, std::int64_t clock_offset_ns,
                std::int64_t& next_sort_index, std::int64_t& next_flow_id, EventWriter& writer,
                ChromeTraceSummary& summary, const RankProgress& shown) {
  importers::TemporaryStore store;
  const auto trace_path = importers::open_as_trace(rank.input, store, shown.callback);
  const auto model = importers::read_as_input(rank.input, trace_path, [&] {
    return progress::load_counted(trace_path, {}, shown.callback, shown.item(rank, index));
  });
  progress::StageCounter writing(shown.callback, "write", static_cast<std::int64_t>(model.event_count()), "events");
  writing.set_item(shown.item(rank, index));
  writer.count_rows_in(writing.active() ? &writing : nullptr);
  const auto gaps = analysis::gap_rows(rank.analysis.gaps, rank.analysis.rank);
  const ChromeTraceLayout layout(model, trace_tracks(model, gaps, false), plan.placements[index]);
  // The rank's own timestamps land on the reference clock: t + offset − base.
  writer.set_origin(plan.base_ns - clock_offset_ns);
  writer.set_correlation_offset(plan.correlation_offsets[index]);
  next_sort_index = layout.write_metadata(writer, next_sort_index);
  write_rank_events(model, gaps, layout, next_flow_id, writer);
  writer.flush_progress();
  writer.count_rows_in(nullptr);
  writer.set_correlation_offset(0);
  for (auto& warning : analysis::data_loss_warnings(model)) summary.warnings.emplace_back(rank.input, std::move(warning));
}

}  // namespace

ChromeTraceSummary export_job(const std::vector<std::string>& inputs, const ChromeTraceOptions& export_options,
                              JsonOutputFile& file) {
  std::mutex facts_mutex;
  std::map<std::int32_t, RankFacts> facts;
  job::JobOptions options;
  options.analysis.host_summaries = false;  // an export shows none
  options.ranks = export_options.ranks;
  options.progress = export_options.progress;
  options.inspect_model = [&](std::int32_t rank, const trace::TraceModel& model) {
    auto rank_facts = facts_of(model);
    const std::lock_guard lock(facts_mutex);
    facts[rank] = std::move(rank_facts);
  };
  const auto job = job::analyze_job(inputs, options);
  const auto plan = plan_job(job, facts);
  ChromeTraceSummary summary;
  summary.ranks = static_cast<std::int64_t>(job.ranks.size());
  summary.clock_method = std::string(job::to_string(job.clocks.method));
  summary.notices = job.notices;
  summary.notices.insert(summary.notices.end(), plan.notices.begin(), plan.notices.end());
  EventWriter writer(file, plan.base_ns);
  writer.json().StartObject();
  write_trace_header(plan.header, plan.base_ns, writer);
  writer.key("traceEvents");
  writer.json().StartArray();
  std::int64_t next_sort_index = 0, next_flow_id = 1;
  for (std::size_t i = 0; i < job.ranks.size(); ++i) {
    const auto offset = job.clocks.offset_of(job.ranks[i].analysis.rank);
    write_rank(job.ranks[i], plan, i, offset, next_sort_index, next_flow_id, writer, summary,
               {export_options.progress, job.ranks.size()});
  }
  summary.collective_arrows = write_collective_arrows(job, plan, next_flow_id, writer);
  writer.json().EndArray();
  writer.json().EndObject();
  file.Put('\n');
  summary.events = writer.events();
  return summary;
}

}  // namespace gpuprof::exporters
