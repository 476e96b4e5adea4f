#include "gpuprof/predict/step_variability.hpp"

#include <algorithm>
#include <filesystem>

#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/predict/replay.hpp"
#include "gpuprof/predict/sample_statistics.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/statistics.hpp"
#include "input_checks.hpp"

namespace gpuprof::predict {
namespace {

std::vector<double> steady_periods(const ReplayGraph& graph) {
  std::vector<double> periods;
  for (std::size_t w = 0; w + 1 < graph.windows.size(); ++w)
    if (!graph.windows[w].warmup)
      periods.push_back(static_cast<double>(graph.windows[w + 1].start_ns - graph.windows[w].start_ns));
  return periods;
}

// Fewer periods than this say nothing of a spread.
constexpr std::size_t kMinPeriods = 3;

bool is_trace_file(const std::filesystem::path& path) {
  const auto name = path.filename().string();
  return name.ends_with(".json.gz") || name.ends_with(".json") || name.ends_with(".sqlite");
}

}  // namespace

double step_spread_ns(const ReplayGraph& graph) { return robust_spread(steady_periods(graph)); }

double step_spread_share(const ReplayGraph& graph) {
  const auto periods = steady_periods(graph);
  if (periods.size() < 2) return 0.0;
  double mean = 0;
  for (const double p : periods) mean += p;
  mean /= static_cast<double>(periods.size());
  return mean > 0 ? robust_spread(periods) / mean : 0.0;
}

std::optional<double> measured_step_spread_share(const ReplayGraph& graph) {
  if (steady_periods(graph).size() < kMinPeriods) return std::nullopt;
  return step_spread_share(graph);
}

StatedVariability measure_step_variability(const std::vector<std::string>& files) {
  StatedVariability result;
  std::vector<double> shares;
  for (const auto& file : files) {
    try {
      const auto model = load_prediction_trace(file);
      const auto graph = build_replay_graph(model, {});
      check_steady_steps(graph, analysis::AnalysisOptions{}.warmup_steps);
      check_one_gpu_trace(model, graph, false);
      const auto periods = steady_periods(graph);
      if (periods.size() < kMinPeriods) continue;
      result.traces.push_back({std::filesystem::path(file).filename().string(),
                               static_cast<std::int64_t>(periods.size()), step_spread_share(graph)});
      shares.push_back(result.traces.back().share);
    } catch (const TraceError&) {
      // not a 1-GPU trace with steady steps (several ranks, no step annotations, a damaged file): passed over
    }
  }
  result.median_share = units::median(shares);
  return result;
}

std::vector<std::string> variability_sources(const std::string& external_dir, const std::string& samples_dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& dir : {external_dir, samples_dir}) {
    std::error_code error;
    if (dir.empty() || !fs::is_directory(dir, error)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir, error))
      if (entry.is_regular_file() && entry.path().parent_path().filename() != "malformed" && is_trace_file(entry.path()))
        files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpuprof::predict
