// Memory use's invariants on every real trace in ../shared/data/external, and
// exact figures on those that record memory (checked against a separate
// reading of the source files: sums of the Kineto "[memory]" events' Bytes in
// ts order, and SQL over Nsight Systems' CUDA_GPU_MEMORY_USAGE_EVENTS).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/memory/memory_use.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::memory {
namespace {

namespace fs = std::filesystem;

void expect_invariants(const trace::TraceModel& model) {
  const auto use = analyze_memory(model);
  const auto thin = analyze_memory(model, 100);
  std::int64_t counted = 0;
  for (std::size_t i = 0; i < use.devices.size(); ++i) {
    const auto& d = use.devices[i];
    SCOPED_TRACE("GPU " + std::to_string(d.device));
    counted += d.allocations + d.frees + d.host_allocations;
    ASSERT_EQ(static_cast<std::int64_t>(d.timeline.size()), d.allocations + d.frees);
    std::int64_t largest = 0;
    for (const auto& point : d.timeline) {
      EXPECT_GE(point.bytes, 0);  // never negative: a mid-run start is a stated baseline
      largest = std::max(largest, point.bytes);
    }
    EXPECT_EQ(d.peak_bytes, largest);
    if (d.recorded_mismatches == 0) {
      EXPECT_EQ(d.baseline_bytes + d.allocated_bytes - d.freed_bytes, d.final_bytes);
    }
    EXPECT_GE(d.baseline_bytes, 0);
    EXPECT_LE(d.mean_bytes, static_cast<double>(d.peak_bytes));
    // Thinning keeps the peak and the end.
    const auto& thinned = thin.devices[i].timeline;
    EXPECT_LE(thinned.size(), 100u);
    EXPECT_EQ(std::max_element(thinned.begin(), thinned.end(),
                               [](const auto& a, const auto& b) { return a.bytes < b.bytes; })->bytes,
              d.peak_bytes);
    EXPECT_EQ(thinned.back().bytes, d.final_bytes);
  }
  EXPECT_LE(counted, use.events);  // host frees are the rest
}

struct Expected {
  std::int64_t allocations, frees, peak_bytes, baseline_bytes, final_bytes;
};

// Figures read from the sources independently (see the comment at the top).
const std::map<std::string, Expected> kExpected = {
    {"resnet50_num_workers_0.pt.trace.json.gz", {4110, 4110, 2791636480, 0, 0}},
    {"resnet50_num_workers_4.pt.trace.json.gz", {4140, 4140, 2791505408, 0, 0}},
    // Five cudaMalloc'd device buffers (the five pinned ones are host memory).
    {"extrap_gtx1060_old_schema.sqlite", {5, 5, 40160000, 0, 0}},
};

TEST(ExternalMemory, InvariantsHoldOnEveryRealTraceAndFiguresMatchTheSources) {
  const auto root = gpuprof::testing::external_data_dir();
  if (root.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  int analysed = 0;
  std::size_t matched = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    const auto name = entry.path().filename().string();
    if (!entry.is_regular_file() || entry.path().parent_path().filename() == "malformed") continue;
    if (!name.ends_with(".json.gz") && !name.ends_with(".sqlite") && !name.ends_with(".nvvp")) continue;
    SCOPED_TRACE(entry.path().string());
    try {
      importers::ImportOptions import;
      import.input = entry.path().string();
      import.output = folder.file(name + ".gpuprof.sqlite");
      importers::import_trace(import);
      const auto model = trace::load_trace_model(import.output);
      EXPECT_TRUE(model.memory_events_table);
      expect_invariants(model);
      ++analysed;
      const auto expected = kExpected.find(name);
      if (expected == kExpected.end()) continue;
      const auto use = analyze_memory(model);
      ASSERT_EQ(use.devices.size(), 1u);
      const auto& d = use.devices[0];
      EXPECT_EQ(d.allocations, expected->second.allocations);
      EXPECT_EQ(d.frees, expected->second.frees);
      EXPECT_EQ(d.peak_bytes, expected->second.peak_bytes);
      EXPECT_EQ(d.baseline_bytes, expected->second.baseline_bytes);
      EXPECT_EQ(d.final_bytes, expected->second.final_bytes);
      ++matched;
    } catch (const TraceError& error) {
      ADD_FAILURE() << error.what();
    }
  }
  EXPECT_GT(analysed, 0);
  EXPECT_EQ(matched, kExpected.size());
}

}  // namespace
}  // namespace gpuprof::memory
