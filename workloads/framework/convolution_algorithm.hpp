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
// workspace, as cuDNN states it for the chosen math type, fits within `limit`.
// The heuristic's own `memory` figure is not trusted: it may be for another math type.
template <typename Perf, std::size_t N>
auto first_fitting_algorithm(const std::array<Perf, N>& results, int count, std::size_t limit,
                             const WorkspaceQuery<decltype(Perf{}.algo)>& workspace_of)
    -> std::optional<ConvolutionChoice<decltype(Perf{}.algo)>> {
  const auto offered = static_cast<std::size_t>(std::clamp(count, 0, static_cast<int>(N)));
  for (std::size_t i = 0; i < offered; ++i) {
    const Perf& perf = results[i];
    if (perf.status != CUDNN_STATUS_SUCCESS) continue;
    const auto bytes = workspace_of(perf.algo, perf.mathType);
    if (bytes && *bytes <= limit) return ConvolutionChoice<decltype(Perf{}.algo)>{perf.algo, perf.mathType, *bytes};
  }
  return std::nullopt;
}

}  // namespace gpuprof::workloads
