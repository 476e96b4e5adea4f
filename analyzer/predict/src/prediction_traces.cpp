#include "gpuprof/predict/prediction_traces.hpp"

#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/progress/counted_loading.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {

CheckedPrediction check_prediction(const PredictRequest& request, const std::vector<std::string>& paths) {
  if (paths.size() > 2)
    throw TraceError::bad_input(paths[2],
                                "predict reads one 1-GPU trace, and optionally a second one at the per-GPU batch");
  auto options = options_of(request);
  auto inputs = job::expand_inputs(paths);
  // The user's measurements are inputs too: -o naming one must not replace it.
  inputs.insert(inputs.end(), request.link_files.begin(), request.link_files.end());
  if (!request.topology.empty()) inputs.push_back(request.topology);
  return {std::move(options), std::move(inputs)};
}

trace::TraceModel load_prediction_trace(const std::string& path, const progress::ProgressCallback& progress) {
  importers::TemporaryStore store;  // an imported copy only needs to live until the model is in memory
  const auto trace = importers::open_as_trace(path, store, progress);
  auto model = importers::read_as_input(
      // The launch details: the optimizer's grid can size the gradients (gradient_size_from_optimizer).
      path, trace, [&] { return progress::load_counted(trace, {.load_kernel_launch_details = true}, progress); });
  model.path = path;  // errors name the user's file, not the imported copy
  return model;
}

}  // namespace gpuprof::predict
