#pragma once

#include <cudnn.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <tuple>
#include <vector>

#include "convolution_algorithm.hpp"

namespace gpuprof::workloads {

// One candidate cuDNN's find timed for a pass: the algorithm, the math type it ran with,
// its time and the workspace it needs (the larger of the find's figure and cuDNN's query).
template <typename Algorithm>
struct MeasuredCandidate {
  Algorithm algorithm{};
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  float milliseconds = 0.0F;
  std::size_t workspace_bytes = 0;
  friend bool operator==(const MeasuredCandidate&, const MeasuredCandidate&) = default;
};

// Whether a candidate that ran with `offered` math keeps the numerics the run asked for
// with `requested`: fp32 runs (FMA) take no tensor-core math; no run lets cuDNN round its
// inputs down to fp16 (ALLOW_CONVERSION), which neither tf32 nor bf16 promise.
constexpr bool math_respects(cudnnMathType_t requested, cudnnMathType_t offered) {
  if (offered == CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION) return false;
  if (requested == CUDNN_FMA_MATH) return offered == CUDNN_FMA_MATH || offered == CUDNN_DEFAULT_MATH;
  return true;
}

// The math type a chosen candidate runs with: an fp32 run keeps FMA on the descriptor even
// where the find reported DEFAULT (which would let cuDNN pick TF32 kernels at run time).
constexpr cudnnMathType_t math_to_run(cudnnMathType_t requested, cudnnMathType_t offered) {
  return requested == CUDNN_FMA_MATH ? CUDNN_FMA_MATH : offered;
}

// The successful results of a find (fastest first, `count` of them, clamped to the
// array), each with the workspace cuDNN's query gives for the math type it will run with.
// Results cuDNN's query refuses are left out.
template <typename Perf, std::size_t N>
auto measured_candidates(const std::array<Perf, N>& results, int count, cudnnMathType_t requested,
                         const WorkspaceQuery<decltype(Perf{}.algo)>& workspace_of)
    -> std::vector<MeasuredCandidate<decltype(Perf{}.algo)>> {
  std::vector<MeasuredCandidate<decltype(Perf{}.algo)>> candidates;
  const auto offered = static_cast<std::size_t>(std::clamp(count, 0, static_cast<int>(N)));
  for (std::size_t i = 0; i < offered; ++i) {
    const Perf& perf = results[i];
    if (perf.status != CUDNN_STATUS_SUCCESS || !std::isfinite(perf.time) || perf.time < 0.0F) continue;
    const cudnnMathType_t math = math_to_run(requested, perf.mathType);
    const auto queried = workspace_of(perf.algo, math);
    if (!queried) continue;
    candidates.push_back({perf.algo, perf.mathType, perf.time, std::max(*queried, perf.memory)});
  }
  return candidates;
}

// The fastest measured candidate that fits `limit` and respects the requested math.
// For fp32 (FMA requested) candidates timed with FMA math come before those timed with
// default math: cuDNN's find also tries default math, which may time TF32 kernels, so such a
// time says little about the FMA kernel the run would get. Equal times go to the smaller
// workspace, then the lower algorithm and math numbers, so the same measurements always
// give the same choice.
template <typename Algorithm>
std::optional<ConvolutionChoice<Algorithm>> fastest_fitting(const std::vector<MeasuredCandidate<Algorithm>>& candidates,
                                                            std::size_t limit, cudnnMathType_t requested) {
  const auto rank = [requested](const MeasuredCandidate<Algorithm>& c) {
    const bool timed_otherwise = requested == CUDNN_FMA_MATH && c.math != CUDNN_FMA_MATH;
    return std::make_tuple(timed_otherwise, c.milliseconds, c.workspace_bytes, static_cast<int>(c.algorithm),
                           static_cast<int>(c.math));
  };
  const MeasuredCandidate<Algorithm>* best = nullptr;
  for (const auto& candidate : candidates) {
    if (candidate.workspace_bytes > limit || !math_respects(requested, candidate.math)) continue;
    if (best == nullptr || rank(candidate) < rank(*best)) best = &candidate;
  }
  if (best == nullptr) return std::nullopt;
  return ConvolutionChoice<Algorithm>{best->algorithm, math_to_run(requested, best->math), best->workspace_bytes};
}

}  // namespace gpuprof::workloads
