// Every table written by TraceWriter comes back unchanged through TraceFile
// and the in-memory model, NULLs included.
#include <gtest/gtest.h>

#include "gpuprof/trace/derived_tables.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::trace {
namespace {

struct Fixture {
  DeviceRow device;
  DeviceLinkRow link;
  KernelRow kernel, bare_kernel;
  MemcpyRow peer_copy;
  MemsetRow memset;
  ApiCallRow api_call;
  SyncRow sync;
  RangeRow host_range, gpu_range;
  StatRow stat;
};

Fixture write_fixture(const std::string& path) {
  Fixture f;
  TraceWriter writer({.path = path, .tool_version = "test"});
  f.device = {.id = 1, .name = "GPU One", .uuid = "GPU-1", .pci_bus_id = "0000:18:00.0", .compute_major = 9,
              .compute_minor = 0, .sm_count = 132, .memory_bytes = 80LL << 30, .memory_bandwidth_bps = 3'000'000'000'000,
              .host_link_bandwidth_bps = std::nullopt};
  f.link = {.src_device = 0, .dst_device = 1, .peer_access = true, .link_kind = "nvlink", .performance_rank = 0};
  f.kernel = {.device = 1, .context = 1, .stream = 7, .start_ns = 100, .end_ns = 250, .correlation_id = 11,
              .name = writer.intern("gemm"), .grid = Dim3{4, 2, 1}, .block = Dim3{128, 1, 1},
              .registers_per_thread = 64, .static_shared_bytes = 1024, .dynamic_shared_bytes = 0, .graph_node_id = 77,
              .mangled_name = writer.intern("_Z4gemmv")};
  f.bare_kernel = {.device = 0, .start_ns = 5, .end_ns = 6, .name = writer.intern("tiny")};
  f.peer_copy = {.device = 0, .context = 1, .stream = 9, .start_ns = 300, .end_ns = 400, .correlation_id = 12,
                 .copy_kind = CopyKind::peer_to_peer, .src_memory_kind = MemoryKind::device,
                 .dst_memory_kind = MemoryKind::device, .src_device = 0, .dst_device = 1, .bytes = 1 << 20};
  f.memset = {.device = 1, .context = 1, .stream = 7, .start_ns = 50, .end_ns = 60, .correlation_id = 13, .bytes = 4096};
  f.api_call = {.process_id = 10, .thread_id = 20, .start_ns = 90, .end_ns = 95, .correlation_id = 11,
                .name = writer.intern("cudaLaunchKernel"), .kind = ApiKind::runtime, .return_code = 0};
  f.sync = {.process_id = 10, .thread_id = 20, .start_ns = 96, .end_ns = 260, .type = SyncType::stream, .device = 1,
            .stream = 7, .event = std::nullopt, .correlation_id = 14};
  f.host_range = {.process_id = 10, .thread_id = 20, .start_ns = 80, .end_ns = 270, .name = writer.intern("step 0"),
                  .domain = writer.intern("gpuprof"), .category = 3};
  f.gpu_range = {.start_ns = 100, .end_ns = 400, .name = writer.intern("ProfilerStep#1"), .on_gpu = true,
                 .device = 1, .stream = 7};
  f.stat = {.name = "dropped_records", .value = 3, .severity = Severity::warning, .detail = "buffers full"};
  writer.set_meta("rank", "2");
  writer.set_meta("world_size", "4");
  writer.add(f.device);
  writer.add(f.link);
  writer.add(f.kernel);
  writer.add(f.bare_kernel);
  writer.add(f.peer_copy);
  writer.add(f.memset);
  writer.add(f.api_call);
  writer.add(f.sync);
  writer.add(f.host_range);
  writer.add(f.gpu_range);
  writer.set_stat({.name = "dropped_records", .value = 1, .severity = Severity::info});
  writer.set_stat(f.stat);  // replaces the earlier value of the same name
  writer.finish();
  return f;
}

TEST(RoundTrip, TraceFileReadsBackMetadataDevicesAndStats) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  const auto f = write_fixture(path);
  TraceFile file(path);
  EXPECT_EQ(file.schema_version_text(), "1.4");
  EXPECT_EQ(file.meta_value("format"), "gpuprof.trace");
  EXPECT_EQ(file.meta_value("tool_version"), "test");
  EXPECT_EQ(file.meta_value("rank"), "2");
  ASSERT_EQ(file.devices().size(), 1U);
  EXPECT_EQ(file.devices()[0], f.device);
  ASSERT_EQ(file.device_links().size(), 1U);
  EXPECT_EQ(file.device_links()[0], f.link);
  ASSERT_EQ(file.stats().size(), 1U);
  EXPECT_EQ(file.stats()[0], f.stat);
  const auto counts = file.counts();
  ASSERT_GE(counts.size(), 6U);
  EXPECT_EQ(counts[0].table, "kernels");
  EXPECT_EQ(counts[0].rows, 2);
}

TEST(RoundTrip, ModelHoldsEveryColumn) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  const auto f = write_fixture(path);
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.rank(), 2);
  EXPECT_EQ(model.world_size(), 4);
  ASSERT_EQ(model.kernels.size(), 2U);
  // Sorted by (device, stream): the bare kernel (device 0, unknown stream) comes first.
  EXPECT_EQ(model.kernels.device[0], 0);
  EXPECT_EQ(model.kernels.stream[0], kUnknown);
  EXPECT_EQ(model.kernels.correlation_id[0], kUnknown);
  EXPECT_EQ(model.kernels.grid[0], (Dim3{0, 0, 0}));
  EXPECT_EQ(model.kernels.registers_per_thread[0], kUnknown32);
  EXPECT_EQ(model.string(model.kernels.name[1]), "gemm");
  EXPECT_EQ(model.kernels.grid[1], (Dim3{4, 2, 1}));
  EXPECT_EQ(model.kernels.block[1], (Dim3{128, 1, 1}));
  EXPECT_EQ(model.kernels.graph_node_id[1], 77);
  EXPECT_EQ(model.kernels.static_shared_bytes[1], 1024);
  EXPECT_EQ(model.string(model.kernels.mangled_name[1]), "_Z4gemmv");
  EXPECT_EQ(model.kernels.mangled_name[0], kNoString);
  ASSERT_EQ(model.kernel_streams.size(), 2U);
  EXPECT_EQ(model.kernel_streams[1].device, 1);
  EXPECT_EQ(model.kernel_streams[1].stream, 7);

  ASSERT_EQ(model.memcpys.size(), 1U);
  EXPECT_EQ(model.memcpys.copy_kind[0], CopyKind::peer_to_peer);
  EXPECT_EQ(model.memcpys.src_device[0], 0);
  EXPECT_EQ(model.memcpys.dst_device[0], 1);
  EXPECT_EQ(model.memcpys.bytes[0], 1 << 20);
  EXPECT_EQ(model.memsets.bytes[0], 4096);

  ASSERT_EQ(model.api_calls.size(), 1U);
  EXPECT_EQ(model.string(model.api_calls.name[0]), "cudaLaunchKernel");
  EXPECT_EQ(model.api_calls.correlation_id[0], 11);
  ASSERT_EQ(model.syncs.size(), 1U);
  EXPECT_EQ(model.syncs.type[0], SyncType::stream);
  EXPECT_EQ(model.syncs.event[0], kUnknown);

  ASSERT_EQ(model.ranges.size(), 2U);
  EXPECT_EQ(model.string(model.ranges.name[0]), "step 0");  // sorted by start: 80 before 100
  EXPECT_EQ(model.string(model.ranges.domain[0]), "gpuprof");
  EXPECT_EQ(model.ranges.on_gpu[1], 1);
  EXPECT_EQ(model.ranges.domain[1], kNoString);
  EXPECT_EQ(model.ranges.process_id[1], kUnknown);
  EXPECT_EQ(model.device_ids(), (std::vector<std::int32_t>{0, 1}));
  EXPECT_EQ(model.event_count(), 8U);
}

TEST(RoundTrip, DerivedTablesAreReplacedAndTheRestKept) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_fixture(path);
  const std::vector<StepRow> steps = {{.rank = 2, .device = 1, .step = 0, .start_ns = 100, .end_ns = 250,
                                       .busy_ns = 150, .warmup = true}};
  const std::vector<GapRow> gaps = {{.rank = 2, .device = 1, .after_step = 0, .start_ns = 250, .end_ns = 300,
                                     .cause = "sync"}};
  save_derived_tables(path, steps, gaps);
  save_derived_tables(path, steps, gaps);  // saving twice replaces, never duplicates
  TraceFile file(path);
  EXPECT_EQ(file.steps(), steps);
  EXPECT_EQ(file.gaps(), gaps);
  EXPECT_EQ(load_trace_model(path).kernels.size(), 2U);
}

TEST(RoundTrip, StringsAreInternedOnce) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  {
    TraceWriter writer({.path = path});
    const auto first = writer.intern("ncclDevKernel_AllReduce");
    EXPECT_EQ(writer.intern("ncclDevKernel_AllReduce"), first);
    EXPECT_NE(writer.intern("other"), first);
    EXPECT_EQ(writer.intern(std::string("ncclDevKernel_") + "AllReduce"), first);
    writer.finish();
  }
  TraceFile file(path);
  EXPECT_EQ(file.strings().values, (std::vector<std::string>{"ncclDevKernel_AllReduce", "other"}));
}

}  // namespace
}  // namespace gpuprof::trace

namespace gpuprof::trace {
namespace {

TEST(RoundTrip, KernelLaunchDetailsCanBeSkipped) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_fixture(path);
  const auto model = load_trace_model(path, {.load_kernel_launch_details = false});
  ASSERT_EQ(model.kernels.size(), 2U);
  EXPECT_EQ(model.string(model.kernels.name[1]), "gemm");
  EXPECT_EQ(model.kernels.correlation_id[1], 11);
  EXPECT_TRUE(model.kernels.grid.empty());
  EXPECT_TRUE(model.kernels.graph_node_id.empty());
  EXPECT_TRUE(model.kernels.mangled_name.empty());
  EXPECT_EQ(model.kernels.start_ns, load_trace_model(path).kernels.start_ns);
}

// Files of schema 1.0 have no kernels.mangled_name_id; they load with every mangled name unknown.
TEST(RoundTrip, Schema10FilesWithoutMangledNamesStillLoad) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_fixture(path);
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute(
      "CREATE TABLE old_kernels AS SELECT device, context, stream, start_ns, end_ns, correlation_id, name_id, "
      "grid_x, grid_y, grid_z, block_x, block_y, block_z, registers_per_thread, static_shared_bytes, "
      "dynamic_shared_bytes, graph_node_id FROM kernels; DROP TABLE kernels; "
      "ALTER TABLE old_kernels RENAME TO kernels; PRAGMA user_version = 1000;");
  database.close();
  EXPECT_EQ(TraceFile(path).schema_version_text(), "1.0");
  const auto model = load_trace_model(path);
  ASSERT_EQ(model.kernels.size(), 2U);
  EXPECT_EQ(model.string(model.kernels.name[1]), "gemm");
  EXPECT_EQ(model.kernels.graph_node_id[1], 77);
  EXPECT_EQ(model.kernels.mangled_name, (std::vector<StringId>{kNoString, kNoString}));
}

}  // namespace
}  // namespace gpuprof::trace

namespace gpuprof::trace {
namespace {

CollectiveRow write_collective_fixture(const std::string& path) {
  TraceWriter writer({.path = path, .tool_version = "test"});
  writer.add(KernelRow{.device = 1, .start_ns = 100, .end_ns = 200, .correlation_id = 11,
                       .name = writer.intern("ncclKernel_AllReduce_RING_LL_Sum_float")});
  const CollectiveRow row{.device = 1, .correlation_id = 11, .name = writer.intern("allreduce"),
                          .in_elements = 256, .out_elements = 256, .in_bytes = 1024, .out_bytes = 1024,
                          .dtype = writer.intern("Float"), .group_size = 4, .process_group = writer.intern("0"),
                          .group_description = writer.intern("default_pg"),
                          .group_ranks = writer.intern("[0, 1, 2, 3]")};
  writer.add(row);
  writer.add(CollectiveRow{.device = 0, .correlation_id = 12, .name = writer.intern("barrier")});
  writer.finish();
  return row;
}

TEST(RoundTrip, CollectivesComeBackWithTheirNulls) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  const auto row = write_collective_fixture(path);
  const auto model = load_trace_model(path);
  const auto& c = model.collectives;
  ASSERT_EQ(c.size(), 2U);
  EXPECT_EQ(c.device[0], 1);
  EXPECT_EQ(c.correlation_id[0], 11);
  EXPECT_EQ(model.string(c.name[0]), "allreduce");
  EXPECT_EQ(c.in_elements[0], 256);
  EXPECT_EQ(c.out_bytes[0], 1024);
  EXPECT_EQ(model.string(c.dtype[0]), "Float");
  EXPECT_EQ(c.group_size[0], 4);
  EXPECT_EQ(model.string(c.process_group[0]), "0");
  EXPECT_EQ(model.string(c.group_description[0]), "default_pg");
  EXPECT_EQ(model.string(c.group_ranks[0]), "[0, 1, 2, 3]");
  EXPECT_EQ(c.in_bytes[1], kUnknown);
  EXPECT_EQ(c.group_size[1], kUnknown);
  EXPECT_EQ(c.dtype[1], kNoString);
  EXPECT_EQ(c.group_ranks[1], kNoString);
  EXPECT_EQ(row.in_bytes, 1024);
}

// Files of schema 1.1 have no collectives table; they load with no collective known.
TEST(RoundTrip, Schema11FilesWithoutCollectivesStillLoad) {
  testing::TemporaryFolder folder;
  const auto path = folder.file("t.sqlite");
  write_collective_fixture(path);
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute("DROP TABLE collectives; PRAGMA user_version = 1001;");
  database.close();
  EXPECT_EQ(TraceFile(path).schema_version_text(), "1.1");
  const auto model = load_trace_model(path);
  EXPECT_EQ(model.kernels.size(), 1U);
  EXPECT_EQ(model.collectives.size(), 0U);
  for (const auto& stat : model.stats) EXPECT_FALSE(stat.name.starts_with("load.invalid")) << stat.name;
}

}  // namespace
}  // namespace gpuprof::trace
