#include "gpuprof/collector/activity_translator.hpp"

#include <gtest/gtest.h>

#include <map>

#include "cupti_record_builders.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::collector {
namespace {

using gpuprof::testing::api_record;
using gpuprof::testing::as_activity;
using gpuprof::testing::kernel_record;
using gpuprof::testing::marker_record;
using gpuprof::testing::memcpy_record;
using gpuprof::testing::zeroed;
using trace::kUnknown;
using trace::kUnknown32;

std::string api_name(trace::ApiKind kind, std::uint32_t callback_id) {
  if (kind == trace::ApiKind::runtime && callback_id == 211) return "cudaLaunchKernel";
  if (kind == trace::ApiKind::runtime && callback_id == 131) return "cudaStreamSynchronize";
  if (kind == trace::ApiKind::driver && callback_id == 307) return "cuLaunchKernel";
  return {};
}

// Translates records into a fresh trace file and loads it back.
class TranslatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    trace::WriterOptions options;
    options.path = path_;
    writer_ = std::make_unique<trace::TraceWriter>(options);
    translator_ = std::make_unique<ActivityTranslator>(*writer_, api_name);
  }

  void translate(const auto&... records) {
    (translator_->translate(as_activity(records)), ...);
    translator_->end_batch();
  }

  trace::TraceModel finish() {
    translator_->finish();
    writer_->finish();
    return trace::load_trace_model(path_);
  }

  std::map<std::string, trace::StatRow> stats() {
    std::map<std::string, trace::StatRow> by_name;
    for (auto& stat : trace::TraceFile(path_).stats()) {
      // Every name the collector writes is declared in the catalogue, so it is described and judged.
      EXPECT_NE(trace::find_stat(stat.name), nullptr) << stat.name;
      by_name[stat.name] = stat;
    }
    return by_name;
  }

  gpuprof::testing::TemporaryFolder folder_;
  std::string path_ = folder_.file("trace.sqlite");
  std::unique_ptr<trace::TraceWriter> writer_;
  std::unique_ptr<ActivityTranslator> translator_;
};

TEST_F(TranslatorTest, KernelRecordsBecomeKernelRowsWithAllFields) {
  auto plain = kernel_record("gemm_kernel", 1000, 2000, 11);
  auto in_graph = kernel_record("relu_kernel", 3000, 3500, 12);
  in_graph.graphNodeId = 77;
  translate(plain, in_graph);
  const auto model = finish();
  ASSERT_EQ(model.kernels.size(), 2u);
  const auto& k = model.kernels;
  EXPECT_EQ(model.string(k.name[0]), "gemm_kernel");
  EXPECT_EQ(k.device[0], 0);
  EXPECT_EQ(k.context[0], 1);
  EXPECT_EQ(k.stream[0], 7);
  EXPECT_EQ(k.start_ns[0], 1000);
  EXPECT_EQ(k.end_ns[0], 2000);
  EXPECT_EQ(k.correlation_id[0], 11);
  EXPECT_EQ(k.grid[0], (trace::Dim3{4, 2, 1}));
  EXPECT_EQ(k.block[0], (trace::Dim3{128, 1, 1}));
  EXPECT_EQ(k.registers_per_thread[0], 32);
  EXPECT_EQ(k.static_shared_bytes[0], 1024);
  EXPECT_EQ(k.dynamic_shared_bytes[0], 2048);
  EXPECT_EQ(k.graph_node_id[0], kUnknown);
  EXPECT_EQ(model.string(k.name[1]), "relu_kernel");
  EXPECT_EQ(k.graph_node_id[1], 77);
  EXPECT_EQ(stats().at("records_kernel").value, 2);
}

// CUPTI names the workloads' own C++ kernels by their mangled symbols.
TEST_F(TranslatorTest, MangledKernelNamesAreStoredDemangledWithTheMangledNameKept) {
  translate(kernel_record("_Z13linear_kernelPKfS0_Pfiii", 1000, 2000, 11),
            kernel_record("_Z13linear_kernelPKfS0_Pfiii", 3000, 4000, 12), kernel_record("gemm_kernel", 5000, 6000, 13));
  const auto model = finish();
  ASSERT_EQ(model.kernels.size(), 3u);
  const auto& k = model.kernels;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(model.string(k.name[i]), "linear_kernel(float const*, float const*, float*, int, int, int)");
    EXPECT_EQ(model.string(k.mangled_name[i]), "_Z13linear_kernelPKfS0_Pfiii");
  }
  EXPECT_EQ(k.name[0], k.name[1]);
  EXPECT_EQ(model.string(k.name[2]), "gemm_kernel");
  EXPECT_EQ(k.mangled_name[2], trace::kNoString);
}

// A program that exits with kernels in flight: their launch records arrived,
// their kernel records never will. The loss is a warning stat, not silence.
TEST_F(TranslatorTest, KernelsLaunchedButNeverRecordedAreCountedAsDroppedAtExit) {
  auto failed_launch = api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 90, 95, 4);
  failed_launch.returnValue = 1;  // launched nothing
  auto graph_kernel = kernel_record("from_graph", 900, 950, 5);
  graph_kernel.graphId = 3;  // launched by cudaGraphLaunch, which is not a one-kernel launch
  translate(kernel_record("early", 100, 200, 2), api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 10, 20, 1),
            api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 30, 40, 2),
            api_record(CUPTI_ACTIVITY_KIND_DRIVER, 307, 32, 38, 2),  // the driver call inside the runtime one
            api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 50, 60, 3), failed_launch, graph_kernel);
  translate(kernel_record("done", 300, 400, 1));
  finish();
  const auto lost = stats().at("dropped.in_flight_at_exit");
  EXPECT_EQ(lost.value, 1);  // correlation 3
  EXPECT_EQ(lost.severity, trace::Severity::warning);
  EXPECT_EQ(stats().count("dropped.in_flight_at_exit_unchecked"), 0u);
}

TEST_F(TranslatorTest, WithoutLaunchRecordsTheLossAtExitIsMarkedUnchecked) {
  translate(kernel_record("k", 100, 200, 1));
  finish();
  EXPECT_EQ(stats().count("dropped.in_flight_at_exit"), 0u);
  EXPECT_EQ(stats().at("dropped.in_flight_at_exit_unchecked").severity, trace::Severity::info);
}

TEST_F(TranslatorTest, CopiesMapKindsMemoryAndDevices) {
  const auto to_device = memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
                                       CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 4096, 100, 200, 1);
  const auto to_host = memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                     CUPTI_ACTIVITY_MEMORY_KIND_PINNED, 2048, 300, 400, 2);
  const auto on_device = memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
                                       CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 1024, 500, 600, 3);
  const auto managed = memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOH, CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC,
                                     CUPTI_ACTIVITY_MEMORY_KIND_PINNED, 8, 700, 800, 4);
  auto peer = zeroed<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2);
  peer.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  peer.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  peer.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  peer.bytes = 1 << 20;
  peer.start = 900, peer.end = 1900;
  peer.deviceId = 0, peer.contextId = 1, peer.streamId = 7;
  peer.srcDeviceId = 0, peer.srcContextId = 1, peer.dstDeviceId = 1, peer.dstContextId = 2;
  peer.correlationId = 5;
  translate(to_device, to_host, on_device, managed, peer);
  const auto model = finish();
  const auto& m = model.memcpys;
  ASSERT_EQ(m.size(), 5u);
  using trace::CopyKind;
  using trace::MemoryKind;
  const std::vector<CopyKind> kinds = {CopyKind::host_to_device, CopyKind::device_to_host, CopyKind::device_to_device,
                                       CopyKind::host_to_host, CopyKind::peer_to_peer};
  const std::vector<MemoryKind> sources = {MemoryKind::pageable, MemoryKind::device, MemoryKind::device,
                                           MemoryKind::managed, MemoryKind::device};
  const std::vector<MemoryKind> destinations = {MemoryKind::device, MemoryKind::pinned, MemoryKind::device,
                                                MemoryKind::pinned, MemoryKind::device};
  const std::vector<std::int32_t> source_devices = {kUnknown32, 0, 0, kUnknown32, 0};
  const std::vector<std::int32_t> destination_devices = {0, kUnknown32, 0, kUnknown32, 1};
  const std::vector<std::int64_t> bytes = {4096, 2048, 1024, 8, 1 << 20};
  for (std::size_t i = 0; i < m.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(m.copy_kind[i], kinds[i]);
    EXPECT_EQ(m.src_memory_kind[i], sources[i]);
    EXPECT_EQ(m.dst_memory_kind[i], destinations[i]);
    EXPECT_EQ(m.src_device[i], source_devices[i]);
    EXPECT_EQ(m.dst_device[i], destination_devices[i]);
    EXPECT_EQ(m.bytes[i], bytes[i]);
    EXPECT_EQ(m.correlation_id[i], static_cast<std::int64_t>(i + 1));
  }
  EXPECT_EQ(stats().at("records_memcpy").value, 4);
  EXPECT_EQ(stats().at("records_memcpy_peer").value, 1);
}

TEST_F(TranslatorTest, MemsetKeepsBytesAndCorrelation) {
  auto memset = zeroed<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  memset.bytes = 256, memset.start = 10, memset.end = 20, memset.correlationId = 9;
  memset.deviceId = 1, memset.contextId = 2, memset.streamId = 13;
  translate(memset);
  const auto model = finish();
  ASSERT_EQ(model.memsets.size(), 1u);
  EXPECT_EQ(model.memsets.bytes[0], 256);
  EXPECT_EQ(model.memsets.device[0], 1);
  EXPECT_EQ(model.memsets.stream[0], 13);
  EXPECT_EQ(model.memsets.correlation_id[0], 9);
}

CUpti_ActivityMemory4 memory_record(CUpti_ActivityMemoryOperationType operation, std::uint64_t bytes,
                                    std::uint64_t timestamp, std::uint32_t device = 0) {
  auto record = zeroed<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  record.memoryOperationType = operation;
  record.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  record.bytes = bytes, record.timestamp = timestamp, record.deviceId = device;
  record.contextId = CUPTI_INVALID_CONTEXT_ID, record.streamId = CUPTI_INVALID_STREAM_ID;
  return record;
}

// CUPTI's memory activity (MEMORY2): allocations and frees with their kind, address and call.
TEST_F(TranslatorTest, MemoryRecordsBecomeMemoryEvents) {
  auto alloc = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION, 4096, 100, 1);
  alloc.address = 0x7f0000001000, alloc.correlationId = 12, alloc.contextId = 2, alloc.streamId = 13;
  auto pinned = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION, 64, 110);
  pinned.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  auto odd_kind = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE, 64, 120);
  odd_kind.memoryKind = static_cast<CUpti_ActivityMemoryKind>(0x1003);
  translate(alloc, pinned, odd_kind);
  const auto model = finish();
  const auto& m = model.memory_events;
  ASSERT_EQ(m.size(), 3u);
  // Sorted by device: device 0's two events come first.
  EXPECT_EQ(m.memory_kind[0], trace::MemoryKind::pinned);
  EXPECT_EQ(m.operation[1], trace::MemoryOperation::free);
  EXPECT_EQ(m.memory_kind[1], trace::MemoryKind::unknown);  // not truncated into a known kind
  EXPECT_EQ(m.context[0], trace::kUnknown);
  EXPECT_EQ(m.stream[0], trace::kUnknown);
  EXPECT_EQ(m.correlation_id[0], trace::kUnknown);
  EXPECT_EQ(m.address[0], trace::kUnknown);
  EXPECT_EQ(m.device[2], 1);
  EXPECT_EQ(m.time_ns[2], 100);
  EXPECT_EQ(m.bytes[2], 4096);
  EXPECT_EQ(m.address[2], 0x7f0000001000);
  EXPECT_EQ(m.correlation_id[2], 12);
  EXPECT_EQ(m.context[2], 2);
  EXPECT_EQ(m.stream[2], 13);
  EXPECT_EQ(m.memory_kind[2], trace::MemoryKind::device);
  EXPECT_EQ(stats().at("records_memory").value, 3);
}

TEST_F(TranslatorTest, MalformedMemoryRecordsAreProblemsNotRows) {
  const auto invalid = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_INVALID, 8, 10);
  const auto no_time = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION, 8, 0);
  const auto no_device = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION, 8, 10, 0xFFFFFFFFu);
  const auto huge = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE, 1ull << 63, 10);
  const auto wrapped_time = memory_record(CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE, 8, 1ull << 63);
  translate(invalid, no_time, no_device, huge, wrapped_time);
  EXPECT_EQ(finish().memory_events.size(), 0u);
  const auto by_name = stats();
  EXPECT_EQ(by_name.at("problem_memory_unknown_operation").value, 1);
  EXPECT_EQ(by_name.at("problem_missing_timestamp").value, 2);
  EXPECT_EQ(by_name.at("problem_memory_without_device").value, 1);
  EXPECT_EQ(by_name.at("problem_memory_size_out_of_range").value, 1);
}

TEST_F(TranslatorTest, ApiCallsAreNamedAndKeepCorrelationIds) {
  translate(api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 211, 50, 60, 11),
            api_record(CUPTI_ACTIVITY_KIND_DRIVER, 307, 52, 58, 11),
            api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 999, 70, 80, 12));
  const auto model = finish();
  const auto& a = model.api_calls;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(model.string(a.name[0]), "cudaLaunchKernel");
  EXPECT_EQ(a.kind[0], trace::ApiKind::runtime);
  EXPECT_EQ(model.string(a.name[1]), "cuLaunchKernel");
  EXPECT_EQ(a.kind[1], trace::ApiKind::driver);
  EXPECT_EQ(model.string(a.name[2]), "runtime_api_999");
  EXPECT_EQ(a.correlation_id[0], 11);
  EXPECT_EQ(a.process_id[0], 100);
  EXPECT_EQ(a.thread_id[0], 200);
  EXPECT_EQ(a.return_code[0], 0);
}

TEST_F(TranslatorTest, SyncsGetTypeDeviceThreadAndOptionalStreamOrEvent) {
  auto stream_sync = zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  stream_sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
  stream_sync.start = 100, stream_sync.end = 900, stream_sync.correlationId = 21;
  stream_sync.contextId = 1, stream_sync.streamId = 7, stream_sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  auto event_sync = stream_sync;
  event_sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE;
  event_sync.start = 1000, event_sync.end = 1100, event_sync.correlationId = 22;
  event_sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE, event_sync.cudaEventId = 5;
  auto context_sync = event_sync;
  context_sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  context_sync.start = 1200, context_sync.end = 1300, context_sync.correlationId = 23;
  context_sync.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  // The sync record comes before its API record, as it may in a real buffer.
  translate(stream_sync, api_record(CUPTI_ACTIVITY_KIND_RUNTIME, 131, 90, 910, 21), event_sync, context_sync,
            kernel_record("k", 50, 60, 1));
  const auto model = finish();
  const auto& s = model.syncs;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s.type[0], trace::SyncType::stream);
  EXPECT_EQ(s.stream[0], 7);
  EXPECT_EQ(s.event[0], kUnknown);
  EXPECT_EQ(s.device[0], 0);
  EXPECT_EQ(s.process_id[0], 100);
  EXPECT_EQ(s.thread_id[0], 200);
  EXPECT_EQ(s.correlation_id[0], 21);
  EXPECT_EQ(s.type[1], trace::SyncType::event);
  EXPECT_EQ(s.stream[1], kUnknown);
  EXPECT_EQ(s.event[1], 5);
  EXPECT_EQ(s.thread_id[1], kUnknown);  // no API record with its correlation id
  EXPECT_EQ(s.type[2], trace::SyncType::context);
}

TEST_F(TranslatorTest, NvtxPushPopAndStartEndRangesArePairedWithDomainsAndCategories) {
  auto step_data = zeroed<CUpti_ActivityMarkerData2>(CUPTI_ACTIVITY_KIND_MARKER_DATA);
  step_data.id = 1, step_data.category = 3;
  translate(marker_record(1, CUPTI_ACTIVITY_FLAG_MARKER_START, 5000, "step 1"), step_data,
            marker_record(3, CUPTI_ACTIVITY_FLAG_MARKER_START, 5500, "forward"),
            marker_record(2, CUPTI_ACTIVITY_FLAG_MARKER_START, 6000, "load batch", "io"));
  // The ends arrive in a later buffer.
  translate(marker_record(2, CUPTI_ACTIVITY_FLAG_MARKER_END, 7000),
            marker_record(3, CUPTI_ACTIVITY_FLAG_MARKER_END, 8000),
            marker_record(1, CUPTI_ACTIVITY_FLAG_MARKER_END, 9000),
            marker_record(4, CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, 9500, "checkpoint", "io"));
  const auto model = finish();
  const auto& r = model.ranges;
  ASSERT_EQ(r.size(), 4u);  // sorted by start
  EXPECT_EQ(model.string(r.name[0]), "step 1");
  EXPECT_EQ(r.start_ns[0], 5000);
  EXPECT_EQ(r.end_ns[0], 9000);
  EXPECT_EQ(r.domain[0], trace::kNoString);
  EXPECT_EQ(r.category[0], 3);
  EXPECT_EQ(r.process_id[0], 100);
  EXPECT_EQ(r.thread_id[0], 200);
  EXPECT_EQ(r.on_gpu[0], 0);
  EXPECT_EQ(model.string(r.name[1]), "forward");
  EXPECT_EQ(r.end_ns[1], 8000);
  EXPECT_EQ(r.category[1], kUnknown);
  EXPECT_EQ(model.string(r.name[2]), "load batch");
  EXPECT_EQ(model.string(r.domain[2]), "io");
  EXPECT_EQ(r.end_ns[2], 7000);
  EXPECT_EQ(model.string(r.name[3]), "checkpoint");
  EXPECT_EQ(r.start_ns[3], r.end_ns[3]);
  EXPECT_EQ(stats().count("problem_unclosed_ranges"), 0u);
}

TEST_F(TranslatorTest, UnpairedNvtxRecordsAreCountedNotInvented) {
  translate(marker_record(50, CUPTI_ACTIVITY_FLAG_MARKER_START, 100, "never ends"),
            marker_record(99, CUPTI_ACTIVITY_FLAG_MARKER_END, 200));
  const auto model = finish();
  EXPECT_EQ(model.ranges.size(), 0u);
  const auto by_name = stats();
  EXPECT_EQ(by_name.at("problem_unclosed_ranges").value, 1);
  EXPECT_EQ(by_name.at("problem_range_end_without_start").value, 1);
  EXPECT_EQ(by_name.at("problem_range_end_without_start").severity, trace::Severity::warning);
}

TEST_F(TranslatorTest, DeviceNameAndOverheadRecords) {
  auto device = zeroed<CUpti_ActivityDevice5>(CUPTI_ACTIVITY_KIND_DEVICE);
  device.id = 0, device.name = "Test GPU";
  device.computeCapabilityMajor = 9, device.computeCapabilityMinor = 0, device.numMultiprocessors = 132;
  device.globalMemorySize = 80ull << 30, device.globalMemoryBandwidth = 3'000'000'000ull;
  for (int i = 0; i < 16; ++i) device.uuid.bytes[i] = static_cast<char>(i);
  auto thread_name = zeroed<CUpti_ActivityName>(CUPTI_ACTIVITY_KIND_NAME);
  thread_name.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  thread_name.objectId.pt.processId = 100, thread_name.objectId.pt.threadId = 200;
  thread_name.name = "data loader";
  auto overhead = zeroed<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
  overhead.start = 100, overhead.end = 350;
  translate(device, thread_name, overhead, overhead);
  translator_->merge_device({.id = 0, .pci_bus_id = "0000:17:00.0"});
  const auto model = finish();
  ASSERT_EQ(model.devices.size(), 1u);
  const auto& row = model.devices[0];
  EXPECT_EQ(row.name, "Test GPU");
  EXPECT_EQ(row.uuid, "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
  EXPECT_EQ(row.pci_bus_id, "0000:17:00.0");
  EXPECT_EQ(row.compute_major, 9);
  EXPECT_EQ(row.sm_count, 132);
  EXPECT_EQ(row.memory_bytes, std::int64_t{80} << 30);
  EXPECT_EQ(row.memory_bandwidth_bps, 3'000'000'000'000);
  EXPECT_EQ(model.meta.at("thread_name.100.200"), "data loader");
  EXPECT_EQ(stats().at("cupti_overhead_ns").value, 500);
}

TEST_F(TranslatorTest, UnknownKindsAndMalformedRecordsAreProblemsNotRows) {
  const auto unknown = zeroed<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_PC_SAMPLING);
  const auto backwards = kernel_record("backwards", 2000, 1000, 1);
  const auto no_start = memcpy_record(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED,
                                      CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, 16, 0, 10, 2);
  const auto odd_copy = memcpy_record(static_cast<CUpti_ActivityMemcpyKind>(77), CUPTI_ACTIVITY_MEMORY_KIND_UNKNOWN,
                                      static_cast<CUpti_ActivityMemoryKind>(42), 16, 10, 20, 3);
  const auto unnamed = kernel_record(nullptr, 10, 20, 4);
  auto odd_sync = zeroed<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  odd_sync.type = static_cast<CUpti_ActivitySynchronizationType>(99);
  odd_sync.start = 1, odd_sync.end = 2;
  translate(unknown, backwards, no_start, odd_copy, unnamed, odd_sync);
  const auto model = finish();
  EXPECT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "(unnamed kernel)");
  ASSERT_EQ(model.memcpys.size(), 1u);
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::unknown);
  EXPECT_EQ(model.memcpys.src_memory_kind[0], trace::MemoryKind::unknown);
  EXPECT_EQ(model.memcpys.dst_memory_kind[0], trace::MemoryKind::unknown);
  EXPECT_EQ(model.syncs.size(), 1u);
  EXPECT_EQ(model.syncs.type[0], trace::SyncType::unknown);
  const auto by_name = stats();
  EXPECT_EQ(by_name.at("problem_unknown_record_kind").value, 1);
  EXPECT_EQ(by_name.at("problem_end_before_start").value, 1);
  EXPECT_EQ(by_name.at("problem_missing_timestamp").value, 1);
  EXPECT_EQ(by_name.at("problem_unknown_copy_kind").value, 1);
  EXPECT_EQ(by_name.at("problem_unnamed_kernel").value, 1);
  EXPECT_EQ(by_name.at("problem_unknown_sync_type").value, 1);
  EXPECT_EQ(by_name.at("records_kind_30").value, 1);
}

}  // namespace
}  // namespace gpuprof::collector
