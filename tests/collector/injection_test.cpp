// The collector library loaded the way the CUDA driver loads it, by a stand-in
// host program. Without a GPU CUPTI cannot start: the program must still run
// and exit normally, and the trace must say why nothing was recorded.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>

#include "gpuprof/launcher/child_process.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> traces_in(const fs::path& folder) {
  std::vector<fs::path> traces;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".sqlite") traces.push_back(entry.path());
  }
  return traces;
}

TEST(InjectionTest, TheHostProgramRunsNormallyAndTheTraceSaysWhatHappened) {
  gpuprof::testing::TemporaryFolder folder;
  const auto errors = folder.file("stderr.txt");
  const std::string command = std::string(GPUPROF_BINARY) + " record -o " + folder.file("t_%p.sqlite") + " -- " +
                              FAKE_DRIVER_HOST + " 7 2> " + errors;
  ASSERT_EQ(launcher::run_child({"/bin/sh", "-c", command}, {}).exit_code, 7);
  const auto traces = traces_in(folder.path());
  ASSERT_EQ(traces.size(), 1u);
  trace::TraceFile file(traces[0].string());
  const auto meta = file.meta();
  EXPECT_EQ(meta.at("source_format"), "collector");
  EXPECT_EQ(traces[0].filename().string(), "t_" + meta.at("pid") + ".sqlite");
  EXPECT_NE(meta.at("command_line").find("fake_driver_host 7"), std::string::npos);
  EXPECT_TRUE(meta.count("start_ns") && meta.count("end_ns") && meta.count("clock_calibration"));
  std::map<std::string, trace::StatRow> stats;
  for (const auto& stat : file.stats()) stats[stat.name] = stat;
  if (stats.count("cupti_initialization")) {  // no GPU here: CUPTI refused, and the trace says so
    EXPECT_EQ(stats.at("cupti_initialization").severity, trace::Severity::error);
  }
  EXPECT_EQ(stats.at("dropped_records").value, 0);
  // The exit path ran the in-flight check; with no kernel launched there was nothing to match.
  EXPECT_EQ(stats.count("dropped.in_flight_at_exit_unchecked"), 1u);
  // The launcher learned the file's name from the collector and summarised it.
  const auto printed = gpuprof::testing::read_file(errors);
  EXPECT_NE(printed.find("gpuprof: wrote " + traces[0].string()), std::string::npos) << printed;
}

TEST(InjectionTest, RanksNameTheFilesOfADistributedJob) {
  gpuprof::testing::TemporaryFolder folder;
  for (const char* rank : {"0", "1"}) {
    const auto result = launcher::run_child(
        {GPUPROF_BINARY, "record", "-o", folder.file("run_%q{RANK}.sqlite"), "--", FAKE_DRIVER_HOST, "0"},
        {{"RANK", rank}, {"WORLD_SIZE", "2"}});
    ASSERT_EQ(result.exit_code, 0);
  }
  for (const char* rank : {"0", "1"}) {
    trace::TraceFile file(folder.file(std::string("run_") + rank + ".sqlite"));
    EXPECT_EQ(file.meta_value("rank"), rank);
    EXPECT_EQ(file.meta_value("world_size"), "2");
  }
}

TEST(InjectionTest, AnExistingFileIsNeverOverwrittenByTheCollector) {
  gpuprof::testing::TemporaryFolder folder;
  const auto taken = folder.file("taken.sqlite");
  gpuprof::testing::write_file(taken, "precious");
  // The launcher cannot check per-process names; the collector refuses and the program still runs.
  const auto result = launcher::run_child({FAKE_DRIVER_HOST, "4"}, {{"CUDA_INJECTION64_PATH", COLLECTOR_LIBRARY},
                                                                    {"GPUPROF_OUTPUT", taken}});
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_EQ(gpuprof::testing::read_file(taken), "precious");
}

// NVTX_INJECTION64_PATH names the collector: it must export NVTX's entry points
// and hand them to the libcupti it loaded (the real one, which needs no GPU for this).
TEST(InjectionTest, TheCollectorIsAnNvtxInjectionLibraryForwardingToItsCupti) {
  void* collector = ::dlopen(COLLECTOR_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(collector, nullptr) << ::dlerror();
  for (const char* entry_point :
       {"InitializeInjectionNvtx2", "InitializeInjectionNvtx", "InitializeInjectionNvtxExtension"}) {
    EXPECT_NE(::dlsym(collector, entry_point), nullptr) << entry_point;
  }
  using ExportTableGetter = const void* (*)(std::uint32_t);
  const ExportTableGetter no_tables = [](std::uint32_t) -> const void* { return nullptr; };
  auto initialize = reinterpret_cast<int (*)(ExportTableGetter)>(::dlsym(collector, "InitializeInjectionNvtx2"));
  ASSERT_NE(initialize, nullptr);
  // The collector answers 0 whenever it could not forward; a non-zero answer came from libcupti.
  EXPECT_NE(initialize(no_tables), 0);
}

}  // namespace
}  // namespace gpuprof
