#pragma once

#include <cstdio>
#include <string>

namespace gpuprof::workloads {

// Prints "gpuprof-workload: note: <message>" on `stream` the first time this message is
// given in the process and returns true; later calls with the same message print nothing.
// For fallbacks a layer takes on every call (cuDNN refusing a fused path, a find that
// failed), which the run's output must show without repeating per layer and step.
bool note_once(const std::string& message, std::FILE* stream = stderr);

}  // namespace gpuprof::workloads
