#pragma once

// The synthetic training trace the predict command tests read: `devices` GPUs of one process, 10 steps.

#include <string>

#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace gpuprof::testing {

inline std::string write_gpus_trace(const std::string& path, std::int32_t devices) {
  synthetic::SynthOptions options;
  options.devices = devices;
  options.steps = 10;
  synthetic::write_synthetic_trace(path, options);
  return path;
}

}  // namespace gpuprof::testing
