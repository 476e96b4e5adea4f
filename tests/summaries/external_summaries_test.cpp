// The summaries' invariants on every real trace in ../shared/data/external:
// shares add up to 100 %, instances add up to the table's rows, the launch queue
// counts every kernel with a known call once and never goes below zero.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/launch_stats.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/summaries/host_summaries.hpp"
#include "gpuprof/summaries/launch_queue.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::summaries {
namespace {

namespace fs = std::filesystem;

std::int64_t instances(const std::vector<NamedDurations>& rows) {
  std::int64_t total = 0;
  double percent = 0;
  for (const auto& row : rows) total += row.stats.instances, percent += row.percent;
  if (!rows.empty()) {
    EXPECT_NEAR(percent, 100.0, 1e-6);
  }
  return total;
}

// From the first launch call to the last kernel start: every wait lies inside it.
std::int64_t launch_span(const trace::TraceModel& model) {
  if (model.kernels.size() == 0 || model.api_calls.size() == 0) return 0;
  const auto& calls = model.api_calls.start_ns;
  const auto& starts = model.kernels.start_ns;
  return *std::max_element(starts.begin(), starts.end()) - *std::min_element(calls.begin(), calls.end());
}

void expect_invariants(const trace::TraceModel& model) {
  std::int64_t host_ranges = 0;
  for (std::size_t row = 0; row < model.ranges.size(); ++row) host_ranges += model.ranges.on_gpu[row] == 0;
  EXPECT_EQ(instances(range_summary(model)), host_ranges);
  EXPECT_EQ(instances(api_summary(model)), static_cast<std::int64_t>(model.api_calls.size()));
  const analysis::CorrelationIndex index(model.api_calls);
  const auto latency = launch_latency_by_kernel(model, index);
  std::int64_t queued = 0;
  for (const auto& queue : launch_queues(model, index)) {
    queued += queue.kernels;
    EXPECT_GE(queue.mean_depth, 0);
    EXPECT_LE(queue.mean_depth, static_cast<double>(queue.max_depth));
    EXPECT_GE(queue.share_empty, 0);
    EXPECT_LE(queue.share_empty, 1);
    std::int64_t deepest = 0;
    for (std::size_t i = 0; i < queue.series.size(); ++i) {
      EXPECT_GE(queue.series[i].depth, 0);
      if (i > 0) {
        EXPECT_LT(queue.series[i - 1].time_ns, queue.series[i].time_ns);
      }
      deepest = std::max(deepest, queue.series[i].depth);
    }
    EXPECT_LE(queue.series.size(), 2000u);
    if (!queue.series.empty()) {
      EXPECT_EQ(queue.series.back().depth, 0);
      EXPECT_EQ(deepest, queue.max_depth);  // thinning keeps every slice's deepest point
    }
  }
  EXPECT_EQ(instances(latency), queued);
  EXPECT_LE(queued, static_cast<std::int64_t>(model.kernels.size()));
  // One definition of a launch: the per-device table counts what the per-kernel table and the queue count.
  std::int64_t per_device = 0;
  for (const auto& device : analysis::analyze_launches(model, index)) per_device += device.delay.instances;
  EXPECT_EQ(per_device, queued);
  const auto span = launch_span(model);
  for (const auto& row : latency) {
    EXPECT_GE(row.stats.min_ns, 0);
    EXPECT_LE(row.stats.total_ns, span) << row.name;  // a total a reader can add up within the trace
  }
}

TEST(ExternalSummaries, HoldOnEveryRealTrace) {
  const auto root = gpuprof::testing::external_data_dir();
  if (root.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  int analysed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto name = entry.path().filename().string();
    if (!entry.is_regular_file() || entry.path().parent_path().filename() == "malformed") continue;
    if (!name.ends_with(".json.gz") && !name.ends_with(".json") && !name.ends_with(".sqlite") &&
        !name.ends_with(".nvvp")) {
      continue;
    }
    SCOPED_TRACE(entry.path().string());
    try {
      importers::ImportOptions import;
      import.input = entry.path().string();
      import.output = folder.file(name + ".gpuprof.sqlite");
      importers::import_trace(import);
      expect_invariants(trace::load_trace_model(import.output));
      ++analysed;
    } catch (const TraceError& error) {
      ADD_FAILURE() << error.what();
    }
  }
  EXPECT_GT(analysed, 0);
}

}  // namespace
}  // namespace gpuprof::summaries
