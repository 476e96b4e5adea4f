#include "layer_choices.hpp"

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {

LayerChoices layer_choices(const WorkloadOptions& options) {
  LayerChoices choices;
  if (options.conv_algo == "heuristic") {
    choices.convolution = ConvolutionSearch::heuristic;
  } else if (options.conv_algo == "graph") {
    choices.convolution = ConvolutionSearch::graph;
  } else if (options.conv_algo != "measured") {
    throw WorkloadError(fmt::format("--conv-algo must be heuristic, measured or graph, got {}", options.conv_algo),
                        exit_bad_input);
  }
  if (options.batch_norm == "legacy") {
    choices.batch_norm = BatchNormImplementation::legacy;
  } else if (options.batch_norm != "fused") {
    throw WorkloadError(fmt::format("--batch-norm must be legacy or fused, got {}", options.batch_norm),
                        exit_bad_input);
  }
  return choices;
}

bool resnet_channels_last(const WorkloadOptions& options) {
  if (options.layout == "nhwc") return true;
  if (options.layout == "nchw") return false;
  if (options.layout != "auto") {
    throw WorkloadError(fmt::format("--layout must be auto, nhwc or nchw, got {}", options.layout), exit_bad_input);
  }
  return options.precision != "fp32";
}

const char* name_of(ConvolutionSearch search) {
  switch (search) {
    case ConvolutionSearch::heuristic: return "heuristic";
    case ConvolutionSearch::graph: return "graph";
    case ConvolutionSearch::measured: break;
  }
  return "measured";
}

const char* name_of(BatchNormImplementation implementation) {
  return implementation == BatchNormImplementation::legacy ? "legacy" : "fused";
}

}  // namespace gpuprof::workloads
