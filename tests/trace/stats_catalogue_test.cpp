#include "gpuprof/trace/stats_catalogue.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace gpuprof::trace {
namespace {

// Every name gpuprof wrote to collector_stats before the catalogue existed (as of d835eaf; keyed stats with a
// sample key). Traces already written carry these: each must still be found, so that they read the same.
const char* const kNamesInWrittenTraces[] = {
    "dropped_records", "records_dropped_after_stop", "dropped.in_flight_at_exit",
    "dropped.in_flight_at_exit_unchecked", "buffer_requests_refused", "buffers_not_returned",
    "activity_buffers_taken", "buffers_used", "buffer_requests_after_stop", "invalid_buffers",
    "launches_seen_by_callback", "cupti_initialization", "cupti_warning_kernel", "driver_probe", "records_kernel",
    "sync_queries_left_out", "peer_copies_reported_twice", "cupti_overhead_ns", "problem_end_before_start",
    "problem_memory_size_out_of_range", "problem_memory_unknown_operation", "problem_memory_without_device",
    "problem_missing_timestamp", "problem_name_record_unknown_object", "problem_name_record_without_name",
    "problem_peer_copy_without_devices", "problem_range_end_without_start", "problem_unclosed_ranges",
    "problem_unknown_copy_kind", "problem_unknown_marker_flags", "problem_unknown_record_kind",
    "problem_unknown_sync_type", "problem_unnamed_kernel", "records_written", "load.invalid.kernels.device",
    "load.chunks.kernels", "import.rows.kernels", "import.rows.memcpys", "import.rows.memsets",
    "import.rows.api_calls", "import.rows.syncs", "import.rows.ranges", "import.rows.collectives",
    "import.rows.memory_events", "import.rows.thread_states", "import.string_too_long", "import.gpu_clock_shift_ns",
    "import.gpu_clock_shift_refused", "import.gpu_clock_segments", "import.malformed.kernel",
    "import.skipped.counter", "import.unknown_category.gpu_widget", "import.kineto.unknown_copy_kind",
    "import.kineto.no_distributed_info", "import.kineto.no_rank", "import.kineto.gradient_shape_unreadable",
    "import.kineto.memory_bad_event.ts", "import.kineto.memory_host_events",
    "import.kineto.memory_other_device_type.3", "import.kineto.memory_bad_total",
    "import.kineto.collective_bad_value", "import.kineto.collective_without_correlation",
    "import.kineto.collective_unknown_dtype.Float8", "import.kineto.collective_shape_unreadable",
    "import.kineto.collective_kernel_unsized", "import.nsys.invalid_times.kernels",
    "import.nsys.invalid_times.memcpys", "import.nsys.invalid_times.memsets", "import.nsys.invalid_times.api_calls",
    "import.nsys.invalid_times.syncs", "import.nsys.missing_string", "import.nsys.non_cuda_adapters",
    "import.nsys.skipped_event_class.34", "import.nsys.unclosed_nvtx_ranges", "import.nsys.memory_bad_row.bytes",
    "import.nsys.memory_unknown_kind", "import.nsys.memory_table_unreadable", "import.nsys.sched_bad_row.cpu",
    "import.nsys.sched_out_of_order", "import.nsys.sched_table_unreadable", "import.nsys.sched_unknown_state",
    "import.nsys.sched_unknown_block_reason", "import.nsys.sched_unpaired", "import.nvprof.invalid_times.kernels",
    "import.nvprof.invalid_times.memcpys", "import.nvprof.invalid_times.memsets",
    "import.nvprof.invalid_times.api_calls", "import.nvprof.invalid_times.syncs",
    "import.nvprof.invalid_times.nvtx_markers", "import.nvprof.missing_string", "import.nvprof.unknown_callback_ids",
    "import.nvprof.unclosed_nvtx_ranges", "import.nvprof.nvtx_sync_markers", "import.nvprof.nvtx_marks",
    "import.nvprof.unknown_marker_flags", "import.nvprof.duplicate_nvtx_ids", "import.nvprof.unmatched_nvtx_ends",
};

TEST(StatsCatalogue, EveryNameAlreadyWrittenIsStillKnown) {
  for (const char* name : kNamesInWrittenTraces) {
    const auto* info = find_stat(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(stat_name(info->id, info->keyed ? std::string_view(name).substr(info->name.size()) : ""), name);
  }
}

TEST(StatsCatalogue, EachStatIsDeclaredOnceWithADescription) {
  std::set<std::string_view> names;
  for (const auto& info : stats_catalogue()) {
    EXPECT_TRUE(names.insert(info.name).second) << "declared twice: " << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(&stat_info(info.id), &info);
    if (info.keyed) {
      EXPECT_TRUE(info.name.ends_with('.') || info.name.ends_with('_')) << info.name;
      EXPECT_EQ(find_stat(stat_name(info.id, "some_key")), &info) << info.name;
    } else {
      EXPECT_EQ(find_stat(info.name), &info) << info.name;
    }
  }
}

// "records_written" and "records_dropped_after_stop" start like the keyed "records_<kind>": the exact name wins.
TEST(StatsCatalogue, AnExactNameWinsOverAKeyedFamily) {
  EXPECT_EQ(find_stat("records_written")->id, StatId::records_written);
  EXPECT_EQ(find_stat("records_dropped_after_stop")->id, StatId::records_dropped_after_stop);
  EXPECT_EQ(find_stat("records_kernel")->id, StatId::records_per_kind);
  // A family's bare prefix names no member.
  EXPECT_EQ(find_stat("records_"), nullptr);
}

TEST(StatsCatalogue, WritersNameStatsOnlyThroughTheCatalogue) {
  EXPECT_EQ(StatName(StatId::dropped_records).text(), "dropped_records");
  EXPECT_EQ(StatName(StatId::import_skipped, "counter").text(), "import.skipped.counter");
}

// A newer gpuprof or another tool may write names this one does not know: kept, described as unknown, and
// counted as lost data only when the name says "dropped", as before the catalogue.
TEST(StatsCatalogue, AnUnknownNameIsKeptAndJudgedByItsName) {
  EXPECT_EQ(find_stat("import.future.records_dropped"), nullptr);
  EXPECT_TRUE(reports_data_loss({"import.future.records_dropped", 3, Severity::info, std::nullopt}));
  EXPECT_FALSE(reports_data_loss({"import.future.records_dropped", 0, Severity::info, std::nullopt}));
  EXPECT_FALSE(reports_data_loss({"import.future.thing", 3, Severity::warning, std::nullopt}));
  EXPECT_NE(stat_description("import.future.thing").find("not in this gpuprof's catalogue"), std::string_view::npos);
  EXPECT_EQ(stat_description("dropped_records"), stat_info(StatId::dropped_records).description);
}

}  // namespace
}  // namespace gpuprof::trace
