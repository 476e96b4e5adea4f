#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device_array.hpp"
#include "flat_parameters.hpp"
#include "fm_head.hpp"
#include "layer_link.hpp"
#include "parameter_layout.hpp"
#include "placement_plan.hpp"
#include "text_tower.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

struct TowersConfig {
  int vocab = 0;
  int review_len = 0;
  int embedding = 0;
  int filters = 0;
  int kernel_size = 0;
  int max_batch = 0;
};

// DeepCoNN-style rating model: a user tower reads the user's review document, an item
// tower the item's, a factorization machine on both outputs predicts the rating, MSE loss.
// Every layer runs on the GPU the placement plan gives it; the model issues exactly the
// plan's transfers (executed_transfers() lists the last step's, for tests).
class TowersModel : public TrainableModel {
 public:
  static constexpr int tower_outputs = 64;
  static constexpr int factors = 8;

  // contexts[d] is the plan's GPU d; batch rows are ReviewSamples' (2 x review_len tokens, 1 rating).
  TowersModel(const std::vector<const DeviceContext*>& contexts, const PlacementPlan& plan,
              const TowersConfig& config);

  std::size_t parameter_count() const override;
  std::vector<ParameterGroup> parameter_groups() override;
  std::vector<float> initial_parameters(std::uint64_t seed) const override;
  std::vector<const DeviceContext*> input_contexts() const override;
  const DeviceContext& loss_context() const override { return *context_of("head"); }
  std::vector<std::string> notes() const override { return notes_; }

  void zero_gradients() override;
  void forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                    LossMetrics metrics) override;
  void backward_stage(int stage) override;
  GradientRange stage_gradients(int stage) const override;

  const std::vector<PlannedTransfer>& executed_transfers() const { return executed_; }
  // Which layer owns which floats of parameter group `group` (tests name the parameters they check).
  const ParameterLayout& group_layout(std::size_t group) const { return groups_.at(group).layout; }

 private:
  struct Owner {  // one layer's parameters
    std::string name;
    std::size_t count = 0;
    std::function<void(ParameterSlice)> bind;
    std::function<void(std::span<float>, DeterministicRandom&)> initialize;
  };
  struct Group {  // the parameters held by one GPU
    const DeviceContext* context = nullptr;
    ParameterLayout layout;
    std::vector<std::size_t> owners;  // index into owners_, per layout entry
    FlatParameters parameters;
  };

  const DeviceContext* context_of(const std::string& layer) const;
  TowerPlacement tower_placement(const std::string& tower) const;
  void create_parameters();
  std::size_t batch_index(const std::string& layer) const;

  std::vector<const DeviceContext*> contexts_;
  PlacementPlan plan_;
  TowersConfig config_;
  std::vector<PlannedTransfer> executed_;
  std::unique_ptr<TextTower> user_;
  std::unique_ptr<TextTower> item_;
  std::unique_ptr<FmHead> head_;
  std::unique_ptr<LayerLink> user_to_head_;
  std::unique_ptr<LayerLink> item_to_head_;
  std::vector<Owner> owners_;
  std::vector<Group> groups_;
  std::vector<std::string> notes_;
  DeviceArray<float> prediction_;           // head GPU
  DeviceArray<float> prediction_gradient_;  // head GPU
  const float* user_output_ = nullptr;      // on the head GPU
  const float* item_output_ = nullptr;
  int batch_ = 0;
};

}  // namespace gpuprof::workloads
