// export → Kineto import → compare: every interval comes back with the same
// times, places, correlation ids, kinds, sizes and names.

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "export_test_support.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using testing::TemporaryFolder;
using trace::TraceModel;

struct RoundTrip {
  TraceModel original, imported;
};

RoundTrip round_trip(const TemporaryFolder& folder, const std::string& trace_path, const std::string& json_name) {
  const std::string json = folder.file(json_name);
  const std::string imported = folder.file(json_name + ".sqlite");
  testing::export_file(trace_path, json);
  importers::ImportOptions options;
  options.input = json;
  options.output = imported;
  importers::import_trace(options);
  return {trace::load_trace_model(trace_path), trace::load_trace_model(imported)};
}

// Names are interned per file, so ids differ: compare the text.
std::vector<std::string> names(const TraceModel& model, const std::vector<trace::StringId>& ids) {
  std::vector<std::string> texts;
  for (const auto id : ids) texts.emplace_back(id == trace::kNoString ? "<none>" : std::string(model.string(id)));
  return texts;
}

void expect_same_gpu_columns(const trace::GpuColumns& original, const trace::GpuColumns& imported) {
  EXPECT_EQ(original.device, imported.device);
  EXPECT_EQ(original.context, imported.context);
  EXPECT_EQ(original.stream, imported.stream);
  EXPECT_EQ(original.start_ns, imported.start_ns);
  EXPECT_EQ(original.end_ns, imported.end_ns);
  EXPECT_EQ(original.correlation_id, imported.correlation_id);
}

void expect_same_gpu_tables(const RoundTrip& trip) {
  const auto& [original, imported] = trip;
  expect_same_gpu_columns(original.kernels, imported.kernels);
  EXPECT_EQ(names(original, original.kernels.name), names(imported, imported.kernels.name));
  EXPECT_EQ(original.kernels.grid, imported.kernels.grid);
  EXPECT_EQ(original.kernels.block, imported.kernels.block);
  EXPECT_EQ(original.kernels.registers_per_thread, imported.kernels.registers_per_thread);

  expect_same_gpu_columns(original.memcpys, imported.memcpys);
  EXPECT_EQ(original.memcpys.copy_kind, imported.memcpys.copy_kind);
  EXPECT_EQ(original.memcpys.src_memory_kind, imported.memcpys.src_memory_kind);
  EXPECT_EQ(original.memcpys.dst_memory_kind, imported.memcpys.dst_memory_kind);
  EXPECT_EQ(original.memcpys.src_device, imported.memcpys.src_device);
  EXPECT_EQ(original.memcpys.dst_device, imported.memcpys.dst_device);
  EXPECT_EQ(original.memcpys.bytes, imported.memcpys.bytes);

  expect_same_gpu_columns(original.memsets, imported.memsets);
  EXPECT_EQ(original.memsets.bytes, imported.memsets.bytes);
}

void expect_same_host_columns(const trace::HostColumns& original, const trace::HostColumns& imported) {
  EXPECT_EQ(original.process_id, imported.process_id);
  EXPECT_EQ(original.thread_id, imported.thread_id);
  EXPECT_EQ(original.start_ns, imported.start_ns);
  EXPECT_EQ(original.end_ns, imported.end_ns);
}

void expect_same_host_tables(const RoundTrip& trip) {
  const auto& [original, imported] = trip;
  expect_same_host_columns(original.api_calls, imported.api_calls);
  EXPECT_EQ(original.api_calls.correlation_id, imported.api_calls.correlation_id);
  EXPECT_EQ(names(original, original.api_calls.name), names(imported, imported.api_calls.name));
  EXPECT_EQ(original.api_calls.kind, imported.api_calls.kind);
  EXPECT_EQ(original.api_calls.return_code, imported.api_calls.return_code);

  expect_same_host_columns(original.syncs, imported.syncs);
  EXPECT_EQ(original.syncs.type, imported.syncs.type);
  EXPECT_EQ(original.syncs.device, imported.syncs.device);
  EXPECT_EQ(original.syncs.stream, imported.syncs.stream);
  EXPECT_EQ(original.syncs.event, imported.syncs.event);
  EXPECT_EQ(original.syncs.correlation_id, imported.syncs.correlation_id);

  expect_same_host_columns(original.ranges, imported.ranges);
  EXPECT_EQ(names(original, original.ranges.name), names(imported, imported.ranges.name));
  EXPECT_EQ(original.ranges.on_gpu, imported.ranges.on_gpu);
  EXPECT_EQ(original.ranges.device, imported.ranges.device);
  EXPECT_EQ(original.ranges.stream, imported.ranges.stream);
  EXPECT_EQ(original.ranges.correlation_id, imported.ranges.correlation_id);
  EXPECT_EQ(original.ranges.category, imported.ranges.category);
  // A range's NVTX domain comes back; one without a domain gets the Kineto category as its domain.
  for (std::size_t i = 0; i < original.ranges.size(); ++i) {
    if (original.ranges.domain[i] == trace::kNoString) continue;
    EXPECT_EQ(original.string(original.ranges.domain[i]), imported.string(imported.ranges.domain[i])) << i;
  }
}

void expect_same_devices(const RoundTrip& trip) {
  ASSERT_EQ(trip.original.devices.size(), trip.imported.devices.size());
  for (std::size_t i = 0; i < trip.original.devices.size(); ++i) {
    const auto& original = trip.original.devices[i];
    const auto& imported = trip.imported.devices[i];
    EXPECT_EQ(original.id, imported.id);
    EXPECT_EQ(original.name, imported.name);
    EXPECT_EQ(original.memory_bytes, imported.memory_bytes);
    EXPECT_EQ(original.compute_major, imported.compute_major);
    EXPECT_EQ(original.compute_minor, imported.compute_minor);
    EXPECT_EQ(original.sm_count, imported.sm_count);
  }
}

class HandcraftedRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(HandcraftedRoundTrip, KeepsEveryInterval) {
  TemporaryFolder folder;
  const std::string trace_path = folder.file("handcrafted.sqlite");
  testing::write_handcrafted_trace(trace_path);
  const RoundTrip trip = round_trip(folder, trace_path, GetParam());
  ASSERT_EQ(trip.original.kernels.size(), 4u);
  ASSERT_EQ(trip.original.memcpys.size(), 6u);
  expect_same_gpu_tables(trip);
  expect_same_host_tables(trip);
  expect_same_devices(trip);
  EXPECT_EQ(trip.imported.rank(), std::optional<std::int32_t>(1));
  EXPECT_EQ(trip.imported.world_size(), std::optional<std::int32_t>(2));
  EXPECT_EQ(trip.imported.meta.at("start_ns"), std::to_string(trip.original.ranges.start_ns.front()));
}

TEST_P(HandcraftedRoundTrip, ImportsWithoutWarnings) {
  TemporaryFolder folder;
  const std::string trace_path = folder.file("handcrafted.sqlite");
  testing::write_handcrafted_trace(trace_path);
  const RoundTrip trip = round_trip(folder, trace_path, GetParam());
  for (const auto& stat : trip.imported.stats) {
    EXPECT_EQ(stat.severity, trace::Severity::info) << stat.name;
  }
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, HandcraftedRoundTrip, ::testing::Values("out.json", "out.json.gz"));

using Intervals = std::vector<std::pair<std::int64_t, std::int64_t>>;

template <typename Table>
Intervals intervals(const Table& table) {
  Intervals spans;
  for (std::size_t i = 0; i < table.size(); ++i) spans.emplace_back(table.start_ns[i], table.end_ns[i]);
  std::sort(spans.begin(), spans.end());
  return spans;
}

class SyntheticRoundTrip : public ::testing::TestWithParam<const char*> {};

TEST_P(SyntheticRoundTrip, KeepsCountsAndIntervalsOfEveryTable) {
  TemporaryFolder folder;
  const std::string trace_path = folder.file("synthetic.sqlite");
  synthetic::SynthOptions options;
  options.devices = 2;
  options.steps = 4;
  options.kernels_per_step = 12;
  synthetic::write_synthetic_trace(trace_path, options);
  const RoundTrip trip = round_trip(folder, trace_path, GetParam());
  const auto& [original, imported] = trip;
  ASSERT_GT(original.event_count(), 0u);
  EXPECT_EQ(original.event_count(), imported.event_count());
  EXPECT_EQ(intervals(original.kernels), intervals(imported.kernels));
  EXPECT_EQ(intervals(original.memcpys), intervals(imported.memcpys));
  EXPECT_EQ(intervals(original.memsets), intervals(imported.memsets));
  EXPECT_EQ(intervals(original.api_calls), intervals(imported.api_calls));
  EXPECT_EQ(intervals(original.syncs), intervals(imported.syncs));
  EXPECT_EQ(intervals(original.ranges), intervals(imported.ranges));
  EXPECT_EQ(original.memcpys.copy_kind.size(), imported.memcpys.copy_kind.size());
}

INSTANTIATE_TEST_SUITE_P(PlainAndGzip, SyntheticRoundTrip, ::testing::Values("out.json", "out.json.gz"));

}  // namespace
}  // namespace gpuprof
