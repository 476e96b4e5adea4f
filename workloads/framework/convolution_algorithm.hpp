#pragma once

#include <cudnn.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <functional>
#include <optional>

namespace gpuprof::workloads {

// One pass's convolution algorithm with the math type it was offered with and the
// workspace cuDNN says it needs with that math type.
template <typename Algorithm>
struct ConvolutionChoice {
  Algorithm algorithm{};
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::size_t workspace_bytes = 0;
};

// The workspace an algorithm needs once its math type is set on the descriptor,
// asked of cuDNN (cudnnGetConvolution*WorkspaceSize); nullopt when cuDNN refuses
// that algorithm for these descriptors.
template <typename Algorithm>
using WorkspaceQuery = std::function<std::optional<std::size_t>(Algorithm, cudnnMathType_t)>;

// The first of cuDNN's heuristic results (fastest first) that ran and whose
// workspace fits within `limit`. The workspace is the larger of the heuristic's own
// `memory` figure and cuDNN's query for the chosen math type: either alone may be
// short (cuDNN 9.14 on an H200 refused ResNet convolutions given the query's figure).
template <typename Perf, std::size_t N>
auto first_fitting_algorithm(const std::array<Perf, N>& results, int count, std::size_t limit,
                             const WorkspaceQuery<decltype(Perf{}.algo)>& workspace_of)
    -> std::optional<ConvolutionChoice<decltype(Perf{}.algo)>> {
  const auto offered = static_cast<std::size_t>(std::clamp(count, 0, static_cast<int>(N)));
  for (std::size_t i = 0; i < offered; ++i) {
    const Perf& perf = results[i];
    if (perf.status != CUDNN_STATUS_SUCCESS) continue;
    const auto queried = workspace_of(perf.algo, perf.mathType);
    if (!queried) continue;
    const std::size_t bytes = std::max(*queried, perf.memory);
    if (bytes <= limit) return ConvolutionChoice<decltype(Perf{}.algo)>{perf.algo, perf.mathType, bytes};
  }
  return std::nullopt;
}

}  // namespace gpuprof::workloads
