#include <gtest/gtest.h>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

// The fixture is a file so the fuzz targets start from it too.
std::string nvprof_database_sql() {
  return testing::read_file(GPUPROF_SOURCE_DIR "/tests/importers/data/nvprof_database.sql");
}

TEST(NvprofImport, WritesExactRowsFromDocumentedSchema) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("run.nvvp");
  testing::write_sqlite_file(input, nvprof_database_sql());
  const auto summary = testing::import_file(input, folder.file("out.sqlite"));
  EXPECT_EQ(summary.format, importers::SourceFormat::nvprof);
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.meta.at("source_format"), "nvprof");

  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(model.devices[0].sm_count, 80);
  EXPECT_EQ(model.devices[0].memory_bandwidth_bps, 898048000000LL);

  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "kernel(float*)");  // nvprof stores CUPTI's mangled name
  EXPECT_EQ(model.string(model.kernels.mangled_name[0]), "_Z6kernelPf");
  EXPECT_EQ(model.kernels.start_ns[0], 5000);
  EXPECT_EQ(model.kernels.dynamic_shared_bytes[0], 128);

  ASSERT_EQ(model.memcpys.size(), 2u);
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::host_to_device);
  EXPECT_EQ(model.memcpys.src_memory_kind[0], trace::MemoryKind::pinned);
  EXPECT_EQ(model.memcpys.dst_memory_kind[0], trace::MemoryKind::device);
  EXPECT_EQ(model.memcpys.copy_kind[1], trace::CopyKind::peer_to_peer);
  EXPECT_EQ(model.memcpys.device[1], 1);
  EXPECT_EQ(model.memcpys.src_device[1], 1);
  EXPECT_EQ(model.memcpys.dst_device[1], 0);
  EXPECT_EQ(model.memcpys.bytes[1], 2048);

  ASSERT_EQ(model.memsets.size(), 1u);
  ASSERT_EQ(model.api_calls.size(), 2u);
  EXPECT_EQ(model.string(model.api_calls.name[0]), "cbid:9999");
  EXPECT_EQ(model.string(model.api_calls.name[1]), "cudaLaunchKernel");
  EXPECT_EQ(model.api_calls.process_id[1], 1234);

  ASSERT_EQ(model.syncs.size(), 1u);
  EXPECT_EQ(model.syncs.type[0], trace::SyncType::event);
  EXPECT_EQ(model.syncs.event[0], 3);
  EXPECT_EQ(model.syncs.stream[0], trace::kUnknown);
}

}  // namespace
}  // namespace gpuprof
