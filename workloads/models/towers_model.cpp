#include "towers_model.hpp"

#include <algorithm>
#include <utility>

#include "deterministic_random.hpp"
#include "peer_access.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t initialization_stream = 300;
// The middle of the 1-5 rating scale: where the head's bias starts.
constexpr float rating_midpoint = 3.0F;

std::vector<std::pair<int, int>> crossing_pairs(const PlacementPlan& plan) {
  std::vector<std::pair<int, int>> pairs;
  for (const PlannedTransfer& transfer : plan.transfers) {
    const std::pair<int, int> pair{std::min(transfer.from_device, transfer.to_device),
                                   std::max(transfer.from_device, transfer.to_device)};
    if (std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) pairs.emplace_back(pair);
  }
  return pairs;
}

}  // namespace

TowersModel::TowersModel(const std::vector<const DeviceContext*>& contexts, const PlacementPlan& plan,
                         const TowersConfig& config)
    : contexts_(contexts), plan_(plan), config_(config) {
  notes_ = enable_peer_access(crossing_pairs(plan));
  const TowerShape shape{config.vocab, config.review_len, config.embedding, config.filters, config.kernel_size,
                         tower_outputs};
  user_ = std::make_unique<TextTower>("user", shape, tower_placement("user"), config.max_batch, &executed_);
  item_ = std::make_unique<TextTower>("item", shape, tower_placement("item"), config.max_batch, &executed_);
  const DeviceContext* head = context_of("head");
  head->make_current();
  head_ = std::make_unique<FmHead>(FactorizationShape{tower_outputs, factors}, config.max_batch);
  const auto batch = static_cast<std::size_t>(config.max_batch);
  prediction_ = DeviceArray<float>(batch, "predicted ratings");
  prediction_gradient_ = DeviceArray<float>(batch, "predicted rating gradients");
  const std::size_t outputs = batch * tower_outputs;
  user_to_head_ = std::make_unique<LayerLink>(
      LayerLink::Ends{context_of("user.dense"), head, "user.dense", "head", true}, outputs, &executed_);
  item_to_head_ = std::make_unique<LayerLink>(
      LayerLink::Ends{context_of("item.dense"), head, "item.dense", "head", true}, outputs, &executed_);
  create_parameters();
}

const DeviceContext* TowersModel::context_of(const std::string& layer) const {
  return contexts_.at(static_cast<std::size_t>(plan_.device_of(layer)));
}

TowerPlacement TowersModel::tower_placement(const std::string& tower) const {
  return TowerPlacement{context_of(tower + ".embedding"), context_of(tower + ".conv"), context_of(tower + ".pool"),
                        context_of(tower + ".dense")};
}

void TowersModel::create_parameters() {
  for (TextTower* tower : {user_.get(), item_.get()}) {
    const std::string name = tower == user_.get() ? "user" : "item";
    owners_.push_back({name + ".embedding", tower->embedding().parameter_count(),
                       [tower](ParameterSlice s) { tower->embedding().bind(s); },
                       [tower](std::span<float> v, DeterministicRandom& r) { tower->embedding().initialize(v, r); }});
    owners_.push_back({name + ".conv", tower->conv().parameter_count(),
                       [tower](ParameterSlice s) { tower->conv().bind(s); },
                       [tower](std::span<float> v, DeterministicRandom& r) { tower->conv().initialize(v, r); }});
    owners_.push_back({name + ".dense", tower->dense().parameter_count(),
                       [tower](ParameterSlice s) { tower->dense().bind(s); },
                       [tower](std::span<float> v, DeterministicRandom& r) { tower->dense().initialize(v, r); }});
  }
  FmHead* head = head_.get();
  owners_.push_back({"head", head->parameter_count(), [head](ParameterSlice s) { head->bind(s); },
                     [head](std::span<float> v, DeterministicRandom& r) { head->initialize(v, r, rating_midpoint); }});
  for (int device : plan_.devices_used) {
    Group group;
    group.context = contexts_.at(static_cast<std::size_t>(device));
    for (std::size_t i = 0; i < owners_.size(); ++i) {
      if (plan_.device_of(owners_[i].name) != device) continue;
      group.layout.add(owners_[i].name, owners_[i].count);
      group.owners.push_back(i);
    }
    if (group.owners.empty()) continue;  // e.g. a GPU holding only pooling layers
    group.context->make_current();
    // Its layers multiply fp32 arrays in every precision: no bf16 copies.
    group.parameters = FlatParameters(group.layout, false);
    for (std::size_t e = 0; e < group.owners.size(); ++e) {
      owners_[group.owners[e]].bind(group.parameters.slice(group.layout.entry(e)));
    }
    groups_.push_back(std::move(group));
  }
}

std::size_t TowersModel::parameter_count() const {
  std::size_t total = 0;
  for (const Group& group : groups_) total += group.layout.total();
  return total;
}

std::vector<ParameterGroup> TowersModel::parameter_groups() {
  std::vector<ParameterGroup> groups;
  for (Group& group : groups_) {
    groups.push_back(group.parameters.group(*group.context));
  }
  return groups;
}

// Each layer draws from its own stream, so placement never changes the initial weights.
std::vector<float> TowersModel::initial_parameters(std::uint64_t seed) const {
  std::vector<float> values(parameter_count(), 0.0F);
  std::size_t base = 0;
  for (const Group& group : groups_) {
    for (std::size_t e = 0; e < group.owners.size(); ++e) {
      const auto& entry = group.layout.entry(e);
      const std::size_t owner = group.owners[e];
      DeterministicRandom random(derive_seed(seed, initialization_stream + owner));
      owners_[owner].initialize(std::span<float>(values.data() + base + entry.offset, entry.count), random);
    }
    base += group.layout.total();
  }
  return values;
}

std::vector<const DeviceContext*> TowersModel::input_contexts() const {
  std::vector<const DeviceContext*> inputs;
  for (int device : plan_.input_devices) inputs.push_back(contexts_.at(static_cast<std::size_t>(device)));
  return inputs;
}

std::size_t TowersModel::batch_index(const std::string& layer) const {
  const auto& inputs = plan_.input_devices;
  return static_cast<std::size_t>(std::find(inputs.begin(), inputs.end(), plan_.device_of(layer)) - inputs.begin());
}

void TowersModel::zero_gradients() {
  executed_.clear();
  for (Group& group : groups_) {
    group.context->make_current();
    group.parameters.zero_gradients(group.context->compute_stream());
  }
}

void TowersModel::forward_loss(const std::vector<DeviceBatch>& batches, bool /*training*/, float loss_scale,
                               LossMetrics metrics) {
  batch_ = batches.front().size;
  const int length = config_.review_len;
  user_->forward(batches.at(batch_index("user.embedding")).ints, TokenSpan{2 * length, 0, length}, batch_);
  item_->forward(batches.at(batch_index("item.embedding")).ints, TokenSpan{2 * length, length, length}, batch_);
  const auto outputs = static_cast<std::size_t>(batch_) * tower_outputs;
  user_output_ = user_to_head_->forward(user_->output(), outputs);
  item_output_ = item_to_head_->forward(item_->output(), outputs);
  const DeviceContext& head = loss_context();
  head.make_current();
  head_->forward(head, user_output_, item_output_, batch_, prediction_.data());
  mean_squared_error(prediction_.data(), batches.at(batch_index("head")).targets, batch_, loss_scale,
                     prediction_gradient_.data(), metrics, head.compute_stream());
}

void TowersModel::backward_stage(int /*stage*/) {
  const DeviceContext& head = loss_context();
  head.make_current();
  head_->backward(head, user_output_, item_output_, prediction_gradient_.data(), batch_,
                  user_to_head_->consumer_gradient(), item_to_head_->consumer_gradient());
  const auto outputs = static_cast<std::size_t>(batch_) * tower_outputs;
  const float* user_gradient = user_to_head_->backward(outputs);
  const float* item_gradient = item_to_head_->backward(outputs);
  // The item tower first: the plan lists gradients in reverse layer order.
  item_->backward(item_gradient, batch_);
  user_->backward(user_gradient, batch_);
}

GradientRange TowersModel::stage_gradients(int /*stage*/) const {
  return GradientRange{0, groups_.front().layout.total()};
}

}  // namespace gpuprof::workloads
