#include "model_graph.hpp"

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

// Appends a chain of layers, the first reading `first_input` (or the batch when -1).
int add_chain(ModelGraph& graph, const std::vector<std::string>& names, int first_input) {
  int previous = first_input;
  for (const std::string& name : names) {
    LayerNode node{name, {}, previous < 0};
    if (previous >= 0) node.inputs.push_back(previous);
    graph.layers.push_back(node);
    previous = static_cast<int>(graph.layers.size()) - 1;
  }
  return previous;
}

}  // namespace

ModelGraph towers_graph() {
  ModelGraph graph{"towers", {}};
  const int user = add_chain(graph, {"user.embedding", "user.conv", "user.pool", "user.dense"}, -1);
  const int item = add_chain(graph, {"item.embedding", "item.conv", "item.pool", "item.dense"}, -1);
  // The head reads the ratings (its loss targets) from the batch as well.
  graph.layers.push_back(LayerNode{"head", {user, item}, true});
  return graph;
}

ModelGraph mlp_graph() {
  ModelGraph graph{"mlp", {}};
  const int last = add_chain(graph, {"dense1", "dense2", "dense3", "dense4", "output"}, -1);
  graph.layers[static_cast<std::size_t>(last)].reads_batch = true;  // the targets
  return graph;
}

ModelGraph resnet_graph() {
  ModelGraph graph{"resnet", {}};
  const int last = add_chain(graph, {"stem", "stage1", "stage2", "stage3", "stage4", "classifier"}, -1);
  graph.layers[static_cast<std::size_t>(last)].reads_batch = true;  // the labels
  return graph;
}

ModelGraph rnn_graph() {
  ModelGraph graph{"rnn", {}};
  const int last = add_chain(graph, {"recurrent", "classifier"}, -1);
  graph.layers[static_cast<std::size_t>(last)].reads_batch = true;  // the labels
  return graph;
}

ModelGraph model_graph(const std::string& model) {
  if (model == "towers") return towers_graph();
  if (model == "mlp") return mlp_graph();
  if (model == "rnn") return rnn_graph();
  if (model == "resnet") return resnet_graph();
  throw WorkloadError(fmt::format("no layer graph for model '{}'", model), exit_bad_input);
}

}  // namespace gpuprof::workloads
