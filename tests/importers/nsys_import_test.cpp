#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

// The fixture is a file so the fuzz targets start from it too.
std::string nsys_export_sql() {
  return testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nsys_export.sql");
}

// nsys exports demangledName and, in newer versions, mangledName: nsys's own
// demangling is kept as the name and the mangled one beside it; a name left
// mangled (no mangledName column or value) is demangled on import.
TEST(NsysImport, KernelNamesAreDemangledWithTheMangledNameKept) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(
      input, nsys_export_sql() +
                 "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN mangledName INTEGER;"
                 "INSERT INTO StringIds VALUES (20, '_Z11gemm_kernelPfi'), (21, 'gemm_kernel(float *, int)'),"
                 "  (22, '_Z4reluPf');"
                 "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 21, mangledName = 20;"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId, correlationId,"
                 "  demangledName, mangledName) VALUES (2000, 2500, 0, 1, 7, 43, 22, NULL);");
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  ASSERT_EQ(model.kernels.size(), 2u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "gemm_kernel(float *, int)");
  EXPECT_EQ(model.string(model.kernels.mangled_name[0]), "_Z11gemm_kernelPfi");
  EXPECT_EQ(model.string(model.kernels.name[1]), "relu(float*)");
  EXPECT_EQ(model.string(model.kernels.mangled_name[1]), "_Z4reluPf");
}

// Rows whose end precedes their start, or with a 0 or missing time, are left out and counted
// per table: stored as they were, a reversed kernel read as a 1 ns kernel after overflow.
TEST(NsysImport, RowsWithoutUsableTimesAreDroppedAndCounted) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, nsys_export_sql() + R"sql(
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (2000, 1500, 0, 1, 7, 50, 0, 1, 1, 32, 4, 2, 1, 128, 1, 1, 256,
      1024, NULL), (0, 1500, 0, 1, 7, 51, 0, 1, 1, 32, 4, 2, 1, 128, 1, 1, 256, 1024, NULL);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (500, NULL, 0, 1, 7, 52, 4096, 1, 0, 2, 0, 0);
    INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (700, 690, 0, 1, 7, 53, 0, 512);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (995, 905, 0, 282323165693308, 54, 2, 0);
    INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (2500, 2400, 0, 1, 7, 55, 282323165069312, 3,
      4294967295);)sql");
  testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.memcpys.size(), 3u);
  EXPECT_EQ(model.memsets.size(), 1u);
  EXPECT_EQ(model.api_calls.size(), 3u);
  EXPECT_EQ(model.syncs.size(), 2u);
  std::map<std::string, std::int64_t> counted;
  for (const auto& stat : model.stats) {
    if (stat.name.rfind("import.nsys.invalid_times.", 0) == 0) counted[stat.name] = stat.value;
  }
  EXPECT_EQ(counted, (std::map<std::string, std::int64_t>{{"import.nsys.invalid_times.api_calls", 1},
                                                          {"import.nsys.invalid_times.kernels", 2},
                                                          {"import.nsys.invalid_times.memcpys", 1},
                                                          {"import.nsys.invalid_times.memsets", 1},
                                                          {"import.nsys.invalid_times.syncs", 1}}));
  for (std::size_t row = 0; row < model.kernels.size(); ++row) {
    EXPECT_LE(model.kernels.start_ns[row], model.kernels.end_ns[row]);
  }
}

TEST(NsysImport, WritesExactRowsAndSkipsNonCudaAdapters) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("report.sqlite");
  testing::write_sqlite_file(input, nsys_export_sql());
  const auto summary = testing::import_file(input, folder.file("out.sqlite"));
  EXPECT_EQ(summary.format, importers::SourceFormat::nsys);
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.meta.at("source_format"), "nsys");

  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].name, "GeForce GTX 1060");
  EXPECT_EQ(model.devices[0].compute_major, 6);
  EXPECT_EQ(model.devices[0].memory_bandwidth_bps, 192192000000LL);

  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "gemm_kernel");
  EXPECT_EQ(model.kernels.start_ns[0], 1000);
  EXPECT_EQ(model.kernels.end_ns[0], 1500);
  EXPECT_EQ(model.kernels.grid[0], (trace::Dim3{4, 2, 1}));
  EXPECT_EQ(model.kernels.block[0], (trace::Dim3{128, 1, 1}));
  EXPECT_EQ(model.kernels.static_shared_bytes[0], 256);
  EXPECT_EQ(model.kernels.dynamic_shared_bytes[0], 1024);
  EXPECT_EQ(model.kernels.correlation_id[0], 42);

  ASSERT_EQ(model.memcpys.size(), 3u);
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::host_to_device);
  EXPECT_EQ(model.memcpys.src_memory_kind[0], trace::MemoryKind::pageable);
  EXPECT_EQ(model.memcpys.dst_memory_kind[0], trace::MemoryKind::device);
  EXPECT_EQ(model.memcpys.copy_kind[1], trace::CopyKind::device_to_host);
  EXPECT_EQ(model.memcpys.dst_memory_kind[1], trace::MemoryKind::pinned);
  EXPECT_EQ(model.memcpys.copy_kind[2], trace::CopyKind::peer_to_peer);
  EXPECT_EQ(model.memcpys.src_device[2], 0);
  EXPECT_EQ(model.memcpys.dst_device[2], 1);

  ASSERT_EQ(model.memsets.size(), 1u);
  EXPECT_EQ(model.memsets.bytes[0], 512);

  // The GL call (eventClass 2) is counted, not imported; version suffixes are dropped.
  ASSERT_EQ(model.api_calls.size(), 3u);
  EXPECT_EQ(model.string(model.api_calls.name[0]), "cuInit");
  EXPECT_EQ(model.api_calls.kind[0], trace::ApiKind::driver);
  EXPECT_EQ(model.string(model.api_calls.name[1]), "cudaGetDeviceProperties_v2");
  EXPECT_EQ(model.string(model.api_calls.name[2]), "cudaLaunchKernel");
  EXPECT_EQ(model.api_calls.process_id[2], 50556);  // (282323165693308 >> 24) & 0xFFFFFF
  EXPECT_EQ(model.api_calls.thread_id[2], 282323165693308LL & 0xFFFFFF);

  ASSERT_EQ(model.syncs.size(), 2u);
  EXPECT_EQ(model.syncs.type[0], trace::SyncType::context);
  EXPECT_EQ(model.syncs.stream[0], trace::kUnknown);
  EXPECT_EQ(model.syncs.type[1], trace::SyncType::stream);
  EXPECT_EQ(model.syncs.stream[1], 7);

  ASSERT_EQ(model.ranges.size(), 1u);
  EXPECT_EQ(model.string(model.ranges.name[0]), "train");
  EXPECT_EQ(model.string(model.ranges.domain[0]), "my_domain");
  EXPECT_EQ(summary.counts.warnings, 1);  // the NVTX range without an end
}

}  // namespace
}  // namespace gpuprof
