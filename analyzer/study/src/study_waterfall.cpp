#include "gpuprof/study/study_waterfall.hpp"

#include <filesystem>

#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::study {
namespace {

std::vector<std::string> first_ok_traces(const StudyData& data, const std::string& name, const std::string& dir) {
  for (const auto& run : data.runs) {
    if (run.configuration != name || run.kind != RunKind::profiled || run.status != RunStatus::ok) continue;
    if (run.trace_paths.empty()) continue;
    std::vector<std::string> paths;
    for (const auto& trace : run.trace_paths) paths.push_back((std::filesystem::path(dir) / trace).string());
    return paths;
  }
  return {};
}

const Configuration* counterpart(const StudyData& data, const Configuration& configuration) {
  for (const auto& other : data.configurations) {
    if (other.gpus == 1 && other.batch == configuration.batch && other.workload == configuration.workload) return &other;
  }
  return nullptr;
}

}  // namespace

std::vector<WaterfallRow> waterfalls_of_study(const StudyData& data, const std::string& study_dir,
                                              std::vector<std::string>& notices) {
  std::vector<WaterfallRow> rows;
  for (const auto& configuration : data.configurations) {
    const auto* base = configuration.gpus > 1 ? counterpart(data, configuration) : nullptr;
    if (base == nullptr) continue;
    const auto base_traces = first_ok_traces(data, base->name(), study_dir);
    const auto traces = first_ok_traces(data, configuration.name(), study_dir);
    if (base_traces.empty() || traces.empty()) continue;
    try {
      const job::JobOptions options;
      comparison::CompareOptions compare;
      compare.base_batch = base->batch;
      compare.other_batch = configuration.batch;
      const auto result =
          comparison::compare_runs(job::analyze_job(base_traces, options), job::analyze_job(traces, options), compare);
      WaterfallRow row{configuration.name(), base->name(), result.base.step_ns, result.other.step_ns, {}};
      for (const auto& term : result.waterfall) row.deltas_ns.emplace_back(term.name, term.delta_ns);
      rows.push_back(std::move(row));
    } catch (const TraceError& error) {
      notices.push_back("no waterfall for " + configuration.name() + ": " + error.what());
    }
  }
  return rows;
}

}  // namespace gpuprof::study
