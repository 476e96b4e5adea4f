// `gpuprof record` end to end on CPU: the real launcher and collector, with
// stand-ins for libcupti and libcuda under a host program that plays a
// data-parallel run (tests/collector/standin). Every row the run produces is
// known, so every table is checked exactly.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuprof/launcher/child_process.hpp"
#include "standin_expectations.hpp"
#include "standin_support.hpp"

namespace gpuprof::testing {
namespace {

using namespace gpuprof::standin;

std::string per_device(const std::string& table, int device) {
  return "select count(*) from " + table + " where device = " + std::to_string(device);
}

TEST(StandinRecord, ATwoDeviceRunIsRecordedRowByRow) {
  TemporaryFolder folder;
  constexpr int kSteps = 3;
  const auto run = record_standin(folder, {"--steps", std::to_string(kSteps), "--exit", "3"});
  ASSERT_EQ(run.exit_code, 3) << run.errors;  // the program's own exit code
  ASSERT_EQ(run.traces.size(), 1u) << run.errors;
  trace::TraceFile file(run.traces[0].string());
  for (int device = 0; device < 2; ++device) {
    SCOPED_TRACE("device " + std::to_string(device));
    EXPECT_EQ(count_rows(file, per_device("kernels", device)), kSteps * kKernelsPerStep);
    EXPECT_EQ(count_rows(file, per_device("memcpys", device)), kSteps * copies_per_step(2));
    EXPECT_EQ(count_rows(file, per_device("memsets", device)), kSteps * kMemsetsPerStep);
    EXPECT_EQ(count_rows(file, per_device("syncs", device)), kSteps * kWaitsPerStep);
    // The weights once, then each step's workspace allocated and freed, each with its call's correlation id.
    EXPECT_EQ(count_rows(file, per_device("memory_events", device)), 1 + kSteps * kMemoryEventsPerStep);
    EXPECT_EQ(count_rows(file, per_device("memory_events", device) + " and operation = 1 and memory_kind = 3"),
              1 + kSteps);
    EXPECT_EQ(count_rows(file, per_device("memory_events", device) + " and operation = 2 and bytes = " +
                                   std::to_string(kWorkspaceBytes)),
              kSteps);
    EXPECT_EQ(count_rows(file, per_device("memory_events", device) + " and stream is null and bytes = " +
                                   std::to_string(kWeightsBytes)),
              1);
  }
  EXPECT_EQ(count_rows(file, "select count(*) from memory_events m where correlation_id is null or not exists "
                             "(select 1 from api_calls a where a.correlation_id = m.correlation_id)"),
            0);
  // Peer copies name both devices; the plain twin CUPTI also reports is not a second copy.
  EXPECT_EQ(count_rows(file, "select count(*) from memcpys where copy_kind = 5 and src_device = 0 and dst_device = 1"),
            kSteps);
  EXPECT_EQ(count_rows(file, "select count(*) from memcpys where copy_kind = 5 and src_device = 1 and dst_device = 0"),
            kSteps);
  EXPECT_EQ(count_rows(file, "select count(*) from memcpys where copy_kind = 5 and "
                             "(src_device is null or dst_device is null)"),
            0);
  EXPECT_EQ(count_rows(file, "select sum(bytes) from memcpys where copy_kind = 5"), 2 * kSteps * kPeerCopyBytes);
  // A device-to-device copy stays on its device.
  EXPECT_EQ(count_rows(file, "select count(*) from memcpys where copy_kind = 3 and src_device = device and "
                             "dst_device = device and bytes = " + std::to_string(kDeviceCopyBytes)),
            2 * kSteps);
  // Every call but the frequent ones, named without CUPTI's _vNNNN suffix.
  EXPECT_EQ(count_rows(file, "select count(*) from api_calls"),
            2 * (kSteps * api_calls_per_step(2) + kSetupCallsPerDevice));
  auto calls_named = [&](const std::string& name) {
    return count_rows(file, "select count(*) from api_calls a join strings s on s.id = a.name_id where s.value = '" +
                                name + "'");
  };
  EXPECT_EQ(calls_named("__cudaLaunchKernel"), 2 * kSteps);
  EXPECT_EQ(calls_named("cudaEventQuery"), 2 * 2 * kSteps);
  EXPECT_EQ(calls_named("cudaGetDevice") + calls_named("cudaGetLastError"), 0);
  // A library's launch through the driver is recorded; the driver's other calls are not.
  EXPECT_EQ(calls_named("cuLaunchKernel"), 2 * kSteps);
  EXPECT_EQ(calls_named("cuCtxGetCurrent"), 0);
  EXPECT_EQ(count_rows(file, "select count(*) from api_calls a join strings s on s.id = a.name_id "
                             "where s.value like '%\\_v%' escape '\\'"),
            0);
  // Kernels of a graph launch carry its node ids; every kernel has its launching call.
  EXPECT_EQ(count_rows(file, "select count(*) from kernels where graph_node_id is not null"),
            2 * kSteps * kGraphKernelsPerStep);
  EXPECT_EQ(count_rows(file, "select count(*) from kernels k where not exists "
                             "(select 1 from api_calls a where a.correlation_id = k.correlation_id)"),
            0);
  // NVTX ranges made with the real nvtx3 headers, through the export table, in their domain.
  EXPECT_EQ(count_rows(file, "select count(*) from ranges r join strings s on s.id = r.name_id "
                             "where s.value like 'step %' and r.domain_id is null"),
            2 * kSteps);
  EXPECT_EQ(count_rows(file, "select count(*) from ranges r join strings s on s.id = r.name_id "
                             "join strings d on d.id = r.domain_id where s.value = 'forward' and d.value = 'standin'"),
            2 * kSteps);
  EXPECT_EQ(count_rows(file, "select count(*) from ranges"), 2 * kSteps * kRangesPerStep);
  // The driver's view: two GPUs with peer access both ways.
  const auto devices = file.devices();
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[1].name.value_or(""), "Stand-in GPU 1");
  EXPECT_EQ(file.device_links().size(), 2u);
  // Thread names given through NVTX reach the trace's meta.
  const auto meta = file.meta();
  // The collector leaves the indexes to gpuprof record, which built them after the program exited.
  EXPECT_EQ(meta.at("indexes"), "built");
  EXPECT_EQ(count_rows(file, "select count(*) from sqlite_master where type = 'index' and name in "
                             "('api_calls_by_correlation', 'ranges_by_start', 'syncs_by_start')"),
            3);
  int named_threads = 0;
  for (const auto& [key, value] : meta) {
    named_threads += key.rfind("thread_name.", 0) == 0 && value.rfind("device ", 0) == 0;
  }
  EXPECT_EQ(named_threads, 2);
  const auto stats = stats_by_name(file);
  EXPECT_EQ(stats.at("dropped_records").value, 0);
  EXPECT_EQ(stats.at("sync_queries_left_out").value, 2 * kSteps);
  EXPECT_EQ(stats.at("peer_copies_reported_twice").value, 2 * kSteps);
  EXPECT_EQ(stats.count("activity_buffers_taken"), 0u);
  EXPECT_EQ(stats.count("buffers_not_returned"), 0u);
  EXPECT_EQ(stats.at("dropped.in_flight_at_exit").value, 0);
  EXPECT_TRUE(trace_is_finished(run.traces[0]));
  EXPECT_NE(run.errors.find("no loss"), std::string::npos) << run.errors;
}

TEST(StandinRecord, RecordsLargerThanThisCuptiKnowsAreReadAsTheirKnownPart) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "2", "--extra-bytes", "72"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(count_rows(file, "select count(*) from kernels"), 2 * 2 * kKernelsPerStep);
  EXPECT_EQ(count_rows(file, "select count(*) from memcpys where copy_kind = 5 and src_device is not null"), 4);
  EXPECT_EQ(count_rows(file, "select count(*) from ranges"), 2 * 2 * kRangesPerStep);
}

TEST(StandinRecord, TheFrequentCallsAreRecordedWhenAskedFor) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "1", "--devices", "1"}, {}, {"--trace", "cuda,nvtx,api-all,sync"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(count_rows(file, "select count(*) from api_calls"),
            api_calls_per_step(1) + kExcludedCallsPerStep + kSetupCallsPerDevice);
  // memory is not in this --trace list: CUPTI's memory activity stays off.
  EXPECT_EQ(count_rows(file, "select count(*) from memory_events"), 0);
}

// CUPTI reads a drop count only when asked; drops after the last buffer must still be asked for.
TEST(StandinRecord, DropsAfterTheLastBufferAreCountedAndSaid) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "2", "--drop-at-end", "17"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(stats_by_name(file).at("dropped_records").value, 17);
  EXPECT_NE(run.errors.find("LOST DATA: 17 dropped records"), std::string::npos) << run.errors;
}

// A program thread still using CUDA while the recording stops begins a new buffer
// right after the final flush (seen on an H200: `timeout -s TERM` during a GRU run left
// `buffers_not_returned 1`). The stop must get that buffer back, not call it lost.
TEST(StandinRecord, ABufferBegunAfterTheFinalFlushIsHandedBackNotLost) {
  TemporaryFolder folder;
  const auto run =
      record_standin(folder, {"--steps", "1", "--devices", "1"}, {{"GPUPROF_STANDIN_CALL_AFTER_FORCED_FLUSH", "1"}});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  EXPECT_EQ(stats.count("buffers_not_returned"), 0u) << run.errors;
  EXPECT_EQ(count_rows(file, "select count(*) from api_calls a join strings s on s.id = a.name_id "
                             "where s.value = 'cudaDeviceSynchronize'"),
            1);
  EXPECT_NE(run.errors.find("no loss"), std::string::npos) << run.errors;
}

// CUPTI's thread had just taken a full buffer off its queue when the exit's forced flush began
// (4 signal recordings in 500 under load said `LOST DATA: 1 buffers never handed back`). CUPTI's
// flush is blocking: the buffer is in the trace, in its place. The stand-in holds that buffer
// until the flush begins, then 500 ms more, so the flush must wait for it every time.
TEST(StandinRecord, ABufferCuptisThreadIsHandingOverWhenTheFinalFlushBeginsIsInTheTrace) {
  TemporaryFolder folder;
  constexpr int kSteps = 30;  // more than one 64 KiB buffer of records
  const auto run = record_standin(folder, {"--steps", std::to_string(kSteps), "--devices", "1"},
                                  {{"GPUPROF_STANDIN_HOLD_HANDOVER_MS", "500"}});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  EXPECT_GE(stats.at("buffers_used").value, 2) << "no buffer was full, so none was held";
  EXPECT_EQ(stats.count("buffers_not_returned"), 0u) << run.errors;
  EXPECT_EQ(stats.count("problem_range_end_without_start"), 0u) << run.errors;
  EXPECT_EQ(count_rows(file, "select count(*) from kernels"), kSteps * kKernelsPerStep);
  EXPECT_EQ(count_rows(file, "select count(*) from ranges"), kSteps * kRangesPerStep);
  EXPECT_NE(run.errors.find("no loss"), std::string::npos) << run.errors;
}

// Three device threads each keep a buffer from their first record until the
// exit's flush (CUDA 13: one per thread), and the flush timer is set past the
// run: with two buffers in all, some thread's requests must be refused and its
// records lost. With two threads a refusal was left to timing: a thread that
// filled its buffer got it straight back when the writer emptied it before the
// thread's next request (3 runs in 200 with a core to spare). The pause after
// each hand-over plays that schedule every time.
TEST(StandinRecord, RefusedBufferRequestsAreLossInTheSummaryAndTheTrace) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "20", "--devices", "3"},
                                  {{"GPUPROF_BUFFER_COUNT", "2"},
                                   {"GPUPROF_STANDIN_DEVICES", "3"},
                                   {"GPUPROF_FLUSH_INTERVAL_MS", "3600000"},
                                   {"GPUPROF_STANDIN_PAUSE_AFTER_HANDOVER_MS", "50"}});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  EXPECT_GT(stats.at("buffer_requests_refused").value, 0);
  EXPECT_EQ(stats.at("buffer_requests_refused").severity, trace::Severity::warning);
  EXPECT_NE(run.errors.find("LOST DATA"), std::string::npos) << run.errors;
  EXPECT_NE(run.errors.find("refused buffer requests"), std::string::npos) << run.errors;
  EXPECT_TRUE(trace_is_finished(run.traces[0]));
}

TEST(StandinRecord, ASecondCuptiClientTakingTheBuffersIsAnError) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "3", "--take-over-after", "0"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  ASSERT_EQ(stats.count("activity_buffers_taken"), 1u) << run.errors;
  EXPECT_EQ(stats.at("activity_buffers_taken").severity, trace::Severity::error);
  // Two later steps on two devices, each with its plain launches, the library's launch through the driver
  // and the all-reduce launch (the driver launches inside runtime launches are the runtime's, not counted).
  EXPECT_EQ(stats.at("activity_buffers_taken").value, 2 * 2 * (kPlainKernelsPerStep + kDriverKernelsPerStep + 1));
  EXPECT_NE(run.errors.find("another CUPTI client"), std::string::npos) << run.errors;
}

TEST(StandinRecord, ASubscriptionTakenByAnotherToolStillRecords) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "1"}, {{"GPUPROF_STANDIN_FAIL", "subscribe"}});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(count_rows(file, "select count(*) from kernels"), 2 * kKernelsPerStep);
  EXPECT_EQ(stats_by_name(file).count("cupti_warning_subscribe"), 1u);
}

TEST(StandinRecord, ACuptiThatCannotStartLeavesTheProgramRunning) {
  TemporaryFolder folder;
  // 10 is CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, without which nothing is worth recording.
  const auto run = record_standin(folder, {"--steps", "1", "--exit", "5"}, {{"GPUPROF_STANDIN_FAIL", "enable_10"}});
  EXPECT_EQ(run.exit_code, 5) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(stats_by_name(file).at("cupti_initialization").severity, trace::Severity::error);
}

// CUPTI's thread hands a buffer over after the program's exit handlers finished the trace.
TEST(StandinRecord, ALateBufferIsSaidNotLostSilently) {
  TemporaryFolder folder;
  // Late enough that the program's exit flush comes first even on a loaded machine (at 200 ms it once did not).
  const auto run = record_standin(folder, {"--steps", "1", "--late-delivery-ms", "1500"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  ASSERT_EQ(stats.count("buffers_not_returned"), 1u) << run.errors;
  EXPECT_GE(stats.at("buffers_not_returned").value, 1);
  EXPECT_NE(run.errors.find("after the trace was finished"), std::string::npos) << run.errors;
  EXPECT_NE(run.errors.find("buffers never handed back"), std::string::npos) << run.errors;
}

TEST(StandinRecord, AForkedChildWritesNothingAndItsSignalLeavesTheParentAlone) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "2", "--fork-child-gets-signal", "--exit", "4"});
  EXPECT_EQ(run.exit_code, 4) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u) << run.errors;
  EXPECT_TRUE(trace_is_finished(run.traces[0]));
  trace::TraceFile file(run.traces[0].string());
  EXPECT_EQ(count_rows(file, "select count(*) from kernels k join strings s on s.id = k.name_id "
                             "where s.value = 'child_kernel'"),
            0);
  EXPECT_EQ(count_rows(file, "select count(*) from kernels"), 2 * 2 * kKernelsPerStep);
}

TEST(StandinRecord, BuffersAreCollectedBeforeAContextIsDestroyed) {
  TemporaryFolder folder;
  const auto output = folder.file("stdout.txt");
  const auto result = launcher::run_child(
      {"/bin/sh", "-c", standin_record_command(folder.file("t.sqlite"), {"--steps", "1", "--destroy-context"}) +
                            " > " + output + " 2>/dev/null"},
      standin_environment());
  ASSERT_EQ(result.exit_code, 0);
  // Two device threads' buffers, handed over by the flush the callback asked for.
  EXPECT_NE(read_file(output).find("buffers handed over at the context's destruction: 2"), std::string::npos)
      << read_file(output);
}

// CUPTI's clock is not the host's: the calibration pairs say how far apart they are.
TEST(StandinRecord, AShiftedGpuClockIsCalibratedAgainstTheHostClock) {
  std::vector<std::int64_t> offsets;
  for (const char* shift : {"0", "1000000000000"}) {
    TemporaryFolder folder;
    const auto run = record_standin(folder, {"--steps", "1"}, {{"GPUPROF_STANDIN_CLOCK_SHIFT_NS", shift}});
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    ASSERT_EQ(run.traces.size(), 1u);
    trace::TraceFile file(run.traces[0].string());
    const auto meta = file.meta();
    const auto start = std::stoll(meta.at("start_ns")), end = std::stoll(meta.at("end_ns"));
    EXPECT_EQ(count_rows(file, "select count(*) from kernels where start_ns < " + std::to_string(start) +
                                   " or end_ns > " + std::to_string(end) + " + 1000000"),
              0);
    // "[[gpu_ns,realtime_ns],...]": the first pair's difference is the offset.
    const auto calibration = meta.at("clock_calibration");
    const auto comma = calibration.find(',');
    ASSERT_EQ(calibration.rfind("[[", 0), 0u) << calibration;
    ASSERT_NE(comma, std::string::npos) << calibration;
    offsets.push_back(std::stoll(calibration.substr(2, comma - 2)) - std::stoll(calibration.substr(comma + 1)));
  }
  EXPECT_NEAR(static_cast<double>(offsets[1] - offsets[0]), 1e12, 1e9);  // within the second between the runs
}

// Injected without gpuprof record (as a job launcher may do): a finished trace without the
// indexes for SQL users, which the analyses do not need.
TEST(StandinRecord, WithoutTheLauncherTheTraceIsFinishedAndIndexesArePending) {
  TemporaryFolder folder;
  auto environment = standin_environment();
  environment["CUDA_INJECTION64_PATH"] = COLLECTOR_LIBRARY;
  environment["GPUPROF_OUTPUT"] = folder.file("direct.sqlite");
  const auto result = launcher::run_child({STANDIN_HOST, "--steps", "2"}, environment);
  ASSERT_EQ(result.exit_code, 0);
  ASSERT_TRUE(trace_is_finished(folder.file("direct.sqlite")));
  trace::TraceFile file(folder.file("direct.sqlite"));
  EXPECT_EQ(file.meta().at("indexes"), "pending");
  EXPECT_EQ(count_rows(file, "select count(*) from kernels"), 2 * 2 * kKernelsPerStep);
  const auto report = launcher::run_child({GPUPROF_BINARY, "report", folder.file("direct.sqlite"), "-o",
                                           folder.file("report.txt")}, {});
  EXPECT_EQ(report.exit_code, 0);
}

TEST(StandinRecord, TwoProcessesWriteTwoFiles) {
  TemporaryFolder folder;
  const auto pattern = folder.file("t_%p.sqlite");
  // Both programs run under one `gpuprof record`.
  const std::string record = std::string(GPUPROF_BINARY) + " record -o " + pattern + " -- sh -c '" + STANDIN_HOST +
                             " --steps 1 & " + STANDIN_HOST + " --steps 2; wait'";
  const auto result = launcher::run_child({"/bin/sh", "-c", "timeout -k 5 60 " + record}, standin_environment());
  ASSERT_EQ(result.exit_code, 0);
  std::vector<std::int64_t> kernels;
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    if (entry.path().extension() != ".sqlite") continue;
    trace::TraceFile file(entry.path().string());
    kernels.push_back(count_rows(file, "select count(*) from kernels"));
    EXPECT_TRUE(trace_is_finished(entry.path()));
  }
  std::sort(kernels.begin(), kernels.end());
  EXPECT_EQ(kernels, (std::vector<std::int64_t>{2 * kKernelsPerStep, 2 * 2 * kKernelsPerStep}));
}

// The analyzer reads a stand-in recording of a 2-GPU data-parallel run like any other trace.
TEST(StandinRecord, TheReportOfATwoGpuRecordingShowsBothDevicesAndTheirCommunication) {
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "6"});
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u);
  const auto json = folder.file("report.json");
  const auto result = launcher::run_child(
      {GPUPROF_BINARY, "report", run.traces[0].string(), "--format", "json", "-o", json}, {});
  ASSERT_EQ(result.exit_code, 0);
  const auto text = read_file(json);
  EXPECT_NE(text.find("\"device\": 1,"), std::string::npos);
  EXPECT_NE(text.find("\"kind\": \"PtoP\""), std::string::npos);
  EXPECT_NE(text.find("ncclDevKernel_AllReduce"), std::string::npos);
  EXPECT_EQ(text.find("\"total_comm_ns\": 0,"), std::string::npos);  // the all-reduce kernels count as communication
  // Memory in use: the weights stay, each step's workspace comes and goes.
  const auto peak = std::to_string(kWeightsBytes + kWorkspaceBytes);
  EXPECT_NE(text.find("\"peak_bytes\": " + peak), std::string::npos) << text;
  EXPECT_NE(text.find("\"final_bytes\": " + std::to_string(kWeightsBytes)), std::string::npos);
  EXPECT_NE(text.find("\"allocations\": 7,"), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::testing
