#include "placement_plan.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

std::string tower_of(const std::string& layer) {
  const auto dot = layer.find('.');
  return dot == std::string::npos ? std::string() : layer.substr(0, dot);
}

std::vector<int> depths(const ModelGraph& graph) {
  std::vector<int> depth(graph.layers.size(), 0);
  for (std::size_t i = 0; i < graph.layers.size(); ++i) {
    for (int input : graph.layers[i].inputs) {
      depth[i] = std::max(depth[i], depth[static_cast<std::size_t>(input)] + 1);
    }
  }
  return depth;
}

std::vector<int> tower_parallel_devices(const ModelGraph& graph, int gpu_count) {
  std::vector<std::string> towers;
  for (const LayerNode& layer : graph.layers) {
    const std::string tower = tower_of(layer.name);
    if (!tower.empty() && std::find(towers.begin(), towers.end(), tower) == towers.end()) towers.push_back(tower);
  }
  if (towers.size() != 2) {
    throw WorkloadError(fmt::format("--strategy tower-parallel needs a model with two towers; {} has {}",
                                    graph.model, towers.size()), exit_bad_input);
  }
  if (gpu_count > 3) {
    throw WorkloadError(fmt::format("--strategy tower-parallel places two towers and a head, so it uses at "
                                    "most 3 GPUs (got {})", gpu_count), exit_bad_input);
  }
  // With a third GPU the head gets its own; with two it shares GPU 0 with the first tower.
  const int head_device = gpu_count == 3 ? 2 : 0;
  std::vector<int> devices;
  for (const LayerNode& layer : graph.layers) {
    const std::string tower = tower_of(layer.name);
    devices.push_back(tower.empty() ? head_device : (tower == towers[0] ? 0 : 1));
  }
  return devices;
}

std::vector<int> alternate_devices(const ModelGraph& graph, int gpu_count) {
  const std::vector<int> depth = depths(graph);
  const int levels = *std::max_element(depth.begin(), depth.end()) + 1;
  if (gpu_count > levels) {
    throw WorkloadError(fmt::format("--strategy alternate spreads {}'s {} layer levels over GPUs, so it uses "
                                    "at most {} GPUs (got {})", graph.model, levels, levels, gpu_count),
                        exit_bad_input);
  }
  std::vector<int> devices;
  for (int d : depth) devices.push_back(d % gpu_count);
  return devices;
}

std::vector<int> layer_devices(const ModelGraph& graph, Strategy strategy, int gpu_count) {
  if (strategy == Strategy::tower_parallel) return tower_parallel_devices(graph, gpu_count);
  if (strategy == Strategy::alternate) return alternate_devices(graph, gpu_count);
  return std::vector<int>(graph.layers.size(), 0);
}

bool joins_towers(const LayerNode& layer) { return layer.inputs.size() > 1; }

void add_transfers(const ModelGraph& graph, PlacementPlan& plan) {
  const auto& layers = graph.layers;
  auto transfer = [&](TransferKind kind, std::size_t consumer, int input) {
    const auto producer = static_cast<std::size_t>(input);
    const int producer_device = plan.layers[producer].device;
    const int consumer_device = plan.layers[consumer].device;
    const bool forward = kind == TransferKind::activation;
    return PlannedTransfer{kind, layers[producer].name, layers[consumer].name,
                           forward ? producer_device : consumer_device,
                           forward ? consumer_device : producer_device, joins_towers(layers[consumer])};
  };
  auto crosses = [&](std::size_t consumer, int input) {
    return plan.layers[consumer].device != plan.layers[static_cast<std::size_t>(input)].device;
  };
  for (std::size_t consumer = 0; consumer < layers.size(); ++consumer) {
    for (int input : layers[consumer].inputs) {
      if (crosses(consumer, input)) plan.transfers.push_back(transfer(TransferKind::activation, consumer, input));
    }
  }
  for (std::size_t i = layers.size(); i-- > 0;) {
    for (int input : layers[i].inputs) {
      if (crosses(i, input)) plan.transfers.push_back(transfer(TransferKind::gradient, i, input));
    }
  }
}

}  // namespace

int PlacementPlan::device_of(const std::string& layer) const {
  for (const PlacedLayer& placed : layers) {
    if (placed.name == layer) return placed.device;
  }
  throw std::out_of_range("no layer named " + layer + " in the placement plan");
}

PlacementPlan make_placement_plan(const ModelGraph& graph, Strategy strategy, int gpu_count) {
  if (gpu_count < 1) throw WorkloadError("a placement needs at least one GPU", exit_bad_input);
  if (places_layers_across_gpus(strategy) && gpu_count < 2) {
    throw WorkloadError(fmt::format("--strategy {} needs at least 2 GPUs, but only {} is available",
                                    strategy_name(strategy), gpu_count), exit_bad_input);
  }
  PlacementPlan plan;
  plan.model = graph.model;
  plan.strategy = strategy;
  plan.gpu_count = gpu_count;
  plan.replicas = places_layers_across_gpus(strategy) ? 1 : gpu_count;
  const std::vector<int> devices = layer_devices(graph, strategy, gpu_count);
  std::set<int> inputs;
  std::set<int> used;
  for (std::size_t i = 0; i < graph.layers.size(); ++i) {
    plan.layers.push_back(PlacedLayer{graph.layers[i].name, devices[i]});
    if (graph.layers[i].reads_batch) inputs.insert(devices[i]);
    used.insert(devices[i]);
  }
  plan.input_devices.assign(inputs.begin(), inputs.end());
  plan.devices_used.assign(used.begin(), used.end());
  add_transfers(graph, plan);
  return plan;
}

namespace {

std::string device_list(const std::vector<int>& devices) {
  std::string text;
  for (int device : devices) text += fmt::format("{}GPU {}", text.empty() ? "" : ", ", device);
  return text;
}

std::string format_transfer(const PlannedTransfer& t) {
  const bool forward = t.kind == TransferKind::activation;
  const std::string what = forward ? fmt::format("activation {} -> {}", t.producer, t.consumer)
                                   : fmt::format("gradient   {} -> {}", t.consumer, t.producer);
  const char* note = !t.tower_output ? "" : (forward ? " (tower output)" : " (tower output gradient)");
  return fmt::format("    {} {}  GPU {} -> GPU {}  peer-to-peer{}\n", forward ? "forward " : "backward", what,
                     t.from_device, t.to_device, note);
}

}  // namespace

std::string format_placement_plan(const PlacementPlan& plan) {
  std::string text = fmt::format("placement plan: model {}, strategy {}, {} GPU{}\n", plan.model,
                                 strategy_name(plan.strategy), plan.gpu_count, plan.gpu_count == 1 ? "" : "s");
  if (plan.replicas > 1) {
    text += fmt::format("  {} replicas, one per GPU (GPU 0 to GPU {}), each holding every layer; gradients are "
                        "{}\n", plan.replicas, plan.gpu_count - 1,
                        plan.strategy == Strategy::host_staged ? "summed on the host" : "all-reduced with NCCL");
  }
  for (int device : plan.devices_used) {
    std::string names;
    for (const PlacedLayer& layer : plan.layers) {
      if (layer.device == device) names += " " + layer.name;
    }
    text += fmt::format("  {}:{}\n", plan.replicas > 1 ? "each replica's GPU" : fmt::format("GPU {}", device),
                        names);
  }
  text += fmt::format("  batch copied from the host to: {}\n",
                      plan.replicas > 1 ? "every replica's GPU (its share)" : device_list(plan.input_devices));
  text += fmt::format("  transfers between GPUs per step: {}\n", plan.transfers.size());
  for (const PlannedTransfer& transfer : plan.transfers) text += format_transfer(transfer);
  return text;
}

}  // namespace gpuprof::workloads
