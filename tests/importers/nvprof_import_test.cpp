#include <gtest/gtest.h>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

// An nvprof database as documented: CUPTI enums as stored by CUPTI (pageable = 1),
// names in StringTable, peer copies in MEMCPY2, runtime calls by callback id.
const char* kNvprofDatabase = R"json(
CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringTable VALUES (1, '_Z6kernelPf'), (2, 'Tesla V100-SXM2-16GB');
CREATE TABLE CUPTI_ACTIVITY_KIND_DEVICE (_id_ INTEGER PRIMARY KEY, id INTEGER, name INTEGER,
  computeCapabilityMajor INTEGER, computeCapabilityMinor INTEGER, numMultiprocessors INTEGER,
  globalMemorySize INTEGER, globalMemoryBandwidth INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_DEVICE VALUES (1, 0, 2, 7, 0, 80, 16914055168, 898048000);
CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (_id_ INTEGER PRIMARY KEY, start INTEGER, end INTEGER,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, name INTEGER, gridX INTEGER,
  gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL VALUES (1, 5000, 6000, 0, 1, 7, 11, 1, 2, 1, 1, 64, 1, 1, 16,
  0, 128);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (_id_ INTEGER PRIMARY KEY, copyKind INTEGER, srcKind INTEGER,
  dstKind INTEGER, flags INTEGER, bytes INTEGER, start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, runtimeCorrelationId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (1, 1, 2, 3, 0, 1024, 4000, 4100, 0, 1, 7, 10, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY2 (_id_ INTEGER PRIMARY KEY, copyKind INTEGER, srcKind INTEGER,
  dstKind INTEGER, flags INTEGER, bytes INTEGER, start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, srcDeviceId INTEGER, srcContextId INTEGER, dstDeviceId INTEGER,
  dstContextId INTEGER, correlationId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY2 VALUES (1, 10, 3, 3, 0, 2048, 7000, 7300, 1, 2, 9, 1, 2, 0, 1, 12);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (_id_ INTEGER PRIMARY KEY, value INTEGER, bytes INTEGER, start INTEGER,
  end INTEGER, deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, flags INTEGER,
  memoryKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (1, 0, 256, 3000, 3010, 0, 1, 7, 9, 0, 3);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (_id_ INTEGER PRIMARY KEY, cbid INTEGER, start INTEGER, end INTEGER,
  processId INTEGER, threadId INTEGER, correlationId INTEGER, returnValue INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 211, 4900, 4950, 1234, 1235, 11, 0),
  (2, 9999, 100, 110, 1234, 1235, 8, 0);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (_id_ INTEGER PRIMARY KEY, type INTEGER, start INTEGER,
  end INTEGER, correlationId INTEGER, contextId INTEGER, streamId INTEGER, cudaEventId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (1, 1, 8000, 8100, 13, 1, 4294967295, 3);
)json";

TEST(NvprofImport, WritesExactRowsFromDocumentedSchema) {
  testing::TemporaryFolder folder;
  const std::string input = folder.file("run.nvvp");
  testing::write_sqlite_file(input, kNvprofDatabase);
  const auto summary = testing::import_file(input, folder.file("out.sqlite"));
  EXPECT_EQ(summary.format, importers::SourceFormat::nvprof);
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.meta.at("source_format"), "nvprof");

  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].name, "Tesla V100-SXM2-16GB");
  EXPECT_EQ(model.devices[0].sm_count, 80);
  EXPECT_EQ(model.devices[0].memory_bandwidth_bps, 898048000000LL);

  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "_Z6kernelPf");
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
