#include "gpuprof/analysis/rank_analysis.hpp"

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::analysis {
namespace {

void add_data_loss_notice(const trace::TraceModel& model, RankAnalysis& result) {
  std::int64_t dropped = 0;
  for (const auto& stat : model.stats) {
    if (stat.name.find("dropped") != std::string::npos) dropped += stat.value;
  }
  if (dropped > 0) {
    result.notices.push_back(std::to_string(dropped) + " records were dropped while recording; totals undercount");
  }
}

}  // namespace

RankAnalysis analyze_rank(const trace::TraceModel& model, const AnalysisOptions& options, std::int32_t rank) {
  if (model.kernels.size() + model.memcpys.size() + model.memsets.size() == 0) {
    throw TraceError::bad_input(model.path, "no GPU activity (no kernels, copies or memsets) to analyse");
  }
  RankAnalysis result;
  result.path = model.path;
  result.rank = model.rank().value_or(rank);
  add_data_loss_notice(model, result);
  const KernelClassifier classifier(options.comm_patterns);
  const auto categories = classifier.classify_names(model);
  const auto activity = build_device_activity(model, categories);
  const CorrelationIndex correlations(model.api_calls);
  const auto detection = find_steps(model, options, correlations);
  const bool use_steps = options.window == WindowMode::steps && !detection.steps.empty();
  if (options.window == WindowMode::steps && detection.steps.empty()) {
    result.notices.push_back(detection.pattern_matched
                                 ? "step annotations match the step pattern but launched no GPU work; using each "
                                   "device's activity span as the window"
                                 : "the step pattern '" + options.step_pattern +
                                       "' matches no annotation; using each device's activity span as the window");
  }
  auto breakdown = compute_breakdown(activity, detection.steps, use_steps);
  result.devices = std::move(breakdown.devices);
  result.steps = std::move(breakdown.steps);
  if (use_steps) {
    result.gaps = find_batch_gaps(model, detection.steps, correlations);
  }
  result.transfers = analyze_transfers(model, activity);
  result.kernels = summarize_kernels(model, categories, options.top_kernels);
  result.launches = analyze_launches(model, correlations);
  return result;
}

}  // namespace gpuprof::analysis
