#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/rank/rank_analysis.hpp"
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
    import.overwrite = true;  // one trace may be analysed with several option sets
    importers::import_trace(import);
    return analyze_rank(trace::load_trace_model(import.output), options);
  }

  gpuprof::testing::TemporaryFolder folder_;
};

void expect_consistent(const Breakdown& b) {
  EXPECT_LE(b.busy_ns, b.window_ns);
  EXPECT_EQ(b.computation_ns + b.exposed_comm_ns + b.exposed_memcpy_ns, b.busy_ns);
  EXPECT_EQ(b.idle_in_steps_ns + b.batch_gap_ns, b.idle_ns);
}

double idle_share(const Breakdown& b) {
  return b.window_ns > 0 ? static_cast<double>(b.idle_ns) / static_cast<double>(b.window_ns) : 0.0;
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
  for (const auto& gap : serial.gaps) EXPECT_EQ(gap.cause, IdleCause::data_loading);
  EXPECT_GT(mean_steady_gap(serial), 10.0 * mean_steady_gap(parallel));
  expect_consistent(serial.devices[0].total);
  expect_consistent(parallel.devices[0].total);
  // The worse configuration must look worse: the gaps the loader leaves are in the step and in idle.
  const auto& slow = serial.devices[0];
  const auto& fast = parallel.devices[0];
  EXPECT_GT(idle_share(slow.steady), idle_share(fast.steady));
  EXPECT_GT(idle_share(slow.total), idle_share(fast.total));
  EXPECT_GT(slow.average_step_ns(), fast.average_step_ns());
  EXPECT_GT(slow.average_step_ns(), 165e6);  // ~176 ms: 118 ms of work + ~57 ms of loading per step
  EXPECT_LT(fast.average_step_ns(), 145e6);  // ~136 ms
  EXPECT_GT(slow.steady.batch_gap_ns, 4 * fast.steady.batch_gap_ns);
}

TEST_F(ExternalAnalysis, HtaTrainingRankTransfersAndComm) {
  const auto rank = analyze("hta/training_rank0of16.json.gz");
  if (rank.path.empty()) GTEST_SKIP() << "no hta/training_rank0of16.json.gz";
  EXPECT_EQ(rank.rank, 0);
  ASSERT_EQ(rank.devices.size(), 1U);
  expect_consistent(rank.devices[0].total);
  // The projected steps overlap (~159 ms each); the windows must not, so nothing is counted twice.
  AnalysisOptions span_options;
  span_options.window = WindowMode::span;
  const auto span = analyze("hta/training_rank0of16.json.gz", span_options);
  EXPECT_LE(rank.devices[0].total.window_ns, span.devices[0].total.window_ns);
  // Was 337 ms with overlapping windows while all computation kernels together last ~211 ms; only a few
  // microseconds of work before the first step lie outside every window.
  EXPECT_LE(rank.devices[0].total.computation_ns, span.devices[0].total.computation_ns);
  EXPECT_GT(rank.devices[0].total.computation_ns, 0.999 * static_cast<double>(span.devices[0].total.computation_ns));
  for (std::size_t i = 1; i < rank.steps.size(); ++i) EXPECT_GE(rank.steps[i].step.start_ns, rank.steps[i - 1].step.end_ns);
  EXPECT_GT(rank.devices[0].total.total_comm_ns, 0);
  EXPECT_GT(rank.transfers.pageable_host_to_device.count, 0);
  bool has_device_to_device = false;
  for (const auto& kind : rank.transfers.kinds) has_device_to_device |= kind.kind == trace::CopyKind::device_to_device;
  EXPECT_TRUE(has_device_to_device);
}

// Every communication kernel of the HTA NCCL trace is found by a library rule, and is named in the summary.
TEST_F(ExternalAnalysis, HtaNcclKernelsCarryTheirRule) {
  const auto rank = analyze("hta/nccl_data_rank0of2.json.gz");
  if (rank.path.empty()) GTEST_SKIP() << "no hta/nccl_data_rank0of2.json.gz";
  ASSERT_FALSE(rank.kernels.comm_rules.empty());
  for (const auto& row : rank.kernels.comm_rules) {
    EXPECT_EQ(row.rule, "NCCL/RCCL kernel name") << row.name;
    EXPECT_TRUE(row.short_name.starts_with("nccl")) << row.short_name;
  }
}

// The HTA NCCL trace carries collective args on its NCCL kernels: 5 all-reduce sizes and 2 broadcasts, 3 of
// each, over 2 ranks. Totals and sizes were worked out from the JSON independently (ts/dur in us; Float is
// 4 bytes, Long 8); with 2 ranks the bus bandwidth factor is 2(n-1)/n = 1 for all-reduce and 1 for broadcast.
TEST_F(ExternalAnalysis, HtaNcclBusBandwidthPerCollective) {
  const auto rank = analyze("hta/nccl_data_rank0of2.json.gz");
  if (rank.path.empty()) GTEST_SKIP() << "no hta/nccl_data_rank0of2.json.gz";
  const auto& report = rank.collectives;
  EXPECT_EQ(report.rows, 21);
  EXPECT_EQ(report.unmatched + report.ambiguous, 0);
  struct Expected {
    const char* name;
    std::int64_t bytes, total_ns;
  };
  const Expected expected[] = {
      {"all_reduce", 2049000 * 4, 11820962}, {"all_reduce", 2431040 * 4, 5847250},
      {"all_reduce", 6563840 * 4, 10797936}, {"all_reduce", 6637568 * 4, 7214656},
      {"all_reduce", 7875584 * 4, 11081355}, {"broadcast", 53 * 8, 23327},
      {"broadcast", 53120 * 4, 91007}};
  ASSERT_EQ(report.groups.size(), std::size(expected));
  for (std::size_t i = 0; i < report.groups.size(); ++i) {
    const auto& group = report.groups[i];
    SCOPED_TRACE(group.name + " " + std::to_string(group.bytes));
    EXPECT_EQ(group.name, expected[i].name);
    EXPECT_EQ(group.bytes, expected[i].bytes);
    EXPECT_EQ(group.group_size, 2);
    EXPECT_EQ(group.count, 3);
    EXPECT_EQ(group.total_ns, expected[i].total_ns);
    const double algbw = static_cast<double>(expected[i].bytes) * 3.0 / static_cast<double>(expected[i].total_ns);
    ASSERT_TRUE(group.algorithm_gbps && group.bus_gbps);
    EXPECT_NEAR(*group.algorithm_gbps, algbw, algbw * 1e-12);
    EXPECT_NEAR(*group.bus_gbps, algbw, algbw * 1e-12);
  }
  // 26.55 MB all-reduces at 2.40 ms each: 11.04 GB/s.
  EXPECT_NEAR(*report.groups[3].bus_gbps, 11.04, 0.005);
}

// nvprof files store some kernel names mangled; reports show them demangled, with readable short names.
TEST_F(ExternalAnalysis, NvprofNamesAreNeverShownMangled) {
  for (const auto* file : {"nvprof-magma/magma-1.6.1_testing_dgetrf_k20c.nvvp",
                           "nvprof-magma/magma-2.0.2_testing_dgeqrf_k20c.nvvp"}) {
    const auto rank = analyze(file);
    if (rank.path.empty()) continue;
    ASSERT_FALSE(rank.kernels.kernels.empty()) << file;
    for (const auto& row : rank.kernels.kernels) {
      EXPECT_FALSE(row.name.starts_with("_Z")) << row.name;
      EXPECT_FALSE(row.short_name.empty()) << row.name;
      EXPECT_EQ(row.short_name.find('('), std::string::npos) << row.short_name;
    }
  }
}

TEST_F(ExternalAnalysis, DlrmEveryRankCommunicates) {
  const auto folder = gpuprof::testing::external_data_dir() / "dlrm-8rank";
  if (!fs::exists(folder)) GTEST_SKIP() << "no dlrm-8rank";
  std::vector<std::int32_t> ranks;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".gz") continue;
    const auto rank = analyze("dlrm-8rank/" + entry.path().filename().string());
    ranks.push_back(rank.rank);
    // One ProfilerStep per rank: every step is warm-up, and the steady state says it holds them all.
    ASSERT_FALSE(rank.devices.empty());
    EXPECT_TRUE(rank.devices[0].steady_is_all_steps);
    EXPECT_EQ(rank.devices[0].steady, rank.devices[0].total);
    EXPECT_TRUE(std::any_of(rank.notices.begin(), rank.notices.end(),
                            [](const std::string& notice) { return notice.find("warm-up") != std::string::npos; }));
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
