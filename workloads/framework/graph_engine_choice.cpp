#include "graph_engine_choice.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_set>

namespace gpuprof::workloads {
namespace {

bool has(const std::vector<cudnnBackendNumericalNote_t>& notes, cudnnBackendNumericalNote_t note) {
  return std::find(notes.begin(), notes.end(), note) != notes.end();
}

bool compiled_at_run_time(const GraphEngine& engine) {
  return std::find(engine.behavior_notes.begin(), engine.behavior_notes.end(),
                   CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION) != engine.behavior_notes.end();
}

bool timed(const TimedPlan& plan) { return std::isfinite(plan.milliseconds) && plan.milliseconds >= 0.0F; }

}  // namespace

bool graph_engine_respects(cudnnMathType_t requested, const std::vector<cudnnBackendNumericalNote_t>& notes) {
  if (has(notes, CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS)) return false;
  if (has(notes, CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION)) return false;
  if (requested == CUDNN_FMA_MATH && has(notes, CUDNN_NUMERICAL_NOTE_TENSOR_CORE)) return false;
  return true;
}

std::vector<std::size_t> engines_to_time(const std::vector<GraphEngine>& offered, cudnnMathType_t requested,
                                         std::size_t count) {
  std::vector<std::size_t> chosen;
  std::unordered_set<std::int64_t> seen;
  for (std::size_t i = 0; i < offered.size() && chosen.size() < count; ++i) {
    const GraphEngine& engine = offered[i];
    if (!graph_engine_respects(requested, engine.numerical_notes) || compiled_at_run_time(engine)) continue;
    if (!seen.insert(engine.global_index).second) continue;
    chosen.push_back(i);
  }
  return chosen;
}

std::optional<TimedPlan> fastest_fitting_plan(const std::vector<TimedPlan>& plans, std::size_t limit) {
  const auto rank = [](const TimedPlan& p) { return std::make_tuple(p.milliseconds, p.workspace_bytes, p.position); };
  const TimedPlan* best = nullptr;
  for (const TimedPlan& plan : plans) {
    if (!timed(plan) || plan.workspace_bytes > limit) continue;
    if (best == nullptr || rank(plan) < rank(*best)) best = &plan;
  }
  if (best == nullptr) return std::nullopt;
  return *best;
}

std::vector<TimedPlan>& GraphMeasurement::of(ConvolutionPass pass) {
  return pass == ConvolutionPass::forward ? forward : pass == ConvolutionPass::data ? data : filter;
}

const std::vector<TimedPlan>& GraphMeasurement::of(ConvolutionPass pass) const {
  return pass == ConvolutionPass::forward ? forward : pass == ConvolutionPass::data ? data : filter;
}

GraphPlanCache& graph_plan_cache() {
  static GraphPlanCache cache;
  return cache;
}

}  // namespace gpuprof::workloads
