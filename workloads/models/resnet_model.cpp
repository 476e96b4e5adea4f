#include "resnet_model.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "deterministic_random.hpp"
#include "convolution_cache.hpp"
#include "graph_engine_choice.hpp"
#include "layer_kernels.hpp"
#include "layer_notice.hpp"
#include "loss_functions.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t initialization_stream = 500;
constexpr int stem_channels = 64;
constexpr int stage_widths[] = {64, 128, 256, 512};

}  // namespace

std::vector<int> resnet_stage_blocks(int depth) {
  if (depth == 18) return {2, 2, 2, 2};
  if (depth == 34 || depth == 50) return {3, 4, 6, 3};
  throw WorkloadError(fmt::format("--depth must be 18, 34 or 50, got {}", depth), exit_bad_input);
}

ResnetModel::ResnetModel(const DeviceContext& context, const ResnetConfig& config)
    : context_(context), config_(config), element_(context.activation_type()) {
  context.make_current();
  input_shape_ =
      ImageShape{config.max_batch, config.image_size, config.image_size, 3, config.channels_last, element_};
  stem_ = std::make_unique<ConvBnUnit>(context,
                                       Conv2dConfig{input_shape_, stem_channels, 7, 2, 3, config.choices.convolution},
                                       BatchNormEpilogue::relu, config.choices.batch_norm, "stem");
  stem_pool_ = std::make_unique<PoolingLayer>(PoolingConfig{CUDNN_POOLING_MAX, 3, 1, 2});
  pooled_shape_ = stem_pool_->prepare(stem_->output_shape());
  build_blocks();
  final_shape_ = blocks_.back()->output_shape();
  average_pool_ = std::make_unique<PoolingLayer>(global_average_pooling(final_shape_.height));
  classifier_ = std::make_unique<DenseLayer>(final_shape_.channels, config.classes);
  long long largest = stem_->output_shape().elements();
  workspace_bytes_ = stem_->workspace_bytes();
  for (const auto& block : blocks_) {
    largest = std::max({largest, block->largest_activation(), block->output_shape().elements()});
    workspace_bytes_ = std::max(workspace_bytes_, block->workspace_bytes());
  }
  gradient_a_ = activations(largest, "resnet gradient");
  gradient_b_ = activations(largest, "resnet gradient");
  scratch_first_ = activations(largest, "resnet gradient scratch");
  scratch_second_ = activations(largest, "resnet gradient scratch");
  scratch_norm_ = activations(largest, "resnet batch norm gradient");
  workspace_ = DeviceArray<float>(workspace_bytes_ / sizeof(float) + 1, "cuDNN convolution workspace");
  if (bf16()) images_bf16_ = activations(input_shape_.elements(), "bf16 images");
  stem_pooled_ = activations(pooled_shape_.elements(), "stem pooled output");
  const auto batch = static_cast<std::size_t>(config.max_batch);
  const auto features = batch * static_cast<std::size_t>(final_shape_.channels);
  pooled_ = activations(static_cast<long long>(features), "pooled features");
  pooled_gradient_ = activations(static_cast<long long>(features), "pooled feature gradients");
  if (bf16()) {
    widened_ = DeviceArray<float>(features, "classifier inputs");
    widened_gradient_ = DeviceArray<float>(features, "classifier input gradients");
  }
  logits_ = DeviceArray<float>(batch * config.classes, "logits");
  logits_gradient_ = DeviceArray<float>(batch * config.classes, "logit gradients");
  create_parameters();
  // The run's output says which implementations an A/B run compared (refusals add their own note).
  note_once(fmt::format("resnet layers: {}, --conv-algo {} ({} convolution shapes timed), --batch-norm {} (stem: {})",
                        config.channels_last ? "NHWC" : "NCHW", name_of(config.choices.convolution),
                        convolution_cache().size() + graph_plan_cache().size(),
                        name_of(config.choices.batch_norm), describe(stem_->batch_norm_path())));
  stem_->reset_statistics(context);
  for (const auto& block : blocks_) block->reset_statistics(context);
}

void ResnetModel::build_blocks() {
  const bool bottleneck = config_.depth == 50;
  const std::vector<int> counts = resnet_stage_blocks(config_.depth);
  ImageShape shape = pooled_shape_;
  for (std::size_t stage = 0; stage < counts.size(); ++stage) {
    for (int b = 0; b < counts[stage]; ++b) {
      const int stride = stage > 0 && b == 0 ? 2 : 1;
      const ResidualBlockConfig block{shape, stage_widths[stage], stride, bottleneck, config_.choices};
      blocks_.push_back(std::make_unique<ResidualBlock>(context_, block, fmt::format("stage{}.block{}", stage + 1, b)));
      shape = blocks_.back()->output_shape();
    }
  }
}

// Parameters in forward order, so each backward stage's gradients are one contiguous range.
void ResnetModel::create_parameters() {
  std::vector<std::size_t> stage_first_owner;  // forward order: stem, blocks..., classifier
  stage_first_owner.push_back(owners_.size());
  stem_->add_owners(owners_);
  for (const auto& block : blocks_) {
    stage_first_owner.push_back(owners_.size());
    block->add_owners(owners_);
  }
  stage_first_owner.push_back(owners_.size());
  DenseLayer* classifier = classifier_.get();
  owners_.push_back({"classifier", classifier->parameter_count(),
                     [classifier](ParameterSlice s) { classifier->bind(s); },
                     [classifier](std::span<float> v, DeterministicRandom& r) { classifier->initialize(v, r); }});
  for (const ParameterOwner& owner : owners_) layout_.add(owner.name, owner.count);
  parameters_ = FlatParameters(layout_, bf16());
  for (std::size_t i = 0; i < owners_.size(); ++i) owners_[i].bind(parameters_.slice(layout_.entry(i)));
  stage_first_owner.push_back(owners_.size());
  // Backward stages run classifier, blocks in reverse, stem: reverse the forward ranges.
  for (std::size_t s = stage_first_owner.size() - 1; s-- > 0;) {
    const std::size_t first = layout_.entry(stage_first_owner[s]).offset;
    const std::size_t end = stage_first_owner[s + 1] < owners_.size()
                                ? layout_.entry(stage_first_owner[s + 1]).offset
                                : layout_.total();
    stage_ranges_.push_back(GradientRange{first, end - first});
  }
}

std::vector<ParameterGroup> ResnetModel::parameter_groups() {
  return {parameters_.group(context_)};
}

std::vector<float> ResnetModel::initial_parameters(std::uint64_t seed) const {
  std::vector<float> values(layout_.total(), 0.0F);
  for (std::size_t i = 0; i < owners_.size(); ++i) {
    const auto& entry = layout_.entry(i);
    DeterministicRandom random(derive_seed(seed, initialization_stream + i));
    owners_[i].initialize(std::span<float>(values.data() + entry.offset, entry.count), random);
  }
  return values;
}

void ResnetModel::zero_gradients() { parameters_.zero_gradients(context_.compute_stream()); }

void ResnetModel::prepare(int batch) {
  if (batch == batch_) return;
  batch_ = batch;
  stem_->prepare(context_, batch, workspace_bytes_);
  ImageShape stem_output = stem_->output_shape();
  stem_output.batch = batch;
  stem_pool_->prepare(stem_output);
  for (const auto& block : blocks_) block->prepare(context_, batch, workspace_bytes_);
  ImageShape last = final_shape_;
  last.batch = batch;
  average_pool_->prepare(last);
}

void ResnetModel::forward_loss(const std::vector<DeviceBatch>& batches, bool training, float loss_scale,
                               LossMetrics metrics) {
  const DeviceBatch& batch = batches.front();
  context_.make_current();
  prepare(batch.size);
  cudaStream_t stream = context_.compute_stream();
  images_ = batch.inputs;
  if (bf16()) {
    launch_round_to_bf16(batch.inputs, images_bf16_.data(), input_shape_.elements() / config_.max_batch * batch_,
                         stream);
    images_ = images_bf16_.data();
  }
  const ConvolutionWorkspace workspace{workspace_.data(), workspace_.size() * sizeof(float)};
  stem_->forward(context_, images_, nullptr, training, workspace);
  stem_pool_->forward(context_, stem_->output(), stem_pooled_.data());
  const void* current = stem_pooled_.data();
  for (const auto& block : blocks_) {
    block->forward(context_, current, training, workspace);
    current = block->output();
  }
  average_pool_->forward(context_, current, pooled_.data());
  if (bf16()) {
    launch_widen_from_bf16(pooled_.data(), widened_.data(), static_cast<long long>(batch_) * final_shape_.channels,
                           stream);
  }
  classifier_->forward(context_, features(), batch_, logits_.data());
  softmax_cross_entropy(logits_.data(), batch.ints, batch_, config_.classes, loss_scale, logits_gradient_.data(),
                        metrics, stream);
}

void ResnetModel::backward_stage(int stage) {
  context_.make_current();
  const ConvolutionWorkspace workspace{workspace_.data(), workspace_.size() * sizeof(float)};
  const int blocks = static_cast<int>(blocks_.size());
  if (stage == 0) {
    classifier_->backward(context_, features(), logits_gradient_.data(), batch_, features_gradient());
    if (bf16()) {
      launch_round_to_bf16(widened_gradient_.data(), pooled_gradient_.data(),
                           static_cast<long long>(batch_) * final_shape_.channels, context_.compute_stream());
    }
    average_pool_->backward(context_, blocks_.back()->output(), pooled_.data(), pooled_gradient_.data(),
                            gradient_a_.data());
    current_gradient_ = gradient_a_.data();
  } else if (stage <= blocks) {
    const auto index = static_cast<std::size_t>(blocks - stage);
    const void* input = index == 0 ? stem_pooled_.data() : blocks_[index - 1]->output();
    void* input_gradient = other_gradient(current_gradient_);
    blocks_[index]->backward(context_, input, current_gradient_, input_gradient,
                             GradientScratch{scratch_first_.data(), scratch_second_.data(), scratch_norm_.data()},
                             workspace);
    current_gradient_ = input_gradient;
  } else {
    void* stem_gradient = other_gradient(current_gradient_);
    stem_pool_->backward(context_, stem_->output(), stem_pooled_.data(), current_gradient_, stem_gradient);
    // The images need no gradient.
    stem_->backward(context_, images_, stem_gradient, scratch_norm_.data(), nullptr, false, nullptr, workspace);
  }
}

GradientRange ResnetModel::stage_gradients(int stage) const {
  return stage_ranges_.at(static_cast<std::size_t>(stage));
}

}  // namespace gpuprof::workloads
