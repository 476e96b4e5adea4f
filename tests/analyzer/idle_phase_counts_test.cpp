// Phase ranges count the launch calls between their ranges' bounds (phase_ranges.cpp, BoundCounts) instead of
// reading the calls one by one: on random nested, crossing and touching ranges with calls at their bounds, in
// any row order, the same phases as a reading of every call.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/idle/phase_ranges.hpp"
#include "gpuprof/trace/trace_sorting.hpp"
#include "model_builder.hpp"

namespace gpuprof::idle {
namespace {

using gpuprof::testing::ModelBuilder;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// The rule of phase_ranges.hpp read call by call: each range's parent on its thread (outer ranges first,
// a range crossing the next one's end a sibling), the innermost open range at each launch call's start,
// and every count by a scan of every call.
std::vector<bool> phases_reading_every_call(const trace::TraceModel& model, const std::vector<bool>& launched) {
  const auto& ranges = model.ranges;
  const auto& api = model.api_calls;
  std::map<std::int64_t, std::vector<std::size_t>> threads;
  for (std::size_t row = 0; row < ranges.size(); ++row) {
    if (ranges.on_gpu[row] == 0 && ranges.end_ns[row] >= ranges.start_ns[row]) threads[ranges.thread_id[row]].push_back(row);
  }
  const auto calls_within = [&](std::optional<std::int64_t> thread, std::int64_t from, std::int64_t to) {
    std::size_t count = 0;
    for (std::size_t row = 0; row < api.size(); ++row) {
      count += launched[row] && (!thread || api.thread_id[row] == *thread) && api.start_ns[row] >= from &&
               api.start_ns[row] < to;
    }
    return count;
  };
  std::vector<bool> phase(ranges.size(), false), launches(ranges.size(), false), composite(ranges.size(), false);
  std::vector<std::size_t> parent(ranges.size(), kNone), children(ranges.size(), 0);
  for (auto& [thread, order] : threads) {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::make_tuple(ranges.start_ns[a], ranges.end_ns[b], a) < std::make_tuple(ranges.start_ns[b], ranges.end_ns[a], b);
    });
    std::vector<std::int64_t> calls;
    for (std::size_t row = 0; row < api.size(); ++row) {
      if (launched[row] && api.thread_id[row] == thread) calls.push_back(api.start_ns[row]);
    }
    std::sort(calls.begin(), calls.end());
    std::vector<std::size_t> open;
    std::size_t call = 0;
    const auto read_calls = [&](std::int64_t before, bool all) {
      for (; call < calls.size() && (all || calls[call] < before); ++call) {
        while (!open.empty() && ranges.end_ns[open.back()] <= calls[call]) open.pop_back();
        if (!open.empty()) launches[open.back()] = true;
      }
    };
    for (const auto row : order) {
      read_calls(ranges.start_ns[row], false);
      while (!open.empty() && ranges.end_ns[open.back()] < ranges.end_ns[row]) open.pop_back();
      parent[row] = open.empty() ? kNone : open.back();
      open.push_back(row);
    }
    read_calls(0, true);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const auto row = *it;
      const auto start = ranges.start_ns[row], end = ranges.end_ns[row];
      if (!launches[row] && calls_within(std::nullopt, start, end) - calls_within(thread, start, end) >= 2) phase[row] = true;
      const auto up = parent[row];
      if (up == kNone) continue;
      if (phase[row]) phase[up] = true;
      if (!launches[row]) continue;
      launches[up] = composite[up] = true;
      if (composite[row] && ++children[up] >= 2) phase[up] = true;
    }
  }
  return phase;
}

// Ranges and calls on a coarse grid, so that calls start at range bounds and ranges touch, nest and cross.
trace::TraceModel random_model(unsigned seed) {
  std::mt19937 random(seed);
  const auto draw = [&random](int low, int high) { return std::uniform_int_distribution<int>(low, high)(random); };
  ModelBuilder builder;
  for (int i = 0; i < 60; ++i) {
    const std::int64_t start = draw(0, 40) * 10;
    builder.range(draw(1, 3), start, start + draw(0, 12) * 10, "r");
  }
  for (std::int64_t id = 1; id <= 150; ++id) {
    const std::int64_t start = draw(0, 90) * 5;
    builder.api_call(draw(1, 4), start, start + 2, id);
    if (draw(0, 4) != 0) builder.kernel(0, 7, start + 1000, start + 1001, "k", id);  // else it launched nothing
  }
  return builder.build();
}

void shuffle_host_rows(trace::TraceModel& model, unsigned seed) {
  std::mt19937 random(seed);
  const auto shuffle = [&random](auto& table) {
    std::vector<std::uint32_t> order(table.size());
    std::iota(order.begin(), order.end(), 0U);
    std::shuffle(order.begin(), order.end(), random);
    trace::apply_order(table, order);
  };
  shuffle(model.ranges), shuffle(model.api_calls);
}

TEST(IdlePhaseCounts, TheSamePhasesAsAReadingOfEveryCallInAnyRowOrder) {
  std::size_t phases = 0;
  for (unsigned seed = 1; seed <= 40; ++seed) {
    for (const bool shuffled : {false, true}) {
      auto model = random_model(seed);
      if (shuffled) shuffle_host_rows(model, seed);
      const analysis::CorrelationIndex correlations(model.api_calls);
      const auto launched = launched_calls(model, correlations);
      const auto expected = phases_reading_every_call(model, launched);
      EXPECT_EQ(phase_ranges(model, launched), expected) << "seed " << seed << (shuffled ? ", shuffled" : "");
      phases += static_cast<std::size_t>(std::count(expected.begin(), expected.end(), true));
    }
  }
  EXPECT_GT(phases, 40U);  // the rule holds often enough here to be tested
}

}  // namespace
}  // namespace gpuprof::idle
