#pragma once

#include <memory>

#include "device_array.hpp"
#include "device_context.hpp"
#include "device_optimizer.hpp"
#include "input_pipeline.hpp"
#include "rnn_classifier.hpp"

namespace gpuprof::workloads {

// Everything one GPU holds: its streams and handles, the model copy, its input
// pipeline, its optimizer (absent when the host applies updates), and the loss
// and accuracy sums of the current epoch.
struct Replica {
  std::unique_ptr<DeviceContext> context;
  std::unique_ptr<RnnClassifier> model;
  std::unique_ptr<InputPipeline> pipeline;
  std::unique_ptr<DeviceOptimizer> optimizer;
  DeviceArray<double> metrics;  // [loss sum, correct count]

  LossMetrics loss_metrics() { return LossMetrics{metrics.data()}; }
};

}  // namespace gpuprof::workloads
