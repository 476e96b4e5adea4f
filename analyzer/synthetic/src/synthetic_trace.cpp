#include "gpuprof/synthetic/synthetic_trace.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_writer.hpp"
#include "training_timeline.hpp"

namespace gpuprof::synthetic {
namespace {

// Close to real CUPTI timestamps (nanoseconds since the epoch, late 2023).
constexpr std::int64_t kTraceStartNs = 1'700'000'000'000'000'000;
// Rows per device per step besides the kernels and their launch calls.
constexpr std::int64_t kFixedRowsPerDeviceStep = 21;
constexpr std::int64_t kMaxDevices = 64;
// Far beyond any test or demo, yet small enough that every product of them
// (events, bytes, times) stays inside int64 and the trace fits on a disk.
constexpr std::int64_t kMaxSteps = 1'000'000;
constexpr std::int64_t kMaxEvents = 1'000'000'000;
constexpr std::int64_t kMaxKernelsPerStep = 1'000'000;
constexpr std::int64_t kMaxMicroseconds = 1'000'000'000;  // 1000 s per kernel or loader pause
constexpr std::int64_t kMaxInputBytes = std::int64_t{1} << 40;

void refuse(const std::string& option, const std::string& problem) {
  throw TraceError::bad_input("", "synth: " + option + " " + problem);
}

std::int64_t kernels_for_event_target(const SynthOptions& options) {
  if (options.events <= 0) return options.kernels_per_step;
  const std::int64_t per_device_step = options.events / (options.steps * options.devices);
  return std::max<std::int64_t>(4, (per_device_step - kFixedRowsPerDeviceStep) / 2);
}

void write_devices(trace::TraceWriter& writer, const SynthOptions& options) {
  for (std::int32_t id = 0; id < options.devices; ++id) {
    trace::DeviceRow device;
    device.id = id;
    device.name = "NVIDIA H100 80GB HBM3 (synthetic)";
    device.uuid = "GPU-synthetic-" + std::to_string(options.rank) + "-" + std::to_string(id);
    static constexpr char kHex[] = "0123456789abcdef";
    const int bus = 0x18 + id * 0x10;
    device.pci_bus_id = std::string("0000:") + kHex[(bus >> 4) & 15] + kHex[bus & 15] + ":00.0";
    device.compute_major = 9;
    device.compute_minor = 0;
    device.sm_count = 132;
    device.memory_bytes = 85'520'809'984;
    device.memory_bandwidth_bps = 3'350'000'000'000;
    writer.add(device);
    for (std::int32_t peer = 0; peer < options.devices; ++peer) {
      if (peer == id) continue;
      trace::DeviceLinkRow link;
      link.src_device = id;
      link.dst_device = peer;
      link.peer_access = true;
      link.link_kind = "nvlink";
      link.performance_rank = 0;
      writer.add(link);
    }
  }
}

void write_meta(trace::TraceWriter& writer, const SynthOptions& options, std::int64_t kernels_per_step) {
  writer.set_meta("source_format", "synthetic");
  writer.set_meta("host_name", "synthetic-host");
  writer.set_meta("pid", "4242");
  writer.set_meta("rank", std::to_string(options.rank));
  writer.set_meta("world_size", std::to_string(options.world_size));
  writer.set_meta("command_line", options.command_line);
  if (options.batch_size) writer.set_meta("batch_size", std::to_string(*options.batch_size));
  writer.set_meta("gpus", std::to_string(options.devices));
  writer.set_meta("synth_seed", std::to_string(options.seed));
  writer.set_meta("synth_kernels_per_step", std::to_string(kernels_per_step));
  writer.set_meta("clock_calibration",
                  "[[" + std::to_string(kTraceStartNs) + "," + std::to_string(kTraceStartNs) + "]]");
}

}  // namespace

void validate(const SynthOptions& options) {
  if (options.devices < 1 || options.devices > kMaxDevices) refuse("--devices", "must be between 1 and 64");
  if (options.steps < 1 || options.steps > kMaxSteps) refuse("--steps", "must be between 1 and 1000000");
  if (options.events < 0 || options.events > kMaxEvents) refuse("--events", "must be between 0 and 1000000000");
  if (options.kernels_per_step > kMaxKernelsPerStep) refuse("--kernels-per-step", "must be at most 1000000");
  if (options.loader_us > kMaxMicroseconds) refuse("--loader-us", "must be at most 1000000000");
  if (options.kernel_us > kMaxMicroseconds) refuse("--kernel-us", "must be at most 1000000000");
  if (options.input_bytes > kMaxInputBytes) refuse("--input-bytes", "must be at most 1 TiB (1099511627776)");
  if (options.events == 0 && options.steps * options.devices * options.kernels_per_step > kMaxEvents) {
    refuse("--steps", "times --devices times --kernels-per-step must be at most 1000000000 kernels");
  }
  // Timestamps start at kTraceStartNs; the whole run, with room for jitter and copies, must end before INT64_MAX.
  const long double step_ns = (static_cast<long double>(options.kernels_per_step) * options.kernel_us * 4 +
                               static_cast<long double>(options.loader_us) + 1000) * 1000 +
                              static_cast<long double>(options.input_bytes);
  if (step_ns * static_cast<long double>(options.steps) > 1e18L) {
    refuse("--steps", "times the step time (--kernels-per-step, --kernel-us, --loader-us) must stay under 1e18 ns");
  }
  if (options.kernels_per_step < 2) refuse("--kernels-per-step", "must be at least 2");
  if (options.loader_us < 0) refuse("--loader-us", "must not be negative");
  if (options.kernel_us < 1) refuse("--kernel-us", "must be at least 1");
  if (options.input_bytes < 1) refuse("--input-bytes", "must be at least 1");
  if (options.batch_size && *options.batch_size < 1) refuse("--batch-size", "must be at least 1");
  if (options.world_size < 1) refuse("--world-size", "must be at least 1");
  if (options.rank < 0 || options.rank >= options.world_size) refuse("--rank", "must be in [0, world size)");
}

SynthSummary write_synthetic_trace(const std::string& path, const SynthOptions& requested) {
  validate(requested);
  SynthOptions options = requested;
  options.kernels_per_step = kernels_for_event_target(requested);

  trace::WriterOptions writer_options;
  writer_options.path = path;
  writer_options.overwrite = options.force;
  writer_options.tool_version = options.tool_version;
  writer_options.background_writes = true;
  trace::TraceWriter writer(writer_options);
  write_meta(writer, options, options.kernels_per_step);
  write_devices(writer, options);

  const TimelineNames names(writer);
  std::int64_t next_correlation = 1;
  ApiCallBuffer api_calls(writer);
  std::vector<std::unique_ptr<DeviceTimeline>> timelines;
  for (std::int32_t device = 0; device < options.devices; ++device) {
    // Host threads start a few microseconds apart, as real ones do.
    timelines.push_back(std::make_unique<DeviceTimeline>(writer, api_calls, names, options, device,
                                                         kTraceStartNs + device * 3'000, next_correlation));
  }
  for (std::int64_t step = 0; step < options.steps; ++step) {
    std::int64_t all_ready = 0;
    for (auto& timeline : timelines) all_ready = std::max(all_ready, timeline->run_until_allreduce(step));
    api_calls.flush();
    for (auto& timeline : timelines) timeline->finish_step(step, all_ready);
    api_calls.flush();
  }

  SynthSummary summary;
  summary.kernels_per_step = options.kernels_per_step;
  summary.start_ns = kTraceStartNs;
  for (const auto& timeline : timelines) {
    summary.events += timeline->events();
    summary.end_ns = std::max({summary.end_ns, timeline->gpu_end(), timeline->host_now()});
  }
  writer.set_meta("start_ns", std::to_string(summary.start_ns));
  writer.set_meta("end_ns", std::to_string(summary.end_ns));
  writer.set_stat({trace::stat_name(trace::StatId::records_written), summary.events, trace::Severity::info,
                   "rows written by gpuprof synth"});
  writer.set_stat({trace::stat_name(trace::StatId::dropped_records), 0, trace::Severity::info, std::nullopt});
  writer.finish();
  return summary;
}

}  // namespace gpuprof::synthetic
