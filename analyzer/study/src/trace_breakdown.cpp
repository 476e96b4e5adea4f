#include "gpuprof/study/trace_breakdown.hpp"

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::study {
namespace {

BreakdownTotals totals_of(const analysis::RankAnalysis& rank) {
  BreakdownTotals totals;
  totals.traces = 1;
  for (const auto& device : rank.devices) {
    const auto& part = device.steady;
    totals.computation_ns += part.computation_ns;
    totals.exposed_transfer_ns += part.exposed_memcpy_ns;
    totals.exposed_comm_ns += part.exposed_comm_ns;
    // Batch gaps lie inside the step windows, so idle already holds them.
    totals.gaps_ns += part.idle_ns;
    if (device.source == analysis::WindowSource::steps) totals.device_steps += device.steady_steps;
  }
  return totals;
}

}  // namespace

BreakdownTotals& BreakdownTotals::operator+=(const BreakdownTotals& other) {
  computation_ns += other.computation_ns;
  exposed_transfer_ns += other.exposed_transfer_ns;
  exposed_comm_ns += other.exposed_comm_ns;
  gaps_ns += other.gaps_ns;
  device_steps += other.device_steps;
  traces += other.traces;
  return *this;
}

TraceBreakdownResult breakdown_of_traces(const std::vector<std::string>& paths, progress::StageCounter* traces_done) {
  TraceBreakdownResult result;
  for (const auto& path : paths) {
    try {
      // One model in memory at a time; launch details are not needed for the breakdown.
      const auto model = trace::load_trace_model(
          path, {.load_kernel_launch_details = false, .load_contexts_and_return_codes = false});
      result.totals += totals_of(analysis::analyze_rank(model, analysis::AnalysisOptions{}));
    } catch (const TraceError& error) {
      result.problems.push_back(error.what());
    }
    if (traces_done != nullptr) traces_done->add(1);
  }
  return result;
}

}  // namespace gpuprof::study
