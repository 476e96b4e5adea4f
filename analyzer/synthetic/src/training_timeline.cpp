#include "training_timeline.hpp"

#include <algorithm>
#include <string>

namespace gpuprof::synthetic {
namespace {

using trace::CopyKind;
using trace::MemoryKind;

constexpr std::int64_t kProcessId = 4242;
constexpr std::int64_t kLaunchLatencyNs = 2'500;

// Achieved bandwidths, bytes per nanosecond (= GB/s), of an H100-class node.
double bandwidth(CopyKind kind, MemoryKind host_memory) {
  switch (kind) {
    case CopyKind::host_to_device:
    case CopyKind::device_to_host: return host_memory == MemoryKind::pageable ? 11.0 : 48.0;
    case CopyKind::peer_to_peer: return 140.0;
    case CopyKind::device_to_device: return 900.0;
    default: return 10.0;
  }
}

const char* const kForwardKernels[] = {
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>(int, at::native::GeluCUDAKernelImpl, at::detail::Array<char*, 2>)",
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
    "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>, false, true>",
};
const char* const kBackwardKernels[] = {
    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x256x64_warpgroupsize2x1x1_execute_segment_k_off",
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl>(int, at::native::GeluBackwardCUDAKernelImpl, at::detail::Array<char*, 3>)",
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel<c10::BFloat16, float>(c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, c10::BFloat16*, int)",
    "flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t>, true, false>",
};
const char* const kOptimizerKernels[] = {
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4>>",
};

}  // namespace

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double Random::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::int64_t Random::around(std::int64_t mean, double spread) {
  const double factor = 1.0 + spread * (2.0 * uniform() - 1.0);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(static_cast<double>(mean) * factor));
}

TimelineNames::TimelineNames(trace::TraceWriter& writer)
    : launch_kernel(writer.intern("cudaLaunchKernel")),
      memcpy_async(writer.intern("cudaMemcpyAsync")),
      memcpy_blocking(writer.intern("cudaMemcpy")),
      memset_async(writer.intern("cudaMemsetAsync")),
      stream_synchronize(writer.intern("cudaStreamSynchronize")),
      data(writer.intern("data")), h2d(writer.intern("h2d")), forward(writer.intern("forward")),
      backward(writer.intern("backward")), allreduce(writer.intern("allreduce")),
      optimizer(writer.intern("optimizer")), domain(writer.intern("gpuprof")),
      nccl_all_reduce(writer.intern("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)")) {
  for (const char* name : kForwardKernels) forward_kernels.push_back(writer.intern(name));
  for (const char* name : kBackwardKernels) backward_kernels.push_back(writer.intern(name));
  for (const char* name : kOptimizerKernels) optimizer_kernels.push_back(writer.intern(name));
}

void ApiCallBuffer::flush() {
  std::stable_sort(rows_.begin(), rows_.end(),
                   [](const trace::ApiCallRow& a, const trace::ApiCallRow& b) { return a.start_ns < b.start_ns; });
  for (const auto& row : rows_) writer_.add(row);
  rows_.clear();
}

DeviceTimeline::DeviceTimeline(trace::TraceWriter& writer, ApiCallBuffer& api_calls, const TimelineNames& names,
                               const SynthOptions& options, std::int32_t device, std::int64_t start_ns,
                               std::int64_t& next_correlation)
    : writer_(writer),
      api_calls_(api_calls),
      names_(names),
      options_(options),
      device_(device),
      next_correlation_(next_correlation),
      random_(options.seed * 1000003ULL + static_cast<std::uint64_t>(device) * 7919ULL +
              static_cast<std::uint64_t>(options.rank) * 104729ULL),
      host_now_(start_ns) {
  stream_free_.fill(start_ns);
}

std::int64_t DeviceTimeline::stream_id(Stream stream) const {
  static constexpr std::array<std::int64_t, stream_count> kIds = {7, 13, 21, 25};
  return kIds[stream];
}

std::int64_t DeviceTimeline::gpu_end() const {
  return *std::max_element(stream_free_.begin(), stream_free_.end());
}

std::int64_t DeviceTimeline::api_call(trace::StringId name, std::int64_t duration_ns) {
  trace::ApiCallRow row;
  row.process_id = kProcessId;
  row.thread_id = thread_id();
  row.start_ns = host_now_;
  row.end_ns = host_now_ + duration_ns;
  row.correlation_id = next_correlation_++;
  row.name = name;
  row.kind = trace::ApiKind::runtime;
  row.return_code = 0;
  api_calls_.add(row);
  ++events_;
  host_now_ = row.end_ns;
  return *row.correlation_id;
}

void DeviceTimeline::kernel(Stream stream, trace::StringId name, std::int64_t duration_ns) {
  const std::int64_t launch_start = host_now_;
  trace::KernelRow row;
  row.correlation_id = api_call(names_.launch_kernel, random_.around(4'000, 0.4));
  row.device = device_;
  row.context = device_ + 1;
  row.stream = stream_id(stream);
  row.start_ns = std::max(launch_start + kLaunchLatencyNs, stream_free_[stream]);
  row.end_ns = row.start_ns + duration_ns;
  row.name = name;
  row.grid = trace::Dim3{static_cast<std::int32_t>(random_.around(264, 0.5)), 1, 1};
  row.block = trace::Dim3{256, 1, 1};
  row.registers_per_thread = 96;
  row.static_shared_bytes = 0;
  row.dynamic_shared_bytes = 49152;
  writer_.add(row);
  ++events_;
  stream_free_[stream] = row.end_ns;
}

void DeviceTimeline::copy(Stream stream, CopyKind kind, MemoryKind src_memory, MemoryKind dst_memory,
                          std::int64_t bytes, std::int32_t dst_device, bool blocking) {
  const std::int64_t launch_start = host_now_;
  const MemoryKind host_memory = kind == CopyKind::device_to_host ? dst_memory : src_memory;
  const auto duration = static_cast<std::int64_t>(static_cast<double>(bytes) / bandwidth(kind, host_memory)) + 1'500;
  const std::int64_t start = std::max(launch_start + kLaunchLatencyNs, stream_free_[stream]);
  // A blocking (or pageable) copy holds the calling thread until the data has moved.
  const std::int64_t api_duration = blocking ? start + duration - launch_start + 1'000 : random_.around(5'000, 0.3);
  trace::MemcpyRow row;
  row.correlation_id = api_call(blocking ? names_.memcpy_blocking : names_.memcpy_async, api_duration);
  row.device = device_;
  row.context = device_ + 1;
  row.stream = stream_id(stream);
  row.start_ns = start;
  row.end_ns = start + duration;
  row.copy_kind = kind;
  row.src_memory_kind = src_memory;
  row.dst_memory_kind = dst_memory;
  const bool from_device = kind == CopyKind::device_to_host || kind == CopyKind::device_to_device ||
                           kind == CopyKind::peer_to_peer;
  const bool to_device = kind == CopyKind::host_to_device || kind == CopyKind::device_to_device ||
                         kind == CopyKind::peer_to_peer;
  if (from_device) row.src_device = device_;
  if (to_device) row.dst_device = dst_device;
  row.bytes = bytes;
  writer_.add(row);
  ++events_;
  stream_free_[stream] = row.end_ns;
}

void DeviceTimeline::memset(Stream stream, std::int64_t bytes) {
  const std::int64_t launch_start = host_now_;
  trace::MemsetRow row;
  row.correlation_id = api_call(names_.memset_async, random_.around(3'000, 0.3));
  row.device = device_;
  row.context = device_ + 1;
  row.stream = stream_id(stream);
  row.start_ns = std::max(launch_start + kLaunchLatencyNs, stream_free_[stream]);
  row.end_ns = row.start_ns + bytes / 1'000 + 1'000;
  row.bytes = bytes;
  writer_.add(row);
  ++events_;
  stream_free_[stream] = row.end_ns;
}

void DeviceTimeline::synchronize(Stream stream) {
  const std::int64_t start = host_now_;
  const std::int64_t end = std::max(start, stream_free_[stream]) + random_.around(6'000, 0.3);
  trace::SyncRow row;
  row.process_id = kProcessId;
  row.thread_id = thread_id();
  row.start_ns = start;
  row.end_ns = end;
  row.type = trace::SyncType::stream;
  row.device = device_;
  row.stream = stream_id(stream);
  row.correlation_id = api_call(names_.stream_synchronize, end - start);
  writer_.add(row);
  ++events_;
}

void DeviceTimeline::range(trace::StringId name, std::int64_t start_ns, std::int64_t end_ns) {
  trace::RangeRow row;
  row.process_id = kProcessId;
  row.thread_id = thread_id();
  row.start_ns = start_ns;
  row.end_ns = end_ns;
  row.name = name;
  row.domain = names_.domain;
  writer_.add(row);
  ++events_;
}

void DeviceTimeline::load_batch() {
  const std::int64_t start = host_now_;
  host_now_ += random_.around(options_.loader_us * 1'000, 0.3);
  range(names_.data, start, host_now_);
}

void DeviceTimeline::copy_input(std::int64_t step) {
  const std::int64_t start = host_now_;
  MemoryKind memory = options_.input_memory == InputMemory::pageable ? MemoryKind::pageable : MemoryKind::pinned;
  if (options_.input_memory == InputMemory::mixed && step % 4 == 3) memory = MemoryKind::pageable;
  const bool blocking = memory == MemoryKind::pageable;
  copy(options_.prefetch ? copy_stream : compute_stream, CopyKind::host_to_device, memory, MemoryKind::device,
       options_.input_bytes, device_, blocking);
  if (options_.prefetch) stream_free_[compute_stream] = std::max(stream_free_[compute_stream], stream_free_[copy_stream]);
  range(names_.h2d, start, host_now_);
}

std::int64_t DeviceTimeline::run_until_allreduce(std::int64_t step) {
  step_start_ = host_now_;
  const double warmup_factor = step == 0 ? 3.0 : 1.0;
  load_batch();
  copy_input(step);
  memset(compute_stream, 64 << 20);
  const std::int64_t forward_start = host_now_;
  const auto half = std::max<std::int64_t>(1, options_.kernels_per_step / 2);
  for (std::int64_t i = 0; i < half; ++i) {
    const auto& names = names_.forward_kernels;
    kernel(compute_stream, names[static_cast<std::size_t>(i) % names.size()],
           static_cast<std::int64_t>(warmup_factor * static_cast<double>(random_.around(options_.kernel_us * 1'000, 0.6))));
  }
  range(names_.forward, forward_start, host_now_);
  backward_start_ = host_now_;
  for (std::int64_t i = 0; i < options_.kernels_per_step - half - 1; ++i) {
    const auto& names = names_.backward_kernels;
    kernel(compute_stream, names[static_cast<std::size_t>(i) % names.size()],
           random_.around(options_.kernel_us * 1'300, 0.6));
  }
  // Gradients of the last layers are ready once backward reaches three quarters.
  ready_ns_ = std::max(host_now_ + kLaunchLatencyNs, stream_free_[compute_stream] - (stream_free_[compute_stream] - backward_start_) / 4);
  return ready_ns_;
}

void DeviceTimeline::finish_step(std::int64_t step, std::int64_t all_ready_ns) {
  range(names_.backward, backward_start_, host_now_);
  const std::int64_t allreduce_range_start = host_now_;
  if (options_.devices > 1) {
    // The kernel starts once this device's gradients are ready and spins until the slowest peer arrives.
    stream_free_[communication_stream] = std::max(stream_free_[communication_stream], ready_ns_);
    const std::int64_t expected_start = std::max(host_now_ + 4'000 + kLaunchLatencyNs, stream_free_[communication_stream]);
    const std::int64_t wait = std::max<std::int64_t>(0, all_ready_ns - expected_start);
    kernel(communication_stream, names_.nccl_all_reduce, wait + random_.around(options_.kernel_us * 4'000, 0.2));
    copy(peer_stream, CopyKind::peer_to_peer, MemoryKind::device, MemoryKind::device, options_.input_bytes / 4,
         (device_ + 1) % options_.devices, false);
  }
  copy(compute_stream, CopyKind::device_to_device, MemoryKind::device, MemoryKind::device, 4 << 20, device_, false);
  range(names_.allreduce, allreduce_range_start, host_now_);
  const std::int64_t optimizer_start = host_now_;
  stream_free_[compute_stream] = std::max(stream_free_[compute_stream], stream_free_[communication_stream]);
  kernel(compute_stream, names_.optimizer_kernels.front(), random_.around(options_.kernel_us * 2'000, 0.2));
  range(names_.optimizer, optimizer_start, host_now_);
  copy(compute_stream, CopyKind::device_to_host, MemoryKind::device, MemoryKind::pinned, 4, device_, false);
  synchronize(compute_stream);
  const std::string step_name = "step " + std::to_string(step);
  range(writer_.intern(step_name), step_start_, host_now_);
}

}  // namespace gpuprof::synthetic
