// The launches read from the model's GPU tables (launch_index.hpp) answer as a sorted copy of every launch
// did: the earliest launch of the work starting at a time, per device and over every device, asked at random
// or in order, and kept at the steps' starts once the model is gone.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/idle/host_causes.hpp"
#include "gpuprof/idle/launch_index.hpp"
#include "model_builder.hpp"

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

constexpr std::int32_t kDevices = 3;

// Random work on `streams` streams per device, starts drawn from a narrow range so that many pieces start at
// the same time; some calls missing (unknown correlation), some copies pageable or made by a synchronous call.
trace::TraceModel random_model(unsigned seed, int streams = 3) {
  std::mt19937 random(seed);
  const auto draw = [&random](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  ModelBuilder builder;
  std::int64_t correlation = 1;
  for (int piece = 0; piece < 400; ++piece) {
    const std::int32_t device = draw(0, kDevices - 1);
    const std::int64_t stream = draw(1, streams);
    const std::int64_t start = draw(0, 120) * 10;
    const std::int64_t call_start = start - draw(-5, 60);
    const std::int64_t thread = draw(1, 3);
    const bool known = draw(0, 9) != 0;
    const auto id = correlation++;
    const int kind = draw(0, 9);
    if (kind == 0) {
      builder.memset(device, stream, start, start + 5);
      continue;
    }
    if (kind <= 2) {
      const bool pageable = draw(0, 1) == 0;
      if (known) builder.api_call(thread, call_start, call_start + 3, id, draw(0, 1) == 0 ? "cudaMemcpy" : "cudaMemcpyAsync");
      builder.memcpy(device, stream, start, start + 7, trace::CopyKind::host_to_device, 64, trace::kUnknown32, device,
                     pageable ? trace::MemoryKind::pageable : trace::MemoryKind::pinned, id);
      continue;
    }
    if (known) builder.api_call(thread, call_start, call_start + 3, id);
    builder.kernel(device, stream, start, start + draw(1, 30), "k", id);
  }
  return builder.build();
}

// Every launch of `device` (every device's when nullopt), sorted: what a copy of every launch held.
std::vector<Launch> every_launch(const trace::TraceModel& model, std::optional<std::int32_t> device) {
  const analysis::CorrelationIndex correlations(model.api_calls);
  std::vector<Launch> launches;
  const auto add = [&](const trace::GpuColumns& table, std::size_t row, bool copy) {
    if (device && table.device[row] != *device) return;
    const auto api_row = correlations.api_row(table.correlation_id[row]);
    if (api_row == analysis::CorrelationIndex::kNone) return;
    if (copy && (pageable_copy(model.memcpys, row) ||
                 api_call_cause(model.string(model.api_calls.name[api_row])) == IdleCause::blocking_copy)) {
      return;
    }
    launches.push_back({table.start_ns[row], model.api_calls.start_ns[api_row], model.api_calls.thread_id[api_row]});
  };
  for (std::size_t row = 0; row < model.kernels.size(); ++row) add(model.kernels, row, false);
  for (std::size_t row = 0; row < model.memcpys.size(); ++row) add(model.memcpys, row, true);
  for (std::size_t row = 0; row < model.memsets.size(); ++row) add(model.memsets, row, false);
  std::sort(launches.begin(), launches.end());
  return launches;
}

std::optional<Launch> first_at(const std::vector<Launch>& launches, std::int64_t gpu_start) {
  const auto found = std::lower_bound(launches.begin(), launches.end(), Launch{gpu_start, INT64_MIN, INT64_MIN});
  return found != launches.end() && found->first == gpu_start ? std::optional<Launch>(*found) : std::nullopt;
}

// Every question of `host`'s indexes against a sorted copy of every launch; returns the answers found.
std::size_t expect_answers_of_a_sorted_copy(const trace::TraceModel& model, const HostCauses& host, unsigned seed) {
  std::size_t found = 0;
  for (std::int32_t device = -1; device < kDevices; ++device) {
    const auto expected = every_launch(model, device < 0 ? std::nullopt : std::optional<std::int32_t>(device));
    const auto& causes = device < 0 ? host.any_device() : host.device(device);
    LaunchCursor cursor(causes.launches.get());
    for (std::int64_t time = -20; time <= 1250; ++time) {
      const auto want = first_at(expected, time);
      EXPECT_EQ(earliest_launch_at(causes, time), want) << seed << " " << device << " " << time;
      EXPECT_EQ(cursor.at(time), want) << seed << " " << device << " " << time;
      EXPECT_EQ(cursor.at(time), want) << "asked again";
      found += want ? 1 : 0;
    }
    // A sorted copy's cursor did not go back either: an earlier time finds nothing.
    if (!expected.empty()) {
      EXPECT_EQ(cursor.at(expected.front().first), std::nullopt);
    }
  }
  return found;
}

TEST(IdleLaunchIndex, AnswersAsASortedCopyOfEveryLaunchDid) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const auto model = random_model(seed);
    const analysis::CorrelationIndex correlations(model.api_calls);
    const HostCauses host(model, correlations);
    EXPECT_GT(host.device(0).launches->parts_read_in_place(), 0U) << "a few streams are read in place";
    EXPECT_GT(expect_answers_of_a_sorted_copy(model, host, seed), 100U) << seed;
  }
}

// A hostile trace puts each kernel on a stream of its own: a question per stream per busy interval would be
// quadratic, so past kMostPartsReadInPlace the index answers from one merged copy, with the same answers.
TEST(IdleLaunchIndex, ManyStreamsAreMergedAndAnswerTheSame) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const auto model = random_model(seed, 300);
    const analysis::CorrelationIndex correlations(model.api_calls);
    const HostCauses host(model, correlations);
    EXPECT_EQ(host.any_device().launches->parts_read_in_place(), 0U);
    for (std::int32_t device = 0; device < kDevices; ++device) {
      EXPECT_EQ(host.device(device).launches->parts_read_in_place(), 0U) << seed << " " << device;
    }
    EXPECT_GT(expect_answers_of_a_sorted_copy(model, host, seed), 100U) << seed;
  }
}

TEST(IdleLaunchIndex, TheRanksLaunchesAreKeptAtTheStartsAskedForAfterTheModelIsGone) {
  DeviceHostCauses kept;
  std::vector<std::optional<Launch>> expected;
  const std::vector<std::int64_t> starts = {500, 10, 800, 500, 1234567};
  {
    auto model = std::make_unique<trace::TraceModel>(random_model(7));
    const analysis::CorrelationIndex correlations(model->api_calls);
    HostCauses host(*model, correlations);
    for (const auto start : starts) expected.push_back(earliest_launch_at(host.any_device(), start));
    ASSERT_TRUE(expected[0]);
    ASSERT_TRUE(expected[2]);
    ASSERT_FALSE(earliest_launch_at(host.any_device(), 20) == std::nullopt);
    kept = std::move(host).take_any_device(starts);
  }
  for (std::size_t i = 0; i < starts.size(); ++i) EXPECT_EQ(earliest_launch_at(kept, starts[i]), expected[i]) << i;
  EXPECT_EQ(earliest_launch_at(kept, 20), std::nullopt);  // not asked for: not kept
  LaunchCursor cursor(kept.launches.get());
  EXPECT_EQ(cursor.at(10), expected[1]);
  EXPECT_EQ(cursor.at(500), expected[0]);
  EXPECT_EQ(cursor.at(800), expected[2]);
}

}  // namespace
}  // namespace gpuprof::idle
