#pragma once

#include <memory>
#include <vector>

#include "device_array.hpp"
#include "device_context.hpp"
#include "device_optimizer.hpp"
#include "input_pipeline.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

// One copy of the model and everything it uses: the GPUs it spans (one for replicated
// strategies, several when layers are placed across GPUs) with their streams and handles,
// an input pipeline per GPU that reads the batch, an optimizer per parameter group (none
// when the host applies updates), and the loss and accuracy sums of the current epoch
// on the GPU that computes the loss.
struct Replica {
  std::vector<std::unique_ptr<DeviceContext>> contexts;
  std::unique_ptr<TrainableModel> model;
  std::vector<std::unique_ptr<InputPipeline>> pipelines;  // in model->input_contexts() order
  std::vector<std::unique_ptr<DeviceOptimizer>> optimizers;  // in model->parameter_groups() order
  DeviceArray<double> metrics;  // [loss sum, correct count]

  LossMetrics loss_metrics() { return LossMetrics{metrics.data()}; }
};

}  // namespace gpuprof::workloads
