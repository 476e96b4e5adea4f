// Termination signals at every stage of a recording: the program ends by the
// signal as it would without gpuprof, the trace is finished, and nothing hangs
// (each run has a time limit; exit 124 would mean it hung).

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gpuprof/launcher/child_process.hpp"
#include "standin_support.hpp"

namespace gpuprof::testing {
namespace {

struct SignalCase {
  std::string signal;  // TERM or INT
  std::string stage;   // start, steady, exit (while the collector finishes the trace at exit)
  int repeats;
};

class StandinSignal : public ::testing::TestWithParam<SignalCase> {};

TEST_P(StandinSignal, TheTraceIsFinishedAndTheProgramEndsByTheSignal) {
  const auto& c = GetParam();
  TemporaryFolder folder;
  const auto run = record_standin(folder, {"--steps", "50", "--signal", c.signal + "@" + c.stage, "--signal-repeats",
                                           std::to_string(c.repeats)},
                                  {}, {}, 30);
  const int signal_number = c.signal == "INT" ? SIGINT : SIGTERM;
  EXPECT_NE(run.exit_code, 124) << "hung: " << run.errors;
  EXPECT_EQ(run.exit_code, 128 + signal_number) << run.errors;
  ASSERT_EQ(run.traces.size(), 1u) << run.errors;
  EXPECT_TRUE(trace_is_finished(run.traces[0])) << run.errors;
  // Launches after the stop have nowhere to go; they are not records another client took.
  trace::TraceFile file(run.traces[0].string());
  const auto stats = stats_by_name(file);
  EXPECT_EQ(stats.count("activity_buffers_taken"), 0u) << run.errors;
  // The stop's flush gets back every buffer CUPTI was handing over (4 recordings in 500 lost one
  // to the stand-in's worker before it waited).
  EXPECT_EQ(stats.count("buffers_not_returned"), 0u) << run.errors;
}

INSTANTIATE_TEST_SUITE_P(
    EveryStage, StandinSignal,
    ::testing::Values(SignalCase{"TERM", "start", 1}, SignalCase{"TERM", "steady", 1}, SignalCase{"TERM", "exit", 1},
                      SignalCase{"INT", "start", 1}, SignalCase{"INT", "steady", 1}, SignalCase{"INT", "exit", 1},
                      SignalCase{"TERM", "steady", 3}, SignalCase{"TERM", "exit", 3}),
    [](const auto& test) { return test.param.signal + "_" + test.param.stage + "_" + std::to_string(test.param.repeats); });

// `timeout` signals its child and then the child's whole process group, and the
// launcher hands its copy on: one request, three signals, and still a whole trace.
// The signal comes 5 s in, well inside the program's 20 s run: at 1 s the test failed once while three
// builds loaded the machine (not reproduced in 6 runs after), where a slowed start may not yet have
// created the trace.
TEST(StandinSignalFromOutside, TimeoutEndsTheRecordingWithAFinishedTrace) {
  TemporaryFolder folder;
  const auto command = "timeout -s TERM 5 " +
                       standin_record_command(folder.file("t_%p.sqlite"), {"--steps", "1", "--run-ms", "20000"}) +
                       " 2> " + folder.file("stderr.txt");
  const auto started = std::chrono::steady_clock::now();
  const auto result = launcher::run_child({"/bin/sh", "-c", "timeout -k 5 60 " + command}, standin_environment());
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(50)) << "hung";
  EXPECT_EQ(result.exit_code, 124);  // timeout's own code for "I stopped it"
  std::vector<std::filesystem::path> traces;
  for (const auto& entry : std::filesystem::directory_iterator(folder.path())) {
    if (entry.path().extension() == ".sqlite") traces.push_back(entry.path());
  }
  ASSERT_EQ(traces.size(), 1u) << read_file(folder.file("stderr.txt"));
  EXPECT_TRUE(trace_is_finished(traces[0])) << read_file(folder.file("stderr.txt"));
}

// 100 recordings, each sent a burst of SIGTERMs at a different moment of its life,
// a few at a time: 100 finished traces, none hung.
TEST(StandinSignalFromOutside, AStormOfTerminationSignalsLeavesEveryTraceFinished) {
  TemporaryFolder folder;
  constexpr int kRecordings = 100;
  constexpr int kAtOnce = 10;
  int finished = 0, hung = 0, other = 0;
  std::string last_problem;
  for (int batch = 0; batch < kRecordings / kAtOnce; ++batch) {
    std::vector<std::thread> runs;
    std::vector<int> codes(kAtOnce, -1);
    for (int i = 0; i < kAtOnce; ++i) {
      runs.emplace_back([&, i] {
        const int index = batch * kAtOnce + i;
        const auto output = folder.file("storm_" + std::to_string(index) + ".sqlite");
        // The launcher itself is signalled (as a job scheduler does), 0-150 ms after the
        // collector created the trace (before that there is nothing to record), three times in a row.
        const std::string delay = std::to_string((index * 37) % 150 / 1000.0);
        const std::string script = standin_record_command(output, {"--steps", "1", "--run-ms", "3000"}) +
                                   " 2>/dev/null & pid=$!; n=0; while [ ! -e " + output +
                                   " ] && [ $n -lt 2000 ]; do sleep 0.01; n=$((n+1)); done; sleep " + delay +
                                   "; kill -TERM $pid; kill -TERM $pid; kill -TERM $pid; wait $pid";
        codes[static_cast<std::size_t>(i)] =
            launcher::run_child({"/bin/sh", "-c", "timeout -k 5 60 sh -c '" + script + "'"}, standin_environment())
                .exit_code;
      });
    }
    for (auto& run : runs) run.join();
    for (int i = 0; i < kAtOnce; ++i) {
      const auto output = folder.file("storm_" + std::to_string(batch * kAtOnce + i) + ".sqlite");
      if (codes[static_cast<std::size_t>(i)] == 124) ++hung;
      if (std::filesystem::exists(output) && trace_is_finished(output)) {
        ++finished;
      } else {
        ++other;
        last_problem = output + " exit " + std::to_string(codes[static_cast<std::size_t>(i)]);
      }
    }
  }
  EXPECT_EQ(hung, 0);
  EXPECT_EQ(finished, kRecordings) << other << " unfinished, e.g. " << last_problem;
}

}  // namespace
}  // namespace gpuprof::testing
