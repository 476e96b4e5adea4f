#pragma once

#include <cstddef>

#include <cudnn.h>

namespace gpuprof::workloads::testing {

// A cuDNN algorithm result (heuristic or find) as a test writes it; any of the three perf types.
template <typename Perf>
Perf fake_perf(decltype(Perf{}.algo) algorithm, cudnnMathType_t math, std::size_t memory, float time = 0.0F,
               cudnnStatus_t status = CUDNN_STATUS_SUCCESS) {
  Perf perf{};
  perf.algo = algorithm;
  perf.mathType = math;
  perf.memory = memory;
  perf.time = time;
  perf.status = status;
  return perf;
}

}  // namespace gpuprof::workloads::testing
