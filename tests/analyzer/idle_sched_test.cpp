// Idle causes from the OS scheduler: a hand-built Nsight Systems export whose
// launching thread ran on a CPU for a known part of a kernel gap. Running
// outside every call and range is host_bound; switched out it stays unrecorded;
// a call at the same time keeps its own cause.
#include <gtest/gtest.h>

#include <string>

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/idle/interval_host_activity.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::idle {
namespace {

constexpr std::int64_t kThread = 50556;  // of globalTid 282323165693308

// Kernel a [1000, 2000) (launched before the trace), kernel b [5000, 6000) launched by a call at 4000;
// a synchronize call 3600..3800. The thread runs 1800..2600 and 3500..4200 and is switched out between.
// In the gap [2000, 5000): launch_latency 4000..5000 = 1000; sync_wait 200; host_bound (running, no call)
// 2000..2600 + 3500..3600 + 3800..4000 = 900; unrecorded (switched out) 2600..3500 = 900.
constexpr const char* kExport = R"sql(
  CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
  INSERT INTO StringIds VALUES (1, 'k_a'), (2, 'k_b'), (3, 'cudaLaunchKernel_v7000'),
    (4, 'cudaStreamSynchronize_v3020');
  CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, contextId INTEGER,
    streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER,
    registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER,
    blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, graphNodeId INTEGER);
  INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 2000, 0, 1, 7, 99, 0, 1, 1, 32, 1, 1, 1, 1, 1, 1, 0, 0, NULL),
    (5000, 6000, 0, 1, 7, 2, 0, 2, 2, 32, 1, 1, 1, 1, 1, 1, 0, 0, NULL);
  CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,
    correlationId INTEGER, nameId INTEGER, returnValue INTEGER);
  INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (4000, 4100, 0, 282323165693308, 2, 3, 0),
    (3600, 3800, 0, 282323165693308, 3, 4, 0);
  CREATE TABLE SCHED_EVENTS (start INTEGER NOT NULL, cpu INTEGER NOT NULL, isSchedIn INTEGER NOT NULL,
    globalTid INTEGER, threadState INTEGER, threadBlock INTEGER);
  INSERT INTO SCHED_EVENTS VALUES (1800, 1, 1, 282323165693308, 0, NULL), (2600, 1, 0, 282323165693308, 2, NULL),
    (3500, 5, 1, 282323165693308, 0, NULL), (4200, 5, 0, 282323165693308, 2, NULL);
)sql";

constexpr std::size_t at(IdleCause cause) { return static_cast<std::size_t>(cause); }

trace::TraceModel imported_fixture(const gpuprof::testing::TemporaryFolder& folder) {
  const auto input = folder.file("report.sqlite");
  {
    sqlite::Database database(input, sqlite::OpenMode::create);
    database.execute(kExport);
  }
  importers::ImportOptions options;
  options.input = input;
  options.output = folder.file("trace.sqlite");
  importers::import_trace(options);
  return trace::load_trace_model(options.output);
}

TEST(IdleFromScheduler, RunningOutsideCallsIsHostBoundAndSwitchedOutStaysUnrecorded) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = imported_fixture(folder);
  ASSERT_EQ(model.thread_states.size(), 3U);
  const auto rank = analysis::analyze_rank(model, {});
  ASSERT_EQ(rank.devices.size(), 1U);
  const auto& total = rank.devices[0].total;
  EXPECT_EQ(total.idle_in_steps_ns, 3000);
  CauseTimes expected{};
  expected[at(IdleCause::launch_latency)] = 1000;
  expected[at(IdleCause::sync_wait)] = 200;
  expected[at(IdleCause::host_bound)] = 900;
  expected[at(IdleCause::unrecorded)] = 900;
  EXPECT_EQ(total.idle_in_steps_causes.cause_ns, expected);
  EXPECT_EQ(total.idle_in_steps_causes.total_ns(), total.idle_in_steps_ns);
}

// The claim is auditable: the interval's host activity lists the running time no call covers, with its share.
TEST(IdleFromScheduler, HostActivityListsTheThreadRunningOutsideCalls) {
  gpuprof::testing::TemporaryFolder folder;
  const auto model = imported_fixture(folder);
  const analysis::StepPattern steps(analysis::AnalysisOptions{}.step_pattern);
  const auto activity = host_activity_during(model, {kThread}, steps, 2000, 5000);
  ASSERT_EQ(activity.groups.size(), 3U);
  const auto& running = activity.groups[0];
  EXPECT_EQ(running.kind, HostEventKind::thread_running);
  EXPECT_EQ(running.thread, kThread);
  EXPECT_EQ(running.count, 2);  // 2000..2600, and 3500..4200 less the calls in it
  EXPECT_EQ(running.overlap_ns, 600 + 700 - 200 - 100);
  EXPECT_EQ(running.cause, IdleCause::host_bound);
  EXPECT_EQ(activity.groups[1].overlap_ns, 200);  // the synchronize
  EXPECT_EQ(activity.groups[2].overlap_ns, 100);  // the launch
  EXPECT_EQ(activity.covered_ns, 600 + 700);
  const auto text = describe_host_activity(activity);
  EXPECT_NE(text.find("thread running (OS scheduler; no call or range recorded) on thread 50556: 2 stretches"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpuprof::idle
