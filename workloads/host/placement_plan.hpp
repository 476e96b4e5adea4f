#pragma once

#include <string>
#include <vector>

#include "model_graph.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {

enum class TransferKind {
  activation,  // forward: a layer's output to the GPU of the layer that reads it
  gradient,    // backward: the gradient of that output back to the producer's GPU
};

struct PlannedTransfer {
  TransferKind kind = TransferKind::activation;
  std::string producer;  // the layer whose output (or output's gradient) moves
  std::string consumer;  // the layer that reads that output
  int from_device = 0;
  int to_device = 0;
  bool tower_output = false;  // the producer ends a tower and the consumer joins towers

  bool operator==(const PlannedTransfer&) const = default;
};

struct PlacedLayer {
  std::string name;
  int device = 0;  // within a replica: GPU index for placed strategies, 0 (the replica's own GPU) otherwise

  bool operator==(const PlacedLayer&) const = default;
};

// Which layer runs on which GPU and every copy between GPUs in one training step.
// Replicated strategies hold every layer on each replica's GPU and move no activations.
struct PlacementPlan {
  std::string model;
  Strategy strategy = Strategy::single;
  int gpu_count = 1;
  int replicas = 1;
  std::vector<PlacedLayer> layers;          // forward order
  std::vector<PlannedTransfer> transfers;   // activations in forward order, then gradients in backward order
  std::vector<int> input_devices;           // GPUs that receive every batch, ascending
  std::vector<int> devices_used;            // GPUs holding at least one layer, ascending

  // The GPU of a layer by name; throws std::out_of_range for an unknown layer.
  int device_of(const std::string& layer) const;
};

// tower-parallel: the first tower on GPU 0, the second on GPU 1, joining layers on GPU 0
// (on GPU 2 when there are 3 GPUs). alternate: a layer's GPU is its depth (longest path
// from the batch) modulo the GPU count, so consecutive layers alternate. Throws
// WorkloadError (exit 2) for a strategy the graph cannot use or more GPUs than it can fill.
PlacementPlan make_placement_plan(const ModelGraph& graph, Strategy strategy, int gpu_count);

// The --print-plan text: a line per GPU with its layers, then every transfer.
std::string format_placement_plan(const PlacementPlan& plan);

}  // namespace gpuprof::workloads
