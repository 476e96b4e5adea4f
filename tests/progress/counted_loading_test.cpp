// The loader's row counts add up: what on_rows reports is exactly what
// rows_to_load promised for a file gpuprof wrote, and is every row loaded.

#include "gpuprof/progress/counted_loading.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::progress {
namespace {

class SynthTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    synthetic::SynthOptions options;
    options.devices = 2;
    options.events = 120'000;
    written_ = synthetic::write_synthetic_trace(path_, options).events;
  }
  testing::TemporaryFolder folder_;
  std::string path_ = folder_.file("t.sqlite");
  std::int64_t written_ = 0;
};

std::int64_t rows_in(const trace::TraceModel& model) {
  return static_cast<std::int64_t>(model.event_count() + model.collectives.size() + model.memory_events.size());
}

TEST_F(SynthTrace, OnRowsAddsUpToRowsToLoadAndToTheModel) {
  std::atomic<std::int64_t> reported{0};
  std::atomic<int> calls{0};
  trace::LoadOptions options;
  options.on_rows = [&](std::int64_t rows) {
    EXPECT_GT(rows, 0);
    reported += rows;
    ++calls;
  };
  const auto model = trace::load_trace_model(path_, options);
  EXPECT_EQ(reported.load(), trace::rows_to_load(path_, options));
  EXPECT_EQ(reported.load(), rows_in(model));
  EXPECT_GE(reported.load(), written_ - 16);  // synth counts events; collectives and memory rows come on top
  EXPECT_GT(calls.load(), 4) << "several reports per table for a progress line, not one at the end";
}

TEST_F(SynthTrace, TablesLeftOutAreNeitherCountedNorPromised) {
  trace::LoadOptions options{.load_api_calls = false, .load_ranges = false};
  std::atomic<std::int64_t> reported{0};
  options.on_rows = [&](std::int64_t rows) { reported += rows; };
  const auto model = trace::load_trace_model(path_, options);
  EXPECT_EQ(reported.load(), trace::rows_to_load(path_, options));
  EXPECT_EQ(reported.load(), rows_in(model));
}

TEST_F(SynthTrace, LoadCountedEndsAtItsTotal) {
  std::mutex mutex;
  ProgressUpdate last;
  std::string stage, unit;
  std::int64_t first_done = -1;
  const auto model = load_counted(path_, {}, [&](const ProgressUpdate& update) {
    const std::lock_guard lock(mutex);
    if (first_done < 0) first_done = update.done;
    last = update, stage = update.stage, unit = update.unit;
  });
  EXPECT_EQ(first_done, 0) << "the stage shows from its start";
  EXPECT_EQ(stage, "load");
  EXPECT_EQ(unit, "rows");
  EXPECT_EQ(last.total, trace::rows_to_load(path_));
  EXPECT_LE(last.done, last.total);
  EXPECT_EQ(rows_in(model), last.total);
}

}  // namespace
}  // namespace gpuprof::progress
