#pragma once

#include <string>
#include <vector>

namespace gpuprof::workloads {

// A layer as the placement plan sees it: a name ("user.conv"), the layers whose
// outputs it reads (indices of earlier layers), and whether it reads the batch itself
// (tokens, targets), which decides which GPUs the input pipeline feeds.
struct LayerNode {
  std::string name;
  std::vector<int> inputs;
  bool reads_batch = false;
};

// The layers of a model in the order the forward pass runs them (topological order).
// Layer names "tower.layer" put a layer in a tower; a layer with several inputs joins towers.
struct ModelGraph {
  std::string model;
  std::vector<LayerNode> layers;
};

// towers: user and item towers (embedding, conv, pool, dense) joined by the rating head.
ModelGraph towers_graph();
// mlp: five dense layers in a chain.
ModelGraph mlp_graph();
// resnet: stem, the four stages of residual blocks, the classifier.
ModelGraph resnet_graph();
// rnn: the recurrent stack, then the classifier.
ModelGraph rnn_graph();
// One of the above by model name; throws WorkloadError for a model without a graph.
ModelGraph model_graph(const std::string& model);

}  // namespace gpuprof::workloads
