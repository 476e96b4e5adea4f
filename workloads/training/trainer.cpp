#include "trainer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <ostream>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "gradient_allreduce.hpp"
#include "host_array.hpp"
#include "host_optimizer.hpp"
#include "nvtx_range.hpp"
#include "replica.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t dropout_stream = 11;

struct EpochTotals {
  double loss_sum = 0.0;
  double correct = 0.0;
};

class RnnTrainer {
 public:
  RnnTrainer(const WorkloadOptions& options, const TrainingPlan& plan)
      : options_(options), plan_(plan),
        data_(generate_sequence_data({options.train_samples, options.validation_samples, options.seq_len,
                                      options.features, options.classes, options.seed})),
        optimizer_config_(make_optimizer_config(options.optimizer, options.learning_rate, options.momentum)) {
    create_replicas();
    if (plan.strategy == Strategy::data_parallel) create_allreduce();
    if (plan.strategy == Strategy::host_staged) create_host_master();
  }

  TrainingResult run(std::ostream* log);

 private:
  void create_replicas();
  void create_allreduce();
  void create_host_master();
  void train_step(int step);
  void forward_backward(int step, std::vector<DeviceBatch>& batches);
  void apply_device_optimizers();
  void apply_host_optimizer();
  EpochTotals take_training_totals();
  std::array<double, 2> evaluate();
  std::vector<float> final_parameters();

  const WorkloadOptions& options_;
  TrainingPlan plan_;
  SequenceData data_;
  OptimizerConfig optimizer_config_;
  std::vector<Replica> replicas_;
  std::unique_ptr<GradientAllReduce> allreduce_;
  // host-staged strategy: master weights and per-GPU gradient copies in pinned memory
  HostArray<float> master_;
  std::vector<HostArray<float>> host_gradients_;
  std::unique_ptr<HostOptimizer> host_optimizer_;
};

void RnnTrainer::create_replicas() {
  const Precision precision = parse_precision(options_.precision);
  RnnClassifierConfig model_config;
  model_config.recurrent = RecurrentConfig{parse_cell(options_.cell), options_.features, options_.hidden,
                                           options_.layers, options_.seq_len,
                                           std::max(plan_.per_gpu_batch, plan_.validation_batch),
                                           static_cast<float>(options_.dropout),
                                           derive_seed(options_.seed, dropout_stream)};
  model_config.classes = options_.classes;
  std::vector<float> initial;
  for (int device = 0; device < plan_.gpu_count; ++device) {
    Replica replica;
    replica.context = std::make_unique<DeviceContext>(device, precision);
    replica.model = std::make_unique<RnnClassifier>(*replica.context, model_config);
    if (initial.empty()) initial = replica.model->initial_parameters(options_.seed);
    GPUPROF_CHECK(cudaMemcpy(replica.model->parameters(), initial.data(), initial.size() * sizeof(float),
                             cudaMemcpyHostToDevice));
    InputPipelineConfig pipeline{device, plan_.per_gpu_batch, plan_.global_batch, plan_.steps_per_epoch,
                                 plan_.total_steps, options_.prefetch, options_.host_memory == "pinned",
                                 options_.loader_us, options_.seed};
    replica.pipeline = std::make_unique<InputPipeline>(*replica.context, data_.train, pipeline);
    if (plan_.strategy != Strategy::host_staged) {
      replica.optimizer = std::make_unique<DeviceOptimizer>(optimizer_config_, initial.size());
    }
    replica.metrics = DeviceArray<double>(2, "loss metrics");
    GPUPROF_CHECK(cudaMemset(replica.metrics.data(), 0, replica.metrics.bytes()));
    GPUPROF_CHECK(cudaDeviceSynchronize());  // setup copies and memsets precede the compute stream's work
    replicas_.push_back(std::move(replica));
  }
}

void RnnTrainer::create_allreduce() {
  std::vector<GradientAllReduce::Member> members;
  for (Replica& replica : replicas_) members.push_back({replica.context.get(), replica.model->gradients()});
  const std::size_t bucket_floats = static_cast<std::size_t>(options_.bucket_kib) * 1024 / sizeof(float);
  allreduce_ = std::make_unique<GradientAllReduce>(std::move(members), bucket_floats);
}

void RnnTrainer::create_host_master() {
  const std::size_t count = replicas_.front().model->parameter_count();
  master_ = HostArray<float>(count, true, "host master weights");
  const std::vector<float> initial = replicas_.front().model->initial_parameters(options_.seed);
  std::copy(initial.begin(), initial.end(), master_.data());
  for (std::size_t i = 0; i < replicas_.size(); ++i) {
    host_gradients_.emplace_back(count, true, "host gradient copy");
  }
  host_optimizer_ = std::make_unique<HostOptimizer>(optimizer_config_, count);
}

void RnnTrainer::forward_backward(int step, std::vector<DeviceBatch>& batches) {
  const float loss_scale = 1.0F / static_cast<float>(plan_.global_batch);
  for (Replica& replica : replicas_) batches.push_back(replica.pipeline->acquire(step));
  {
    NvtxRange range("forward");
    for (std::size_t i = 0; i < replicas_.size(); ++i) {
      Replica& replica = replicas_[i];
      replica.context->make_current();
      replica.model->zero_gradients(*replica.context);
      replica.model->forward_loss(*replica.context, batches[i].inputs, batches[i].labels, batches[i].size,
                                  true, loss_scale, replica.loss_metrics());
    }
  }
  NvtxRange range("backward");
  for (Replica& replica : replicas_) {
    replica.context->make_current();
    replica.model->backward_classifier(*replica.context);
  }
  const bool overlap = allreduce_ && options_.overlap_allreduce;
  if (overlap) {
    NvtxRange allreduce_range("allreduce");
    const auto& entry = replicas_.front().model->classifier_entry();
    allreduce_->start(entry.offset, entry.count);
  }
  for (Replica& replica : replicas_) {
    replica.context->make_current();
    replica.model->backward_recurrent(*replica.context);
  }
}

void RnnTrainer::apply_device_optimizers() {
  NvtxRange range("optimizer");
  for (Replica& replica : replicas_) {
    replica.context->make_current();
    replica.optimizer->step(replica.model->parameters(), replica.model->gradients(),
                            replica.context->compute_stream());
  }
}

// Host-staged: gradients come back to the host, are averaged (summed, since the
// loss is already scaled by the global batch) and applied to the master copy.
void RnnTrainer::apply_host_optimizer() {
  const std::size_t count = master_.size();
  {
    NvtxRange range("host-sync");
    for (std::size_t i = 0; i < replicas_.size(); ++i) {
      Replica& replica = replicas_[i];
      replica.context->make_current();
      GPUPROF_CHECK(cudaMemcpyAsync(host_gradients_[i].data(), replica.model->gradients(),
                                    count * sizeof(float), cudaMemcpyDeviceToHost,
                                    replica.context->compute_stream()));
    }
    for (Replica& replica : replicas_) replica.context->synchronize();
    for (std::size_t i = 1; i < replicas_.size(); ++i) {
      for (std::size_t k = 0; k < count; ++k) host_gradients_[0].data()[k] += host_gradients_[i].data()[k];
    }
  }
  NvtxRange range("optimizer");
  host_optimizer_->step(std::span<float>(master_.data(), count),
                        std::span<const float>(host_gradients_[0].data(), count));
}

void RnnTrainer::train_step(int step) {
  NvtxRange step_range(fmt::format("step {}", step));
  if (plan_.strategy == Strategy::host_staged) {
    NvtxRange range("h2d");
    for (Replica& replica : replicas_) {
      replica.context->make_current();
      GPUPROF_CHECK(cudaMemcpyAsync(replica.model->parameters(), master_.data(), master_.size() * sizeof(float),
                                    cudaMemcpyHostToDevice, replica.context->compute_stream()));
    }
  }
  std::vector<DeviceBatch> batches;
  forward_backward(step, batches);
  if (allreduce_) {
    NvtxRange range("allreduce");
    if (options_.overlap_allreduce) {
      const auto& entry = replicas_.front().model->recurrent_entry();
      allreduce_->start(entry.offset, entry.count);
    } else {
      allreduce_->start(0, replicas_.front().model->parameter_count());
    }
    allreduce_->finish();
  }
  if (plan_.strategy == Strategy::host_staged) {
    apply_host_optimizer();
  } else {
    apply_device_optimizers();
  }
  for (Replica& replica : replicas_) replica.pipeline->release(step);
}

EpochTotals RnnTrainer::take_training_totals() {
  EpochTotals totals;
  for (Replica& replica : replicas_) {
    replica.context->make_current();
    std::array<double, 2> values{};
    replica.metrics.download(values.data(), 2, replica.context->compute_stream());
    replica.metrics.zero(replica.context->compute_stream());
    replica.context->synchronize();
    totals.loss_sum += values[0];
    totals.correct += values[1];
  }
  return totals;
}

// Validation runs on GPU 0 only: after each step all replicas hold the same weights.
std::array<double, 2> RnnTrainer::evaluate() {
  NvtxRange range("eval");
  Replica& replica = replicas_.front();
  const DeviceContext& context = *replica.context;
  context.make_current();
  if (plan_.strategy == Strategy::host_staged) {
    GPUPROF_CHECK(cudaMemcpyAsync(replica.model->parameters(), master_.data(), master_.size() * sizeof(float),
                                  cudaMemcpyHostToDevice, context.compute_stream()));
  }
  const SequenceDataset& validation = data_.validation;
  const auto batch = static_cast<std::size_t>(plan_.validation_batch);
  const std::size_t stride = static_cast<std::size_t>(validation.seq_len) * validation.features;
  DeviceArray<float> inputs(batch * stride, "validation inputs");
  DeviceArray<std::int32_t> labels(batch, "validation labels");
  DeviceArray<double> metrics(2, "validation metrics");
  metrics.zero(context.compute_stream());
  for (int first = 0; first < validation.samples; first += plan_.validation_batch) {
    const int size = std::min(plan_.validation_batch, validation.samples - first);
    inputs.upload(validation.sequence(first), static_cast<std::size_t>(size) * stride, context.compute_stream());
    labels.upload(validation.labels.data() + first, static_cast<std::size_t>(size), context.compute_stream());
    replica.model->forward_loss(context, inputs.data(), labels.data(), size, false, 1.0F,
                                LossMetrics{metrics.data()});
    context.synchronize();  // the pageable source must outlive its copy; keep it simple
  }
  std::array<double, 2> values{};
  metrics.download(values.data(), 2, context.compute_stream());
  context.synchronize();
  const auto samples = static_cast<double>(validation.samples);
  return {values[0] / samples, values[1] / samples};
}

std::vector<float> RnnTrainer::final_parameters() {
  if (plan_.strategy == Strategy::host_staged) return {master_.data(), master_.data() + master_.size()};
  Replica& replica = replicas_.front();
  replica.context->make_current();
  std::vector<float> values(replica.model->parameter_count());
  GPUPROF_CHECK(cudaMemcpy(values.data(), replica.model->parameters(), values.size() * sizeof(float),
                           cudaMemcpyDeviceToHost));
  return values;
}

TrainingResult RnnTrainer::run(std::ostream* log) {
  TrainingResult result;
  RunSummary& summary = result.summary;
  summary.options = options_;
  summary.plan = plan_;
  summary.parameter_count = replicas_.front().model->parameter_count();
  for (Replica& replica : replicas_) summary.device_names.push_back(replica.context->name());
  int step = 0;
  for (int epoch = 1; epoch <= plan_.epochs; ++epoch) {
    const int steps = std::min(plan_.steps_per_epoch, plan_.total_steps - step);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < steps; ++i) train_step(step++);
    const EpochTotals totals = take_training_totals();  // waits for every GPU
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    EpochRecord record;
    record.epoch = epoch;
    record.steps = steps;
    const double samples = static_cast<double>(steps) * plan_.global_batch;
    record.train_loss = totals.loss_sum / samples;
    record.train_accuracy = totals.correct / samples;
    record.seconds = elapsed.count();
    record.samples_per_second = samples / elapsed.count();
    if (epoch % options_.eval_every == 0 || epoch == plan_.epochs) {
      const auto [loss, accuracy] = evaluate();
      record.validation_loss = loss;
      record.validation_accuracy = accuracy;
    }
    if (log != nullptr && !options_.quiet) *log << format_epoch_line(record) << std::endl;
    summary.training_seconds += record.seconds;
    summary.epochs.push_back(record);
  }
  summary.samples_per_second =
      static_cast<double>(plan_.total_steps) * plan_.global_batch / summary.training_seconds;
  result.final_parameters = final_parameters();
  return result;
}

}  // namespace

TrainingResult train_rnn(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log) {
  RnnTrainer trainer(options, plan);
  return trainer.run(log);
}

}  // namespace gpuprof::workloads
