#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <set>

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

class ExternalImport : public ::testing::Test {
 protected:
  void SetUp() override {
    data_ = testing::external_data_dir();
    if (data_.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  }
  trace::TraceModel import(const fs::path& input) {
    const std::string output = folder_.file(input.filename().string() + ".sqlite");
    summary_ = testing::import_file(input.string(), output);
    auto model = trace::load_trace_model(output);
    // Every stat an importer writes on a real trace is declared in the catalogue, so it is described and judged.
    for (const auto& stat : model.stats) EXPECT_NE(trace::find_stat(stat.name), nullptr) << stat.name;
    return model;
  }
  fs::path data_;
  testing::TemporaryFolder folder_;
  importers::ImportSummary summary_;
};

bool has_nccl_kernel(const trace::TraceModel& model) {
  for (const auto name : model.kernels.name) {
    if (model.string(name).starts_with("nccl")) return true;
  }
  return false;
}

// First kernel start to last kernel end.
std::int64_t kernel_span(const trace::TraceModel& model) {
  const auto& kernels = model.kernels;
  if (kernels.size() == 0) return 0;
  return *std::max_element(kernels.end_ns.begin(), kernels.end_ns.end()) -
         *std::min_element(kernels.start_ns.begin(), kernels.start_ns.end());
}

std::size_t count_kind(const trace::TraceModel& model, trace::CopyKind kind,
                       std::optional<trace::MemoryKind> source = std::nullopt) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < model.memcpys.size(); ++i) {
    if (model.memcpys.copy_kind[i] == kind && (!source || model.memcpys.src_memory_kind[i] == *source)) ++count;
  }
  return count;
}

TEST_F(ExternalImport, DlrmRanksCarryTheirRankAndNcclKernels) {
  int ranks = 0;
  for (const auto& entry : fs::directory_iterator(data_ / "dlrm-8rank")) {
    const std::string name = entry.path().filename().string();
    if (!name.ends_with(".json.gz")) continue;
    const auto model = import(entry.path());
    const int expected_rank = name[6] - '0';  // worker<N>_...
    EXPECT_EQ(model.rank(), expected_rank) << name;
    EXPECT_EQ(model.world_size(), 8) << name;
    EXPECT_TRUE(has_nccl_kernel(model)) << name;
    EXPECT_GT(model.api_calls.size(), 0u) << name;
    ++ranks;
  }
  EXPECT_EQ(ranks, 8);
}

TEST_F(ExternalImport, OldFormatResnetHasKernelsCopiesAndRuntime) {
  const auto model = import(data_ / "kineto-resnet50" / "resnet50_num_workers_0.pt.trace.json.gz");
  EXPECT_EQ(model.kernels.size(), 8772u);
  EXPECT_EQ(model.memcpys.size(), 12u);
  EXPECT_EQ(model.memsets.size(), 312u);
  EXPECT_EQ(model.api_calls.size(), 11923u);
  EXPECT_EQ(summary_.counts.warnings, 0);
}

// AccumulateGrad's shapes give ResNet-50's gradient per step: 25,557,032 fp32 parameters (its public count).
TEST_F(ExternalImport, ResnetGradientBytesFromAccumulateGradShapes) {
  for (const char* name : {"resnet50_num_workers_0.pt.trace.json.gz", "resnet50_num_workers_4.pt.trace.json.gz"}) {
    const auto model = import(data_ / "kineto-resnet50" / name);
    EXPECT_EQ(model.meta.at("gradient_bytes"), std::to_string(25'557'032LL * 4)) << name;
    EXPECT_EQ(model.meta.at("gradient_bytes_source"),
              "Kineto AccumulateGrad input shapes: 161 tensors per step, 6 of 6 steps with gradients agree")
        << name;
  }
}

TEST_F(ExternalImport, TrainingRankHasEveryCopyKind) {
  const auto model = import(data_ / "hta" / "training_rank0of16.json.gz");
  EXPECT_EQ(model.rank(), 0);
  EXPECT_EQ(model.world_size(), 16);
  EXPECT_GT(count_kind(model, trace::CopyKind::host_to_device, trace::MemoryKind::pageable), 0u);
  EXPECT_GT(count_kind(model, trace::CopyKind::host_to_device, trace::MemoryKind::pinned), 0u);
  EXPECT_GT(count_kind(model, trace::CopyKind::device_to_host), 0u);
  EXPECT_GT(count_kind(model, trace::CopyKind::device_to_device), 0u);
  EXPECT_EQ(model.memcpys.size(), 1390u);
  EXPECT_EQ(model.kernels.size(), 6080u);
}

TEST_F(ExternalImport, BaseTimeIsAppliedAfterTheEvents) {
  const auto model = import(data_ / "hta" / "nccl_data_rank0of2.json.gz");
  EXPECT_EQ(model.kernels.size(), 2700u);
  EXPECT_EQ(model.memcpys.size(), 960u);
  // ts 4458676388068.751 us (the earliest event) + baseTimeNanoseconds 1711964646000000000.
  EXPECT_GE(std::stoll(model.meta.at("start_ns")), 1711964646000000000LL + 4458676388068751LL);
  EXPECT_GT(model.kernels.start_ns[0], 1711964646000000000LL);
  EXPECT_TRUE(has_nccl_kernel(model));
}

// Documented partial results: CPU-only traces and traces without rank import
// their host ranges; the missing rank is recorded, not invented.
TEST_F(ExternalImport, MalformedHtaTracesGivePartialResults) {
  const auto cpu_only = import(data_ / "hta" / "malformed" / "cpu_only.json.gz");
  EXPECT_EQ(cpu_only.kernels.size(), 0u);
  EXPECT_GT(cpu_only.ranges.size(), 0u);
  const auto no_info = import(data_ / "hta" / "malformed" / "distributed_info_not_found.json.gz");
  EXPECT_FALSE(no_info.rank().has_value());
  EXPECT_EQ(no_info.ranges.size(), 2424u + 43u);
  const auto no_rank = import(data_ / "hta" / "malformed" / "rank_not_found.json.gz");
  EXPECT_FALSE(no_rank.rank().has_value());
  bool flagged = false;
  for (const auto& stat : no_rank.stats) flagged |= stat.name == "import.kineto.no_rank";
  EXPECT_TRUE(flagged);
}

TEST_F(ExternalImport, OtherHtaTracesImport) {
  for (const char* name : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz", "amd_mi250_train.json.gz"}) {
    const auto model = import(data_ / "hta" / name);
    EXPECT_GT(model.kernels.size(), 0u) << name;
  }
}

std::int64_t count_rows(const fs::path& file, const std::string& sql) {
  sqlite::Database database(file.string(), sqlite::OpenMode::read_only);
  return database.query_int(sql).value_or(-1);
}

TEST_F(ExternalImport, NsysExportsMatchTheirCuptiTables) {
  for (const char* name : {"extrap_gtx1060_old_schema.sqlite", "nvfuser_h200_schema3.16.sqlite",
                           "nvfuser_h200_schema3.17.sqlite"}) {
    const fs::path input = data_ / "nsys-sqlite" / name;
    const auto model = import(input);
    EXPECT_EQ(static_cast<std::int64_t>(model.kernels.size()),
              count_rows(input, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL")) << name;
    EXPECT_EQ(static_cast<std::int64_t>(model.memcpys.size()),
              count_rows(input, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY")) << name;
    EXPECT_EQ(static_cast<std::int64_t>(model.memsets.size()),
              count_rows(input, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET")) << name;
    ASSERT_EQ(model.devices.size(), 1u) << name;  // the extrap file also lists Intel and Microsoft adapters
    EXPECT_GT(model.devices[0].sm_count.value_or(0), 0) << name;
  }
}

// Issue 17's acceptance: named API calls, demangled kernels, no problems.
TEST_F(ExternalImport, NvprofMagmaFilesImportCompletely) {
  for (const char* name : {"magma-1.6.1_testing_dgetrf_k20c.nvvp", "magma-2.0.2_testing_dgeqrf_k20c.nvvp"}) {
    const fs::path input = data_ / "nvprof-magma" / name;
    const auto model = import(input);
    EXPECT_EQ(summary_.counts.warnings, 0) << name;
    EXPECT_EQ(static_cast<std::int64_t>(model.api_calls.size()),
              count_rows(input, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME")) << name;
    EXPECT_EQ(static_cast<std::int64_t>(model.kernels.size()),
              count_rows(input, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL")) << name;
    std::set<std::string> api_names;
    for (const auto id : model.api_calls.name) api_names.emplace(model.string(id));
    for (const auto& api : api_names) EXPECT_EQ(api.find("cbid"), std::string::npos) << name << ": " << api;
    EXPECT_TRUE(api_names.count("cudaLaunch")) << name;         // callback id 13
    EXPECT_TRUE(api_names.count("cudaMemcpyAsync")) << name;    // 41
    EXPECT_TRUE(api_names.count("cudaStreamSynchronize")) << name;  // 131
    std::size_t demangled = 0;
    for (std::size_t i = 0; i < model.kernels.size(); ++i) {
      EXPECT_FALSE(model.string(model.kernels.name[i]).starts_with("_Z")) << name;
      if (model.kernels.mangled_name[i] != trace::kNoString) ++demangled;
    }
    EXPECT_GT(demangled, 0u) << name;  // both files hold _Z... kernels (dlaswp_kernel, trsm, ...)
    EXPECT_EQ(model.meta.count("pid"), 1u) << name;
  }
}

// A host clock that steps back 1.8 ms halfway through (as in a real 2-rank MPI nvprof recording): one
// constant shift leaves device synchronizes returning before the work they waited for; the piecewise fit
// moves each segment on its own and breaks no bound.
TEST_F(ExternalImport, NvprofHostClockStepIsFittedPiecewise) {
  const auto input = folder_.file("stepped.nvvp");
  fs::copy_file(data_ / "nvprof-magma" / "magma-1.6.1_testing_dgetrf_k20c.nvvp", input);
  fs::permissions(input, fs::perms::owner_write, fs::perm_options::add);
  {
    sqlite::Database trace(input, sqlite::OpenMode::read_write);
    trace.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = start - 1800000, \"end\" = \"end\" - 1800000 "
                  "WHERE start > (SELECT (min(start) + max(start)) / 2 FROM CUPTI_ACTIVITY_KIND_RUNTIME)");
  }
  const auto model = import(input);
  for (const auto& stat : model.stats) EXPECT_NE(stat.name, "import.gpu_clock_move_refused") << stat.detail.value_or("");
  EXPECT_EQ(summary_.clock.segments, 2);
  EXPECT_GT(summary_.clock.violations_constant, 0);
  EXPECT_EQ(summary_.clock.violations_piecewise, 0);
  EXPECT_EQ(model.meta.at("gpu_clock_segments"), "2");
  const auto original = import(data_ / "nvprof-magma" / "magma-1.6.1_testing_dgetrf_k20c.nvvp");
  EXPECT_EQ(original.meta.at("gpu_clock_segments"), "1");
  EXPECT_EQ(summary_.clock.violations_constant, 0);
}

// A GPU clock 1000 s ahead of a host clock that steps back 2 ms three times (as in a real 2-rank nvprof job
// with 29 segments): every segment's offset is negative, so a row moved by its segment's offset lands in an
// earlier segment's range. Each row must move once: after the fit no work starts before its launch call and
// the GPU work spans no longer than the host.
TEST_F(ExternalImport, NvprofHostClockSteppingBackWithNegativeOffsetsMovesEachRowOnce) {
  const auto input = folder_.file("stepped_back.nvvp");
  const auto original_path = data_ / "nvprof-magma" / "magma-1.6.1_testing_dgetrf_k20c.nvvp";
  fs::copy_file(original_path, input);
  fs::permissions(input, fs::perms::owner_write, fs::perm_options::add);
  constexpr std::int64_t kAhead = 1'000'000'000'000, kStep = 2'000'000;
  {
    sqlite::Database trace(input, sqlite::OpenMode::read_write);
    for (const char* table : {"CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY"}) {
      trace.execute(std::string("UPDATE ") + table + " SET start = start + " + std::to_string(kAhead) +
                    ", \"end\" = \"end\" + " + std::to_string(kAhead));
    }
    for (int quarter = 1; quarter <= 3; ++quarter) {
      trace.execute("UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET start = start - " + std::to_string(kStep) +
                    ", \"end\" = \"end\" - " + std::to_string(kStep) + " WHERE start > (SELECT min(start) + " +
                    std::to_string(quarter) + " * (max(start) - min(start)) / 4 FROM CUPTI_ACTIVITY_KIND_RUNTIME)");
    }
  }
  const auto model = import(input);
  EXPECT_EQ(summary_.clock.segments, 4);
  EXPECT_EQ(summary_.clock.violations_piecewise, 0);
  EXPECT_EQ(model.meta.at("gpu_clock_segments"), "4");
  for (const auto& stat : model.stats) EXPECT_NE(stat.name, "import.gpu_clock_move_refused") << stat.detail.value_or("");
  std::map<std::int64_t, std::int64_t> launch_start;  // correlation id → launch call start
  for (std::size_t i = 0; i < model.api_calls.size(); ++i) {
    launch_start[model.api_calls.correlation_id[i]] = model.api_calls.start_ns[i];
  }
  std::int64_t linked = 0;
  for (std::size_t i = 0; i < model.kernels.size(); ++i) {
    const auto found = launch_start.find(model.kernels.correlation_id[i]);
    if (found == launch_start.end()) continue;
    ++linked;
    EXPECT_GE(model.kernels.start_ns[i], found->second) << "kernel " << i;
  }
  EXPECT_EQ(linked, static_cast<std::int64_t>(model.kernels.size()));
  const auto original = import(original_path);
  // The steps add at most 6 ms between the first and the last kernel; a row moved twice adds 1000 s.
  EXPECT_LE(kernel_span(model), kernel_span(original) + 3 * kStep + 1'000'000);
  EXPECT_GE(kernel_span(model), kernel_span(original) - 3 * kStep - 1'000'000);
}

// Real traces share one clock between host and GPU: the time-base check must
// find linked launches and leave them alone.
TEST_F(ExternalImport, RealTracesKeepTheirClock) {
  const char* traces[] = {"nvprof-magma/magma-1.6.1_testing_dgetrf_k20c.nvvp",
                          "nvprof-magma/magma-2.0.2_testing_dgeqrf_k20c.nvvp",
                          "nsys-sqlite/extrap_gtx1060_old_schema.sqlite",
                          "nsys-sqlite/nvfuser_h200_schema3.16.sqlite",
                          "nsys-sqlite/nvfuser_h200_schema3.17.sqlite",
                          "kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz",
                          "hta/nccl_data_rank0of2.json.gz",
                          "hta/training_rank0of16.json.gz",
                          "dlrm-8rank/worker0_step_12.1694128201545.pt.trace.json.gz"};
  for (const char* name : traces) {
    const auto model = import(data_ / name);
    EXPECT_GT(summary_.clock.linked_launches, 0) << name;
    ASSERT_TRUE(summary_.clock.median_delay_ns.has_value()) << name;
    EXPECT_GE(*summary_.clock.median_delay_ns, 0) << name;  // work starts after its launch
    for (const auto& stat : model.stats) EXPECT_NE(stat.name, "import.gpu_clock_move_refused") << name;
    EXPECT_EQ(summary_.clock.shift_ns, 0) << name << ": " << summary_.clock.reason;
    EXPECT_EQ(model.meta.count("gpu_clock_shift_ns"), 0u) << name;
  }
}

}  // namespace
}  // namespace gpuprof
