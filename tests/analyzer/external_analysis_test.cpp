#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/analysis/rank_analysis.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "temporary_folder.hpp"

// Analyses of real traces recorded by others (../shared/data/external), through
// the Kineto importer. Skips when the folder is absent.

namespace gpuprof::analysis {
namespace {

namespace fs = std::filesystem;

class ExternalAnalysis : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpuprof::testing::external_data_dir().empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  }
  RankAnalysis analyze(const std::string& relative, const AnalysisOptions& options = {}) {
    const auto input = gpuprof::testing::external_data_dir() / relative;
    if (!fs::exists(input)) return {};
    importers::ImportOptions import;
    import.input = input.string();
    import.output = folder_.file(input.filename().string() + ".sqlite");
    importers::import_trace(import);
    return analyze_rank(trace::load_trace_model(import.output), options);
  }

  gpuprof::testing::TemporaryFolder folder_;
};

void expect_consistent(const Breakdown& b) {
  EXPECT_LE(b.busy_ns, b.window_ns);
  EXPECT_EQ(b.computation_ns + b.exposed_comm_ns + b.exposed_memcpy_ns, b.busy_ns);
}

double mean_steady_gap(const RankAnalysis& rank) {
  std::int64_t total = 0, count = 0;
  for (const auto& gap : rank.gaps) {
    if (gap.after_warmup) continue;
    total += gap.end_ns - gap.start_ns;
    ++count;
  }
  return count ? static_cast<double>(total) / static_cast<double>(count) : 0.0;
}

// The kineto tb_plugin sample: without loader workers the GPU waits for every
// batch; with 4 workers loading is hidden.
TEST_F(ExternalAnalysis, ResNetDataLoaderGapsShrinkWithWorkers) {
  const auto serial = analyze("kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz");
  const auto parallel = analyze("kineto-resnet50/resnet50_num_workers_4.pt.trace.json.gz");
  ASSERT_EQ(serial.devices.size(), 1U);
  EXPECT_EQ(serial.devices[0].source, WindowSource::steps);
  EXPECT_EQ(serial.devices[0].steps, 6);
  ASSERT_EQ(serial.gaps.size(), 5U);
  for (const auto& gap : serial.gaps) EXPECT_EQ(gap.cause, GapCause::data_loading);
  EXPECT_GT(mean_steady_gap(serial), 10.0 * mean_steady_gap(parallel));
  expect_consistent(serial.devices[0].total);
  expect_consistent(parallel.devices[0].total);
}

TEST_F(ExternalAnalysis, HtaTrainingRankTransfersAndComm) {
  const auto rank = analyze("hta/training_rank0of16.json.gz");
  EXPECT_EQ(rank.rank, 0);
  ASSERT_EQ(rank.devices.size(), 1U);
  expect_consistent(rank.devices[0].total);
  EXPECT_GT(rank.devices[0].total.total_comm_ns, 0);
  EXPECT_GT(rank.transfers.pageable_host_to_device.count, 0);
  bool has_device_to_device = false;
  for (const auto& kind : rank.transfers.kinds) has_device_to_device |= kind.kind == trace::CopyKind::device_to_device;
  EXPECT_TRUE(has_device_to_device);
}

TEST_F(ExternalAnalysis, DlrmEveryRankCommunicates) {
  const auto folder = gpuprof::testing::external_data_dir() / "dlrm-8rank";
  if (!fs::exists(folder)) GTEST_SKIP() << "no dlrm-8rank";
  std::vector<std::int32_t> ranks;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".gz") continue;
    const auto rank = analyze("dlrm-8rank/" + entry.path().filename().string());
    ranks.push_back(rank.rank);
    std::int64_t comm = 0;
    for (const auto& device : rank.devices) {
      expect_consistent(device.total);
      comm += device.total.total_comm_ns;
    }
    EXPECT_GT(comm, 0) << entry.path();
  }
  std::sort(ranks.begin(), ranks.end());
  EXPECT_EQ(ranks, (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

}  // namespace
}  // namespace gpuprof::analysis
