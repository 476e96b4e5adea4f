#pragma once

// The traces `gpuprof predict TRACE [PER_GPU_TRACE]` reads, checked and loaded in one place, so that the
// app's per-GPU-batch trace is read exactly as the command line reads its second argument, and a bad one
// gets the same line.

#include <string>
#include <vector>

#include "gpuprof/predict/predict_request.hpp"
#include "gpuprof/progress/progress.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

struct CheckedPrediction {
  PredictOptions options;
  std::vector<std::string> inputs;  // the files the traces name (job::expand_inputs): no output may replace one
};

// Everything `gpuprof predict` checks before it reads a trace, in its order: at most two traces (the 1-GPU
// trace and optionally the one at the per-GPU batch; a third is named), every option (options_of), then each
// path (one that does not exist or a damaged trace). Throws TraceError::bad_input.
CheckedPrediction check_prediction(const PredictRequest& request, const std::vector<std::string>& paths);

// One trace of any format gpuprof reads (a foreign one is imported into a temporary that is gone on return),
// with the launch details (the optimizer's grid sizes the gradients when the trace does not state them). Its path and every error name the user's file.
trace::TraceModel load_prediction_trace(const std::string& path, const progress::ProgressCallback& progress = {});

}  // namespace gpuprof::predict
