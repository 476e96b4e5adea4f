#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::synthetic {

// splitmix64: portable and deterministic across standard libraries, unlike
// std::normal_distribution and friends.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  double uniform();  // [0, 1)
  // A value spread uniformly by ±spread (a fraction) around mean, at least 1.
  std::int64_t around(std::int64_t mean, double spread);

 private:
  std::uint64_t state_;
};

// Interned names shared by all devices' timelines.
struct TimelineNames {
  explicit TimelineNames(trace::TraceWriter& writer);
  trace::StringId launch_kernel, memcpy_async, memcpy_blocking, memset_async, stream_synchronize;
  trace::StringId data, h2d, forward, backward, allreduce, optimizer, domain;
  std::vector<trace::StringId> forward_kernels, backward_kernels, optimizer_kernels;
  trace::StringId nccl_all_reduce;
};

// The API calls of every device's host thread during one phase of a step,
// written sorted by start when the phase ends, so that the file's api_calls are
// nearly in start order and the loader has almost nothing to sort (issue 19).
// Holds one phase (a few thousand rows), never the whole trace.
class ApiCallBuffer {
 public:
  explicit ApiCallBuffer(trace::TraceWriter& writer) : writer_(writer) {}
  void add(const trace::ApiCallRow& row) { rows_.push_back(row); }
  void flush();

 private:
  trace::TraceWriter& writer_;
  std::vector<trace::ApiCallRow> rows_;
};

// One GPU's host thread and streams, emitting the rows of each training step.
class DeviceTimeline {
 public:
  DeviceTimeline(trace::TraceWriter& writer, ApiCallBuffer& api_calls, const TimelineNames& names,
                 const SynthOptions& options,
                 std::int32_t device, std::int64_t start_ns, std::int64_t& next_correlation);

  // First half of a step: up to the point where gradients are ready for the
  // all-reduce. Returns when this device would be ready to communicate.
  std::int64_t run_until_allreduce(std::int64_t step);
  // Second half: the all-reduce (which waits inside the kernel for the slowest
  // peer, as NCCL kernels do) and the rest of the step.
  void finish_step(std::int64_t step, std::int64_t all_ready_ns);

  std::int64_t events() const { return events_; }
  std::int64_t host_now() const { return host_now_; }
  std::int64_t gpu_end() const;

 private:
  enum Stream : std::size_t { compute_stream, copy_stream, communication_stream, peer_stream, stream_count };

  std::int64_t api_call(trace::StringId name, std::int64_t duration_ns);
  void kernel(Stream stream, trace::StringId name, std::int64_t duration_ns);
  void copy(Stream stream, trace::CopyKind kind, trace::MemoryKind src_memory, trace::MemoryKind dst_memory,
            std::int64_t bytes, std::int32_t dst_device, bool blocking);
  void memset(Stream stream, std::int64_t bytes);
  void synchronize(Stream stream);
  void range(trace::StringId name, std::int64_t start_ns, std::int64_t end_ns);
  void load_batch();
  void copy_input(std::int64_t step);
  std::int64_t stream_id(Stream stream) const;
  std::int64_t thread_id() const { return 1000 + device_; }

  trace::TraceWriter& writer_;
  ApiCallBuffer& api_calls_;
  const TimelineNames& names_;
  const SynthOptions& options_;
  std::int32_t device_;
  std::int64_t& next_correlation_;
  Random random_;
  std::int64_t host_now_;
  std::int64_t step_start_ = 0;
  std::int64_t backward_start_ = 0;
  std::int64_t ready_ns_ = 0;
  std::array<std::int64_t, stream_count> stream_free_{};
  std::int64_t events_ = 0;
};

}  // namespace gpuprof::synthetic
