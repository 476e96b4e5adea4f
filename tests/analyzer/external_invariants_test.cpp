#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>

#include "gpuprof/trace/trace_sorting.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/idle/phase_ranges.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "temporary_folder.hpp"

// The invariants of DESIGN.md ("The analysis vocabulary") on every real trace
// in ../shared/data/external, whatever its format. Skips when the folder is absent.

namespace gpuprof::analysis {
namespace {

namespace fs = std::filesystem;

bool is_trace(const fs::path& path) {
  const auto name = path.filename().string();
  return name.ends_with(".json.gz") || name.ends_with(".json") || name.ends_with(".sqlite") ||
         name.ends_with(".nvvp");
}

std::vector<fs::path> external_traces() {
  std::vector<fs::path> traces;
  const auto root = gpuprof::testing::external_data_dir();
  if (root.empty()) return traces;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && is_trace(entry.path())) traces.push_back(entry.path());
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

// Sums of the lengths of every interval per device: what a union may never exceed.
struct Sums {
  std::int64_t compute = 0, comm = 0, memcpy = 0;
};

std::map<std::int32_t, Sums> interval_sums(const trace::TraceModel& model) {
  const auto categories = KernelClassifier().classify_names(model);
  std::map<std::int32_t, Sums> sums;
  for (std::size_t row = 0; row < model.kernels.size(); ++row) {
    const auto name = model.kernels.name[row];
    const bool comm = name < categories.size() && categories[name] == KernelCategory::communication;
    (comm ? sums[model.kernels.device[row]].comm : sums[model.kernels.device[row]].compute) +=
        model.kernels.end_ns[row] - model.kernels.start_ns[row];
  }
  for (std::size_t row = 0; row < model.memsets.size(); ++row) {
    sums[model.memsets.device[row]].compute += model.memsets.end_ns[row] - model.memsets.start_ns[row];
  }
  for (std::size_t row = 0; row < model.memcpys.size(); ++row) {
    sums[model.memcpys.device[row]].memcpy += model.memcpys.end_ns[row] - model.memcpys.start_ns[row];
  }
  return sums;
}

void expect_parts_add_up(const Breakdown& b) {
  EXPECT_EQ(b.computation_ns + b.exposed_comm_ns + b.exposed_memcpy_ns + b.idle_ns, b.window_ns);
  EXPECT_EQ(b.idle_in_steps_ns + b.batch_gap_ns, b.idle_ns);
  EXPECT_GE(b.idle_ns, 0);
  EXPECT_LE(b.idle_ns, b.window_ns);
  EXPECT_GE(b.idle_in_steps_ns, 0);
  EXPECT_GE(b.batch_gap_ns, 0);
  EXPECT_LE(b.exposed_comm_ns, b.total_comm_ns);
  EXPECT_LE(b.exposed_memcpy_ns, b.total_memcpy_ns);
  // Idle by cause adds up to idle, inside the step and in its batch gap (DESIGN.md, "Idle causes").
  EXPECT_EQ(b.idle_in_steps_causes.total_ns(), b.idle_in_steps_ns);
  EXPECT_EQ(b.batch_gap_causes.total_ns(), b.batch_gap_ns);
  for (const auto* tally : {&b.idle_in_steps_causes, &b.batch_gap_causes}) {
    EXPECT_EQ(std::accumulate(tally->label_ns.begin(), tally->label_ns.end(), std::int64_t{0}), tally->total_ns());
  }
}

void expect_same_activity(const idle::HostActivityDuring& a, const idle::HostActivityDuring& b) {
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, b.end_ns);
  EXPECT_EQ(a.covered_ns, b.covered_ns);
  EXPECT_EQ(a.groups_left_out, b.groups_left_out);
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (std::size_t i = 0; i < a.groups.size(); ++i) {
    EXPECT_EQ(a.groups[i].name, b.groups[i].name);
    EXPECT_EQ(a.groups[i].thread, b.groups[i].thread);
    EXPECT_EQ(a.groups[i].count, b.groups[i].count);
    EXPECT_EQ(a.groups[i].overlap_ns, b.groups[i].overlap_ns);
  }
}

// The host activity of each gap (the app's details of a gap band, the JSON's gaps[].host_activity): within
// the gap, and what a reading of every row finds (the model's host tables reversed: out of order, read whole).
void expect_gap_host_activity(const trace::TraceModel& model) {
  AnalysisOptions options;
  options.keep_idle_intervals = true;
  constexpr std::size_t kLongestIntervals = 20;
  options.interval_host_activity = kLongestIntervals;
  const auto parts = analyze_rank_parts(model, options);
  const auto& rank = parts.analysis;
  ASSERT_EQ(rank.gap_host_activity.size(), rank.gaps.size());
  const StepPattern steps(AnalysisOptions{}.step_pattern);
  trace::TraceModel reversed = model;
  const auto reverse = [](auto& table) {
    std::vector<std::uint32_t> order(table.size());
    std::iota(order.rbegin(), order.rend(), 0U);
    trace::apply_order(table, order);
  };
  reverse(reversed.api_calls), reverse(reversed.syncs), reverse(reversed.ranges), reverse(reversed.thread_states);
  const auto& threads = parts.host->any_device().threads;
  const CorrelationIndex reversed_correlations(reversed.api_calls);
  const idle::HostActivityIndex read_whole(
      reversed, threads, [&](trace::StringId name) { return steps.match(reversed.string(name)).has_value(); },
      idle::pageable_copy_calls(reversed, reversed_correlations), idle::phase_ranges(reversed, reversed_correlations));
  constexpr std::size_t kGapsReadWhole = 40;  // each reads every host row
  for (std::size_t i = 0; i < rank.gaps.size(); ++i) {
    const auto& gap = rank.gaps[i];
    const auto& activity = rank.gap_host_activity[i];
    SCOPED_TRACE("gap after step " + std::to_string(gap.after_step));
    EXPECT_EQ(activity.start_ns, gap.start_ns);
    EXPECT_EQ(activity.end_ns, gap.end_ns);
    EXPECT_GE(activity.covered_ns, 0);
    EXPECT_LE(activity.covered_ns, gap.end_ns - gap.start_ns);
    for (const auto& group : activity.groups) {
      EXPECT_GT(group.overlap_ns, 0);
      // A thread's running time outside calls and ranges is part of what they cover, never more.
      if (group.kind == idle::HostEventKind::thread_running) EXPECT_LE(group.overlap_ns, activity.covered_ns);
    }
    if (i < kGapsReadWhole) expect_same_activity(activity, read_whole.during(gap.start_ns, gap.end_ns));
  }
  // The longest intervals, and only they, have theirs.
  ASSERT_EQ(rank.interval_host_activity.size(), std::min(kLongestIntervals, rank.idle_intervals.size()));
  std::int64_t shortest_with = std::numeric_limits<std::int64_t>::max(), longest_without = 0;
  for (std::size_t i = 0; i < rank.idle_intervals.size(); ++i) {
    const auto& interval = rank.idle_intervals[i];
    const auto length = interval.end_ns - interval.start_ns;
    const auto found = rank.interval_host_activity.find(i);
    if (found == rank.interval_host_activity.end()) {
      longest_without = std::max(longest_without, length);
      continue;
    }
    shortest_with = std::min(shortest_with, length);
    EXPECT_LE(found->second.covered_ns, length);
    // The thread an interval is judged by launched the work ending it: one of the issuing threads.
    if (const auto thread = found->second.launched_by_thread) {
      EXPECT_TRUE(std::find(threads.begin(), threads.end(), *thread) != threads.end()) << *thread;
    }
    expect_same_activity(found->second, read_whole.during(interval.start_ns, interval.end_ns));
  }
  EXPECT_LE(longest_without, shortest_with);
}

// Ranges enclosing their phase (idle/phase_ranges.hpp): the same whatever the row order; each holds launch
// calls of two or more pieces of GPU work; the range of its thread that holds it next is one too. Returns how
// many there are.
std::size_t expect_phase_ranges(const trace::TraceModel& model) {
  const auto phases = idle::phase_ranges(model, CorrelationIndex(model.api_calls));
  trace::TraceModel reversed = model;
  const auto reverse = [](auto& table) {
    std::vector<std::uint32_t> order(table.size());
    std::iota(order.rbegin(), order.rend(), 0U);
    trace::apply_order(table, order);
  };
  reverse(reversed.api_calls), reverse(reversed.ranges);
  const auto phases_reversed = idle::phase_ranges(reversed, CorrelationIndex(reversed.api_calls));
  const auto& ranges = model.ranges;
  EXPECT_EQ(phases.size(), ranges.size());
  for (std::size_t row = 0; row < phases.size(); ++row) {
    EXPECT_EQ(phases[row], phases_reversed[phases.size() - 1 - row]) << "range row " << row;
  }
  const CorrelationIndex correlations(model.api_calls);
  std::vector<std::int64_t> calls;
  for (const auto* table : {static_cast<const trace::GpuColumns*>(&model.kernels),
                            static_cast<const trace::GpuColumns*>(&model.memcpys),
                            static_cast<const trace::GpuColumns*>(&model.memsets)}) {
    for (std::size_t row = 0; row < table->size(); ++row) {
      const auto api_row = correlations.api_row(table->correlation_id[row]);
      if (api_row != CorrelationIndex::kNone) calls.push_back(model.api_calls.start_ns[api_row]);
    }
  }
  std::sort(calls.begin(), calls.end());
  calls.erase(std::unique(calls.begin(), calls.end()), calls.end());
  constexpr std::size_t kHoldersChecked = 200;  // each reads every range
  std::size_t count = 0;
  for (std::size_t row = 0; row < phases.size(); ++row) {
    if (!phases[row]) continue;
    const auto start = ranges.start_ns[row], end = ranges.end_ns[row];
    EXPECT_GE(std::lower_bound(calls.begin(), calls.end(), end) - std::lower_bound(calls.begin(), calls.end(), start), 2)
        << "phase range row " << row;
    if (count++ >= kHoldersChecked) continue;
    std::optional<std::size_t> holder;
    for (std::size_t other = 0; other < ranges.size(); ++other) {
      if (other == row || ranges.on_gpu[other] != 0 || ranges.thread_id[other] != ranges.thread_id[row]) continue;
      const bool holds = ranges.start_ns[other] <= start && ranges.end_ns[other] >= end &&
                         (ranges.start_ns[other] < start || ranges.end_ns[other] > end || other < row);
      if (holds && (!holder || ranges.end_ns[other] - ranges.start_ns[other] <
                                   ranges.end_ns[*holder] - ranges.start_ns[*holder])) {
        holder = other;
      }
    }
    if (holder) EXPECT_TRUE(phases[*holder]) << "range row " << *holder << " holds phase range row " << row;
  }
  return count;
}

void expect_invariants(const trace::TraceModel& model) {
  const auto rank = analyze_rank(model, AnalysisOptions{});
  AnalysisOptions span_options;
  span_options.window = WindowMode::span;
  const auto span = analyze_rank(model, span_options);
  const auto sums = interval_sums(model);
  ASSERT_EQ(rank.devices.size(), span.devices.size());
  for (std::size_t i = 0; i < rank.devices.size(); ++i) {
    const auto& device = rank.devices[i];
    SCOPED_TRACE("device " + std::to_string(device.device));
    expect_parts_add_up(device.total);
    expect_parts_add_up(device.steady);
    EXPECT_LE(device.total.window_ns, span.devices[i].total.window_ns);  // sum of windows <= span
    const auto found = sums.find(device.device);
    ASSERT_NE(found, sums.end());
    EXPECT_LE(device.total.computation_ns, found->second.compute);
    EXPECT_LE(device.total.total_comm_ns, found->second.comm);
    EXPECT_LE(device.total.total_memcpy_ns, found->second.memcpy);
    EXPECT_TRUE(device.steps == 0 || device.steady_steps > 0);  // the steady state is never empty
    Breakdown summed;
    std::int64_t previous_end = std::numeric_limits<std::int64_t>::min();
    for (const auto& entry : rank.steps) {
      if (entry.step.device != device.device) continue;
      expect_parts_add_up(entry.breakdown);
      EXPECT_LE(entry.step.start_ns, entry.step.end_ns);
      EXPECT_GE(entry.step.start_ns, previous_end) << "windows overlap at step " << entry.step.step;
      previous_end = entry.step.end_ns;
      summed += entry.breakdown;
    }
    if (device.source == WindowSource::steps) {
      EXPECT_EQ(summed, device.total);
    }
  }
  for (const auto& gap : rank.gaps) {
    EXPECT_GT(gap.idle_ns, 0);
    EXPECT_LE(gap.idle_ns, gap.end_ns - gap.start_ns);
    EXPECT_EQ(idle::total_of(gap.causes), gap.idle_ns);
    EXPECT_TRUE(gap.cause == IdleCause::mixed || 2 * idle::judge(gap.causes).covered_ns >= gap.idle_ns);
  }
}

TEST(ExternalInvariants, HoldOnEveryRealTrace) {
  const auto traces = external_traces();
  if (traces.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  int analysed = 0, malformed_inputs = 0;
  for (const auto& path : traces) {
    SCOPED_TRACE(path.string());
    // Malformed inputs must fail with a clear error or analyse consistently; every other trace must analyse.
    const bool malformed = path.parent_path().filename() == "malformed";
    malformed_inputs += malformed ? 1 : 0;
    try {
      importers::ImportOptions import;
      import.input = path.string();
      import.output = folder.file(path.filename().string() + ".gpuprof.sqlite");
      importers::import_trace(import);
      const auto model = trace::load_trace_model(import.output);
      expect_invariants(model);
      expect_gap_host_activity(model);
      const auto phases = expect_phase_ranges(model);
      ++analysed;
      std::printf("analysed %s: %zu kernels, %zu copies, %zu ranges enclosing their phase\n",
                  path.filename().c_str(), model.kernels.size(), model.memcpys.size(), phases);
    } catch (const TraceError& error) {
      EXPECT_TRUE(malformed) << error.what();
    }
  }
  EXPECT_GE(analysed, static_cast<int>(traces.size()) - malformed_inputs);
}

}  // namespace
}  // namespace gpuprof::analysis
