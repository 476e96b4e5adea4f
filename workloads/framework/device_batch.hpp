#pragma once

#include <cstdint>

namespace gpuprof::workloads {

// One batch in device memory, laid out as the SampleSource's rows: inputs
// [size][shape.inputs], targets [size][shape.targets], ints [size][shape.ints].
// Parts a model does not use are null.
struct DeviceBatch {
  const float* inputs = nullptr;
  const float* targets = nullptr;
  const std::int32_t* ints = nullptr;
  int size = 0;
};

}  // namespace gpuprof::workloads
