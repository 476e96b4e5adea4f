#include "export_test_support.hpp"

#include <zlib.h>

#include <stdexcept>

#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::testing {
namespace {

using trace::CopyKind;
using trace::MemoryKind;

constexpr std::int64_t kBase = 1'700'000'000'123'456'789;  // odd nanoseconds catch rounding
constexpr std::int64_t kProcess = 4242, kMainThread = 4243, kLoaderThread = 4250;

void add_devices(trace::TraceWriter& writer) {
  trace::DeviceRow first{.id = 0, .name = "NVIDIA H100 80GB HBM3"};
  first.compute_major = 9, first.compute_minor = 0, first.sm_count = 132, first.memory_bytes = 85'031'714'816;
  trace::DeviceRow second = first;
  second.id = 1;
  writer.add(first);
  writer.add(second);
}

void add_kernel(trace::TraceWriter& writer, std::int32_t device, std::int64_t stream, std::int64_t start,
                std::int64_t length, std::int64_t correlation, std::string_view name) {
  trace::KernelRow row;
  row.device = device, row.context = 1, row.stream = stream;
  row.start_ns = kBase + start, row.end_ns = kBase + start + length;
  row.correlation_id = correlation;
  row.name = writer.intern(name);
  row.grid = trace::Dim3{128, 2, 1}, row.block = trace::Dim3{256, 1, 1};
  row.registers_per_thread = 64;
  writer.add(row);
}

void add_copy(trace::TraceWriter& writer, CopyKind kind, std::optional<MemoryKind> source,
              std::optional<MemoryKind> destination, std::int64_t start,
              std::optional<std::int64_t> correlation) {
  trace::MemcpyRow row;
  row.device = 0, row.context = 1, row.stream = 7;
  row.start_ns = kBase + start, row.end_ns = kBase + start + 1'501;
  row.correlation_id = correlation;
  row.copy_kind = kind;
  row.src_memory_kind = source, row.dst_memory_kind = destination;
  // The devices a copy kind implies: what any importer of Kineto files can know.
  if (kind == CopyKind::host_to_device || kind == CopyKind::device_to_device) row.dst_device = 0;
  if (kind == CopyKind::device_to_host || kind == CopyKind::device_to_device) row.src_device = 0;
  if (kind == CopyKind::peer_to_peer) row.src_device = 0, row.dst_device = 1;
  row.bytes = 8 << 20;
  writer.add(row);
}

void add_call(trace::TraceWriter& writer, std::int64_t thread, std::int64_t start, std::int64_t correlation,
              std::string_view name, trace::ApiKind kind = trace::ApiKind::runtime) {
  trace::ApiCallRow row;
  row.process_id = kProcess, row.thread_id = thread;
  row.start_ns = kBase + start, row.end_ns = kBase + start + 999;
  row.correlation_id = correlation;
  row.name = writer.intern(name);
  row.kind = kind;
  writer.add(row);
}

void add_gpu_work(trace::TraceWriter& writer) {
  add_kernel(writer, 0, 7, 10'000, 20'001, 101, kQuotedKernelName);
  add_kernel(writer, 0, 7, 31'000, 5'000, 102, "relu_kernel");
  add_kernel(writer, 0, 13, 32'000, 7'777, 103, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  add_kernel(writer, 1, 7, 12'345, 4'321, 104, "relu_kernel");
  add_copy(writer, CopyKind::host_to_device, MemoryKind::pinned, MemoryKind::device, 1'000, 105);
  add_copy(writer, CopyKind::device_to_host, MemoryKind::device, MemoryKind::pageable, 40'000, 106);
  add_copy(writer, CopyKind::device_to_device, MemoryKind::device, MemoryKind::device, 42'000, 107);
  add_copy(writer, CopyKind::host_to_host, MemoryKind::pinned, MemoryKind::pageable, 44'000, 108);
  add_copy(writer, CopyKind::peer_to_peer, MemoryKind::device, MemoryKind::device, 46'000, 109);
  add_copy(writer, CopyKind::host_to_device, std::nullopt, std::nullopt, 48'000, std::nullopt);
  trace::MemsetRow memset;
  memset.device = 1, memset.context = 2, memset.stream = 7;
  memset.start_ns = kBase + 50'000, memset.end_ns = kBase + 50'333;
  memset.correlation_id = 110, memset.bytes = 4096;
  writer.add(memset);
}

void add_host_work(trace::TraceWriter& writer) {
  const char* names[] = {"cudaLaunchKernel", "cudaLaunchKernel", "cudaLaunchKernel", "cudaLaunchKernel",
                         "cudaMemcpyAsync",  "cudaMemcpyAsync",  "cudaMemcpyAsync",  "cudaMemcpy",
                         "cudaMemcpyPeerAsync"};
  for (std::int64_t i = 0; i < 9; ++i) add_call(writer, kMainThread, 100 + i * 1'000, 101 + i, names[i]);
  add_call(writer, kLoaderThread, 9'500, 110, "cuMemsetD32Async", trace::ApiKind::driver);
  trace::SyncRow sync;
  sync.process_id = kProcess, sync.thread_id = kMainThread;
  sync.start_ns = kBase + 10'050, sync.end_ns = kBase + 36'000;
  sync.type = trace::SyncType::stream, sync.device = 0, sync.stream = 7, sync.correlation_id = 111;
  writer.add(sync);
  trace::RangeRow step;
  step.process_id = kProcess, step.thread_id = kMainThread;
  step.start_ns = kBase + 50, step.end_ns = kBase + 60'000;
  step.name = writer.intern("step 1 \"train\"");
  step.domain = writer.intern("gpuprof");
  step.category = 3;
  writer.add(step);
  trace::RangeRow loader = step;
  loader.thread_id = kLoaderThread, loader.start_ns = kBase + 9'000, loader.end_ns = kBase + 9'400;
  loader.name = writer.intern("load batch");
  writer.add(loader);
  trace::RangeRow on_gpu;
  on_gpu.start_ns = kBase + 9'999, on_gpu.end_ns = kBase + 55'000;
  on_gpu.name = writer.intern("ProfilerStep#1");
  on_gpu.on_gpu = true, on_gpu.device = 0, on_gpu.stream = 7, on_gpu.correlation_id = 112;
  writer.add(on_gpu);
}

}  // namespace

void write_handcrafted_trace(const std::string& path) {
  trace::TraceWriter writer({path, trace::Durability::atomic, false, 500'000, "test"});
  writer.set_meta("rank", "1");
  writer.set_meta("world_size", "2");
  add_devices(writer);
  add_gpu_work(writer);
  add_host_work(writer);
  writer.finish();
}

exporters::ChromeTraceSummary export_file(const std::string& input, const std::string& output, bool overwrite) {
  return exporters::export_chrome_trace({{input}, output, overwrite});
}

std::string read_text(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) throw std::runtime_error("cannot read " + path);
  std::string text;
  char buffer[1 << 16];
  int count = 0;
  while ((count = gzread(file, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<std::size_t>(count));
  gzclose(file);
  return text;
}

rapidjson::Document parse_json(const std::string& path) {
  rapidjson::Document document;
  document.Parse(read_text(path).c_str());
  return document;
}

}  // namespace gpuprof::testing
