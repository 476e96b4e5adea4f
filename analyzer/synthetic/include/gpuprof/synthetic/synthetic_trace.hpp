#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuprof::synthetic {

enum class InputMemory { pinned, pageable, mixed };

// What `gpuprof synth` generates: a data-parallel training job on one process
// with one host thread per GPU. Each step: load a batch on the host, copy it to
// the GPU, forward and backward kernels, an NCCL all-reduce on its own stream
// overlapping the end of backward, a peer-to-peer copy to the next GPU, the
// optimizer, a loss copy back and a stream synchronize.
struct SynthOptions {
  std::int32_t devices = 2;
  std::int64_t steps = 20;
  // Target number of events; 0 keeps kernels_per_step as given.
  std::int64_t events = 0;
  std::int64_t kernels_per_step = 40;
  std::uint64_t seed = 1;
  std::int64_t loader_us = 300;       // host-side batch preparation between steps
  std::int64_t kernel_us = 60;        // mean kernel duration
  std::int64_t input_bytes = 8 << 20;  // per device per step
  InputMemory input_memory = InputMemory::mixed;
  bool prefetch = false;  // input copies on a copy stream, overlapping compute
  // Samples per step of this process, written to meta `batch_size`; nullopt leaves it
  // out, as in traces of programs that do not say.
  std::optional<std::int64_t> batch_size = 64;
  std::int32_t rank = 0;
  std::int32_t world_size = 1;
  bool force = false;
  std::string command_line;
  std::string tool_version;
};

struct SynthSummary {
  std::int64_t events = 0;
  std::int64_t kernels_per_step = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
};

// Checks options; throws TraceError::bad_input with the offending option.
void validate(const SynthOptions& options);

// Writes the trace atomically to `path` (nothing is left behind on failure).
SynthSummary write_synthetic_trace(const std::string& path, const SynthOptions& options);

}  // namespace gpuprof::synthetic
