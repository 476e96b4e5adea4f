#include "gpuprof/study/study_predictions.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "gpuprof/predict/predict_request.hpp"
#include "gpuprof/predict/prediction.hpp"
#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/study/study_report.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::study {
namespace {

namespace fs = std::filesystem;

// Rank 0's trace of the first successful profiled run of each configuration.
std::map<std::string, std::string> first_traces(const StudyData& data, const std::string& study_dir) {
  std::map<std::string, std::string> traces;
  for (const auto& run : data.runs)
    if (run.kind == RunKind::profiled && run.status == RunStatus::ok && !run.trace_paths.empty())
      traces.try_emplace(run.configuration, (fs::path(study_dir) / run.trace_paths.front()).string());
  return traces;
}

std::vector<std::int64_t> gpu_counts(const StudyData& data, const PredictionSettings& settings) {
  if (!settings.gpus.empty()) {
    const auto counts = predict::parse_gpu_counts(settings.gpus, "--predict-gpus");
    return {counts.begin(), counts.end()};
  }
  std::set<std::int64_t> counts;
  for (const auto& configuration : data.configurations)
    if (configuration.gpus > 1) counts.insert(configuration.gpus);
  return counts.empty() ? std::vector<std::int64_t>{2} : std::vector<std::int64_t>(counts.begin(), counts.end());
}

predict::PredictOptions options_of(const PredictionSettings& settings, std::int64_t gpus) {
  if (settings.strategy != "data-parallel" && settings.strategy != "host-staged")
    throw TraceError::bad_input("", fmt::format("unknown --predict-strategy '{}' (data-parallel or host-staged)",
                                                settings.strategy));
  predict::PredictRequest request;
  request.gpus = std::to_string(gpus);
  request.strategy = settings.strategy;
  request.scaling = "strong";  // a study's batch is the global batch
  request.link = settings.link;
  request.grad_bytes = settings.gradient_bytes;
  request.sync = settings.sync, request.topology = settings.topology;
  request.option_prefix = "predict-";
  return predict::options_of(request);
}

const ConfigurationRow* row_of(const std::vector<ConfigurationRow>& rows, std::int64_t batch, std::int64_t gpus) {
  for (const auto& row : rows)
    if (row.configuration.batch == batch && row.configuration.gpus == gpus) return &row;
  return nullptr;
}

struct Traces {
  std::map<std::int64_t, std::string> one_gpu;  // by batch
};

PredictedRow predict_row(const Traces& traces, std::int64_t batch, std::int64_t gpus,
                         const PredictionSettings& settings, std::vector<std::string>& link_notes) {
  const auto model = predict::load_prediction_trace(traces.one_gpu.at(batch));
  std::vector<const trace::TraceModel*> models{&model};
  std::optional<trace::TraceModel> per_gpu;
  if (batch % gpus == 0) {
    if (const auto found = traces.one_gpu.find(batch / gpus); found != traces.one_gpu.end()) {
      per_gpu = predict::load_prediction_trace(found->second);
      models.push_back(&*per_gpu);
    }
  }
  const auto prediction = predict::predict(models, options_of(settings, gpus));
  const auto& row = prediction.rows.front();
  for (const auto& note : prediction.notes)  // the link chosen from the trace's GPU, said once
    if (note.starts_with("link ") && std::find(link_notes.begin(), link_notes.end(), note) == link_notes.end())
      link_notes.push_back(note);
  PredictedRow result;
  result.batch = batch, result.gpus = gpus, result.measured_per_gpu_work = per_gpu.has_value();
  result.speedup = row.speedup;
  result.low = prediction.measured_step_ns / row.high_ns, result.high = prediction.measured_step_ns / row.low_ns;
  return result;
}

// The 1-GPU line and the predicted N-GPU times (1-GPU seconds per step over the predicted speedup).
std::vector<PredictedBreakEven> break_evens(const std::vector<ConfigurationRow>& rows,
                                            const std::vector<PredictedRow>& predicted,
                                            const std::vector<std::int64_t>& counts) {
  std::vector<TimePoint> one;
  std::map<std::int64_t, std::vector<TimePoint>> many;
  for (const auto& row : rows)
    if (row.configuration.gpus == 1 && row.seconds_per_step)
      one.push_back({static_cast<double>(row.configuration.batch), row.seconds_per_step->mean});
  for (const auto& p : predicted) {
    const auto* one_row = row_of(rows, p.batch, 1);
    if (one_row && one_row->seconds_per_step && p.speedup > 0)
      many[p.gpus].push_back({static_cast<double>(p.batch), one_row->seconds_per_step->mean / p.speedup});
  }
  std::vector<PredictedBreakEven> out;
  const auto one_fit = fit_line(one);
  for (const auto gpus : counts) {
    const auto fit = fit_line(many[gpus]);
    if (one_fit.valid && fit.valid) out.push_back({gpus, solve_break_even(one_fit, fit)});
  }
  return out;
}

}  // namespace

std::optional<StudyPredictions> predict_study(const StudyData& data, const std::vector<ConfigurationRow>& rows,
                                              const std::string& study_dir, const PredictionSettings& settings,
                                              std::vector<std::string>& notices) {
  if (!settings.enabled) return std::nullopt;
  options_of(settings, 2);  // a bad option is the user's mistake, said before any trace is read
  const auto counts = gpu_counts(data, settings);
  const auto traces_by_name = first_traces(data, study_dir);
  Traces traces;
  for (const auto& configuration : data.configurations)
    if (configuration.gpus == 1)
      if (const auto found = traces_by_name.find(configuration.name()); found != traces_by_name.end())
        traces.one_gpu.emplace(configuration.batch, found->second);
  StudyPredictions predictions{settings.link.empty() ? "from the traces' GPU" : settings.link, settings.strategy, {},
                               {}};
  std::vector<std::string> reasons;
  for (const auto& [batch, path] : traces.one_gpu) {
    for (const auto gpus : counts) {
      try {
        auto row = predict_row(traces, batch, gpus, settings, notices);
        if (const auto* measured = row_of(rows, batch, gpus); measured && measured->speedup)
          row.measured_speedup = measured->speedup->mean;
        predictions.rows.push_back(row);
      } catch (const TraceError& error) {
        if (error.kind() == TraceError::Kind::bad_input && error.path().empty()) throw;  // a bad option
        reasons.push_back(fmt::format("no prediction for batch {} on {} GPUs: {}", batch, gpus, error.what()));
      }
    }
  }
  if (predictions.rows.empty())
    throw TraceError::bad_input(study_dir, reasons.empty() ? "no prediction: the study has no 1-GPU run with a trace"
                                                           : "no prediction: " + reasons.front());
  notices.insert(notices.end(), reasons.begin(), reasons.end());
  predictions.break_evens = break_evens(rows, predictions.rows, counts);
  return predictions;
}

}  // namespace gpuprof::study
