#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::synthetic {
namespace {

using trace::CopyKind;
using trace::MemoryKind;

// Every row of every event table as text, in file order: equal dumps mean equal traces.
std::string dump_events(const std::string& path) {
  trace::TraceFile file(path);
  std::string text;
  for (const char* table : {"strings", "devices", "device_links", "kernels", "memcpys", "memsets", "api_calls",
                            "syncs", "ranges", "collector_stats"}) {
    sqlite::Statement query(file.database(), std::string("SELECT * FROM ") + table);
    while (query.step()) {
      for (int column = 0; column < sqlite3_column_count(query.raw()); ++column) {
        text += query.is_null(column) ? "NULL" : std::string(query.column_text(column));
        text += '|';
      }
      text += '\n';
    }
  }
  return text;
}

TEST(SyntheticTrace, SameSeedGivesTheSameTrace) {
  testing::TemporaryFolder folder;
  SynthOptions options{.devices = 3, .steps = 6, .seed = 42};
  write_synthetic_trace(folder.file("a.sqlite"), options);
  write_synthetic_trace(folder.file("b.sqlite"), options);
  options.seed = 43;
  write_synthetic_trace(folder.file("c.sqlite"), options);
  const auto a = dump_events(folder.file("a.sqlite"));
  EXPECT_EQ(a, dump_events(folder.file("b.sqlite")));
  EXPECT_NE(a, dump_events(folder.file("c.sqlite")));
}

class SyntheticInvariants : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new testing::TemporaryFolder();
    const auto path = folder_->file("t.sqlite");
    summary_ = write_synthetic_trace(path, SynthOptions{.devices = 3, .steps = 8, .seed = 7});
    model_ = new trace::TraceModel(trace::load_trace_model(path));
  }
  static void TearDownTestSuite() {
    delete model_;
    delete folder_;
  }
  static inline testing::TemporaryFolder* folder_ = nullptr;
  static inline trace::TraceModel* model_ = nullptr;
  static inline SynthSummary summary_;
};

TEST_F(SyntheticInvariants, EventCountMatchesSummary) {
  EXPECT_EQ(static_cast<std::int64_t>(model_->event_count()), summary_.events);
}

TEST_F(SyntheticInvariants, WorkOnOneStreamNeverOverlapsAndEndsAfterItStarts) {
  const auto& kernels = model_->kernels;
  for (const auto& slice : model_->kernel_streams) {
    for (std::size_t i = slice.begin; i < slice.end; ++i) {
      ASSERT_LT(kernels.start_ns[i], kernels.end_ns[i]);
      if (i > slice.begin) {
        ASSERT_LE(kernels.end_ns[i - 1], kernels.start_ns[i]);
      }
    }
  }
}

TEST_F(SyntheticInvariants, EveryGpuOperationHasItsLaunchCall) {
  std::map<std::int64_t, std::int64_t> api_start_by_correlation;
  for (std::size_t i = 0; i < model_->api_calls.size(); ++i) {
    api_start_by_correlation[model_->api_calls.correlation_id[i]] = model_->api_calls.start_ns[i];
  }
  const auto check = [&](const trace::GpuColumns& table) {
    for (std::size_t i = 0; i < table.size(); ++i) {
      const auto found = api_start_by_correlation.find(table.correlation_id[i]);
      ASSERT_NE(found, api_start_by_correlation.end());
      ASSERT_LT(found->second, table.start_ns[i]) << "GPU work starts after its launch";
    }
  };
  check(model_->kernels);
  check(model_->memcpys);
  check(model_->memsets);
}

TEST_F(SyntheticInvariants, HasEveryCopyKindAndMemoryKindATrainingJobUses) {
  std::set<std::pair<CopyKind, MemoryKind>> seen;
  const auto& copies = model_->memcpys;
  for (std::size_t i = 0; i < copies.size(); ++i) {
    seen.insert({copies.copy_kind[i], copies.src_memory_kind[i]});
    if (copies.copy_kind[i] == CopyKind::peer_to_peer) {
      EXPECT_NE(copies.src_device[i], copies.dst_device[i]);
      EXPECT_EQ(copies.dst_device[i], (copies.src_device[i] + 1) % 3);
    }
  }
  EXPECT_TRUE(seen.count({CopyKind::host_to_device, MemoryKind::pinned}));
  EXPECT_TRUE(seen.count({CopyKind::host_to_device, MemoryKind::pageable}));
  EXPECT_TRUE(seen.count({CopyKind::device_to_host, MemoryKind::device}));
  EXPECT_TRUE(seen.count({CopyKind::device_to_device, MemoryKind::device}));
  EXPECT_TRUE(seen.count({CopyKind::peer_to_peer, MemoryKind::device}));
}

TEST_F(SyntheticInvariants, HasStepRangesNcclKernelsAndSyncs) {
  std::size_t step_ranges = 0;
  for (std::size_t i = 0; i < model_->ranges.size(); ++i) {
    if (model_->string(model_->ranges.name[i]).rfind("step ", 0) == 0) ++step_ranges;
    EXPECT_EQ(model_->string(model_->ranges.domain[i]), "gpuprof");
  }
  EXPECT_EQ(step_ranges, 3U * 8U);
  std::size_t nccl = 0;
  for (const auto name : model_->kernels.name) nccl += model_->string(name).rfind("nccl", 0) == 0;
  EXPECT_EQ(nccl, 3U * 8U);
  EXPECT_EQ(model_->syncs.size(), 3U * 8U);
  EXPECT_EQ(model_->devices.size(), 3U);
  EXPECT_EQ(model_->device_links.size(), 6U);
}

TEST_F(SyntheticInvariants, GpuIsIdleBetweenStepsWhileTheHostLoadsData) {
  // On device 0's compute stream the largest idle stretch is at least the loader time.
  const auto& kernels = model_->kernels;
  std::int64_t largest_idle = 0;
  for (const auto& slice : model_->kernel_streams) {
    if (slice.device != 0 || slice.stream != 7) continue;
    for (std::size_t i = slice.begin + 1; i < slice.end; ++i) {
      largest_idle = std::max(largest_idle, kernels.start_ns[i] - kernels.end_ns[i - 1]);
    }
  }
  EXPECT_GE(largest_idle, 200'000);
}

TEST(SyntheticTrace, EventTargetIsApproximatelyMet) {
  testing::TemporaryFolder folder;
  const auto summary =
      write_synthetic_trace(folder.file("t.sqlite"), SynthOptions{.devices = 2, .steps = 10, .events = 50'000});
  EXPECT_GT(summary.events, 45'000);
  EXPECT_LT(summary.events, 55'000);
}

TEST(SyntheticTrace, NonsensicalOptionsAreRefusedWithoutAFile) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  const std::vector<SynthOptions> bad = {{.devices = 0}, {.steps = 0}, {.events = -5}, {.kernels_per_step = 1},
                                         {.loader_us = -1}, {.rank = 2, .world_size = 2}};
  for (const auto& options : bad) {
    EXPECT_THROW(write_synthetic_trace(path, options), TraceError);
    EXPECT_FALSE(std::filesystem::exists(path));
  }
  EXPECT_TRUE(std::filesystem::is_empty(folder.path()));
}

}  // namespace
}  // namespace gpuprof::synthetic
