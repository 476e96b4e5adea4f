#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "convolution_cache.hpp"
#include "measurement_cache.hpp"

namespace gpuprof::workloads {

// The pure half of --conv-algo graph (the cuDNN graph API half is convolution_graph.hpp):
// which engines the heuristics offered may run at the run's precision, which of them to
// time, and which timed plan to keep.

enum class ConvolutionPass { forward, data, filter };

// One engine configuration the heuristics offered for a pass, in the order offered.
struct GraphEngine {
  std::int64_t global_index = -1;
  std::vector<cudnnBackendNumericalNote_t> numerical_notes;
  std::vector<cudnnBackendBehaviorNote_t> behavior_notes;
};

// Whether an engine with these numerical notes keeps the numerics the run asked for with
// `requested` (the math type the precision allows, as the legacy path asks for it): no
// engine may round its inputs down (DOWN_CONVERT_INPUTS: fp16 for fp32 data) or reduce in
// less than fp32 (REDUCED_PRECISION_REDUCTION); fp32 runs (FMA) take no tensor-core engine,
// whose fp32 kernels are TF32.
bool graph_engine_respects(cudnnMathType_t requested, const std::vector<cudnnBackendNumericalNote_t>& notes);

// Positions in `offered` of the engines worth timing, in the heuristics' order: at most
// `count` of them, each respecting the numerics, none compiled at run time (its compilation,
// seconds each, would land in the first training step), no engine twice (the fallback list
// repeats engines of the first).
std::vector<std::size_t> engines_to_time(const std::vector<GraphEngine>& offered, cudnnMathType_t requested,
                                         std::size_t count);

// A finalized plan timed for one pass: its engine, its position among the engines offered
// (to finalize the same configuration again), its time and its workspace.
struct TimedPlan {
  std::int64_t engine = -1;
  std::size_t position = 0;
  float milliseconds = 0.0F;
  std::size_t workspace_bytes = 0;
  friend bool operator==(const TimedPlan&, const TimedPlan&) = default;
};

// The fastest timed plan whose workspace fits `limit`; equal times go to the smaller
// workspace, then to the engine offered first, so the same timings always give the same
// plan. Plans without a finite, non-negative time are never chosen.
std::optional<TimedPlan> fastest_fitting_plan(const std::vector<TimedPlan>& plans, std::size_t limit);

// Every plan timed for one convolution's three passes. All timed plans, not the winners,
// are kept: a later, smaller workspace limit chooses again without timing again.
struct GraphMeasurement {
  std::vector<TimedPlan> forward;
  std::vector<TimedPlan> data;
  std::vector<TimedPlan> filter;
  std::vector<TimedPlan>& of(ConvolutionPass pass);
  const std::vector<TimedPlan>& of(ConvolutionPass pass) const;
};

// Timings of graph plans by the measured path's key (shape at its batch, layout, element
// type, math, GPU model); the pass is the field of the value.
using GraphPlanCache = MeasurementCache<ConvolutionKey, GraphMeasurement>;

// The process's cache, shared by every layer and replica.
GraphPlanCache& graph_plan_cache();

}  // namespace gpuprof::workloads
