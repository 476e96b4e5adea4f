// Records gpu_record_workload under `gpuprof record` and checks the trace against
// what the program is known to have done. Needs a GPU; skips without one.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <string_view>

#include "gpuprof/launcher/child_process.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;
using trace::CopyKind;
using trace::MemoryKind;

// The API call behind a `<<<>>>` launch: cudaLaunchKernel…, or, with nvcc 13,
// __cudaLaunchKernel (CUPTI's __cudaLaunchKernel_v13000, stored without the suffix).
bool is_kernel_launch(std::string_view api) {
  return api.starts_with("cudaLaunchKernel") || api.starts_with("__cudaLaunchKernel");
}

std::size_t count_named(const trace::TraceModel& model, const std::string& name) {
  return static_cast<std::size_t>(std::count_if(model.kernels.name.begin(), model.kernels.name.end(),
                                                [&](trace::StringId id) { return model.string(id) == name; }));
}

class GpuRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists("/dev/nvidia0") && !fs::exists("/dev/nvidiactl")) GTEST_SKIP() << "no NVIDIA GPU on this machine";
    const auto result = launcher::run_child({GPUPROF_BINARY, "record", "-o", trace_path_, "--", GPU_WORKLOAD_BINARY,
                                             folder_.file("expectations.txt")},
                                            {});
    ASSERT_EQ(result.exit_code, 0) << "the workload failed under gpuprof record";
    ASSERT_TRUE(fs::exists(trace_path_));
    model_ = trace::load_trace_model(trace_path_);
    peer_copies_ = gpuprof::testing::read_file(folder_.file("expectations.txt")) == "peer_copies=1\n" ? 1 : 0;
  }

  gpuprof::testing::TemporaryFolder folder_;
  std::string trace_path_ = folder_.file("gpu.sqlite");
  trace::TraceModel model_;
  int peer_copies_ = 0;
};

TEST_F(GpuRecordTest, KernelsAreCountedExactlyWithGraphNodes) {
  EXPECT_EQ(count_named(model_, "fill_kernel"), 3u);
  EXPECT_EQ(count_named(model_, "scale_kernel"), 2u);
  EXPECT_EQ(count_named(model_, "graph_kernel"), 4u);
  for (std::size_t i = 0; i < model_.kernels.size(); ++i) {
    const bool in_graph = model_.string(model_.kernels.name[i]) == "graph_kernel";
    EXPECT_EQ(model_.kernels.graph_node_id[i] != trace::kUnknown, in_graph) << model_.string(model_.kernels.name[i]);
  }
}

TEST_F(GpuRecordTest, CopiesAndMemsetHaveTheirKindsAndSizes) {
  std::multiset<std::tuple<CopyKind, MemoryKind, MemoryKind, std::int64_t>> copies;
  const auto& m = model_.memcpys;
  for (std::size_t i = 0; i < m.size(); ++i) {
    copies.insert({m.copy_kind[i], m.src_memory_kind[i], m.dst_memory_kind[i], m.bytes[i]});
  }
  std::multiset<std::tuple<CopyKind, MemoryKind, MemoryKind, std::int64_t>> expected = {
      {CopyKind::host_to_device, MemoryKind::pageable, MemoryKind::device, 1 << 20},
      {CopyKind::host_to_device, MemoryKind::pinned, MemoryKind::device, 2 << 20},
      {CopyKind::device_to_device, MemoryKind::device, MemoryKind::device, 512 << 10},
      {CopyKind::device_to_host, MemoryKind::device, MemoryKind::pinned, 2 << 20}};
  if (peer_copies_) expected.insert({CopyKind::peer_to_peer, MemoryKind::device, MemoryKind::device, 1 << 20});
  EXPECT_EQ(copies, expected);
  ASSERT_EQ(model_.memsets.size(), 1u);
  EXPECT_EQ(model_.memsets.bytes[0], 256 << 10);
}

TEST_F(GpuRecordTest, EveryGpuActivityLinksToTheApiCallThatLaunchedIt) {
  std::map<std::int64_t, std::string> api_by_correlation;
  for (std::size_t i = 0; i < model_.api_calls.size(); ++i) {
    api_by_correlation[model_.api_calls.correlation_id[i]] = std::string(model_.string(model_.api_calls.name[i]));
  }
  for (std::size_t i = 0; i < model_.kernels.size(); ++i) {
    const auto found = api_by_correlation.find(model_.kernels.correlation_id[i]);
    ASSERT_NE(found, api_by_correlation.end());
    const bool in_graph = model_.string(model_.kernels.name[i]) == "graph_kernel";
    if (in_graph) {
      EXPECT_TRUE(found->second.starts_with("cudaGraphLaunch")) << found->second;
    } else {
      EXPECT_TRUE(is_kernel_launch(found->second)) << found->second;
    }
  }
  for (std::size_t i = 0; i < model_.memcpys.size(); ++i) {
    EXPECT_TRUE(api_by_correlation.count(model_.memcpys.correlation_id[i]));
  }
}

// Runs without a GPU: the launch names the test above accepts, and what it refuses.
TEST(GpuRecordLaunchNames, BothRuntimeLaunchEntryPointsAreKernelLaunches) {
  EXPECT_TRUE(is_kernel_launch("cudaLaunchKernel"));
  EXPECT_TRUE(is_kernel_launch("cudaLaunchKernel_ptsz"));
  EXPECT_TRUE(is_kernel_launch("__cudaLaunchKernel"));
  EXPECT_FALSE(is_kernel_launch("cudaMemcpyAsync"));
  EXPECT_FALSE(is_kernel_launch("cudaGraphLaunch"));
  EXPECT_FALSE(is_kernel_launch("_cudaLaunchKernel"));
}

TEST_F(GpuRecordTest, NvtxRangesInTwoDomainsAndSyncs) {
  std::map<std::string, std::string> domain_by_range;
  for (std::size_t i = 0; i < model_.ranges.size(); ++i) {
    const auto domain = model_.ranges.domain[i];
    domain_by_range[std::string(model_.string(model_.ranges.name[i]))] =
        domain == trace::kNoString ? "" : std::string(model_.string(domain));
  }
  EXPECT_EQ(domain_by_range.at("outer"), "");
  EXPECT_EQ(domain_by_range.at("inner_io"), "gpuprof_test");
  std::set<trace::SyncType> types(model_.syncs.type.begin(), model_.syncs.type.end());
  EXPECT_TRUE(types.count(trace::SyncType::stream));
  EXPECT_TRUE(types.count(trace::SyncType::event));
}

TEST_F(GpuRecordTest, NothingWasDroppedAndTheMetadataIsComplete) {
  std::map<std::string, std::int64_t> stats;
  for (const auto& stat : trace::TraceFile(trace_path_).stats()) stats[stat.name] = stat.value;
  EXPECT_EQ(stats.at("dropped_records"), 0);
  EXPECT_EQ(stats.count("buffer_requests_refused") ? stats.at("buffer_requests_refused") : 0, 0);
  EXPECT_EQ(model_.meta.at("source_format"), "collector");
  for (const char* key : {"host_name", "pid", "command_line", "start_ns", "end_ns", "clock_calibration"}) {
    EXPECT_TRUE(model_.meta.count(key)) << key;
  }
  EXPECT_FALSE(model_.devices.empty());
}

}  // namespace
}  // namespace gpuprof
