#pragma once

// The synthetic training trace the predict command tests read: `devices` GPUs of one process, 10 steps.

#include <string>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {

inline std::string write_gpus_trace(const std::string& path, std::int32_t devices) {
  synthetic::SynthOptions options;
  options.devices = devices;
  options.steps = 10;
  synthetic::write_synthetic_trace(path, options);
  return path;
}

// The replay and prediction tests' 1-process trace: 12 steps on `devices` GPUs, loaded.
inline trace::TraceModel synthetic_steps_model(const TemporaryFolder& folder, std::int32_t devices = 1) {
  synthetic::SynthOptions options;
  options.devices = devices;
  options.steps = 12;
  options.force = true;
  const auto path = folder.file("synth.sqlite");
  synthetic::write_synthetic_trace(path, options);
  return trace::load_trace_model(path);
}

}  // namespace gpuprof::testing
