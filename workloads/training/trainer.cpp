#include "trainer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <ostream>

#include <fmt/format.h>

#include "cuda_check.hpp"
#include "flat_parameters.hpp"
#include "gradient_allreduce.hpp"
#include "graphed_steps.hpp"
#include "host_array.hpp"
#include "host_optimizer.hpp"
#include "model_factory.hpp"
#include "nvtx_range.hpp"
#include "placement_plan.hpp"
#include "replica.hpp"
#include "throughput_meter.hpp"
#include "workload_data.hpp"

namespace gpuprof::workloads {
namespace {

struct EpochTotals {
  double loss_sum = 0.0;
  double correct = 0.0;
};

// The training loop shared by every model. Replicated strategies (single, data-parallel,
// host-staged) hold one replica per GPU; placed strategies (tower-parallel, alternate)
// hold one replica whose layers span the GPUs as the placement plan says.
class Trainer {
 public:
  Trainer(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log)
      : options_(options), plan_(plan), data_(options),
        placement_(make_placement_plan(model_graph(options.model), plan.strategy, plan.gpu_count)),
        optimizer_config_(make_optimizer_config(options.optimizer, options.learning_rate, options.momentum)) {
    for (int r = 0; r < plan_.replicas; ++r) create_replica(r);
    if (plan.strategy == Strategy::data_parallel) create_allreduce();
    if (plan.strategy == Strategy::host_staged) create_host_master();
    create_graphed_steps();
    print_new_notes(log);
  }

  TrainingResult run(std::ostream* log);

 private:
  void create_replica(int index);
  void create_allreduce();
  void create_host_master();
  void create_graphed_steps();
  void train_step(int step);
  void forward_backward(const std::vector<std::vector<DeviceBatch>>& batches);
  void enqueue_single_step(const std::vector<DeviceBatch>& batches);
  void apply_device_optimizers();
  void apply_host_optimizer();
  EpochTotals take_training_totals();
  std::array<double, 2> evaluate();
  std::vector<float> final_parameters();
  std::size_t master_count() const { return master_.size(); }
  void wait_for_gpus();
  void print_new_notes(std::ostream* log);

  const WorkloadOptions& options_;
  TrainingPlan plan_;
  WorkloadData data_;
  PlacementPlan placement_;
  OptimizerConfig optimizer_config_;
  std::vector<Replica> replicas_;
  std::unique_ptr<GradientAllReduce> allreduce_;
  std::vector<float> initial_;
  // host-staged strategy: master weights and per-GPU gradient copies in pinned memory
  HostArray<float> master_;
  std::vector<HostArray<float>> host_gradients_;
  std::unique_ptr<HostOptimizer> host_optimizer_;
  std::unique_ptr<GraphedSteps> graphed_;  // --cuda-graphs on or auto, where the run can capture
  std::string cuda_graphs_decision_;      // where it cannot, or --cuda-graphs off
  std::size_t notes_printed_ = 0;
  std::size_t graph_notes_printed_ = 0;
};

void upload_parameters(const std::vector<ParameterGroup>& groups, const std::vector<float>& values) {
  std::size_t offset = 0;
  for (const ParameterGroup& group : groups) {
    group.context->make_current();
    GPUPROF_CHECK(cudaMemcpy(group.values, values.data() + offset, group.count * sizeof(float),
                             cudaMemcpyHostToDevice));
    refresh_bf16_copy(group);
    offset += group.count;
  }
}

void Trainer::create_replica(int index) {
  const Precision precision = parse_precision(options_.precision);
  Replica replica;
  if (places_layers_across_gpus(plan_.strategy)) {
    for (int device = 0; device < plan_.gpu_count; ++device) {
      replica.contexts.push_back(std::make_unique<DeviceContext>(device, precision));
    }
  } else {
    replica.contexts.push_back(std::make_unique<DeviceContext>(index, precision));
  }
  std::vector<const DeviceContext*> contexts;
  for (const auto& context : replica.contexts) contexts.push_back(context.get());
  replica.model = make_model(options_, placement_, contexts, std::max(plan_.per_gpu_batch, plan_.validation_batch));
  if (initial_.empty()) initial_ = replica.model->initial_parameters(options_.seed);
  const std::vector<ParameterGroup> groups = replica.model->parameter_groups();
  upload_parameters(groups, initial_);
  for (const DeviceContext* context : replica.model->input_contexts()) {
    const BatchSchedule schedule{index, plan_.per_gpu_batch, plan_.global_batch, plan_.steps_per_epoch,
                                 plan_.total_steps, options_.seed, options_.loader_us};
    const InputPipelineConfig pipeline{schedule, options_.prefetch, options_.host_memory == "pinned",
                                       options_.loader == "pool", options_.loader_threads};
    replica.pipelines.push_back(std::make_unique<InputPipeline>(*context, data_.train(), pipeline));
  }
  if (plan_.strategy != Strategy::host_staged) {
    for (const ParameterGroup& group : groups) {
      group.context->make_current();  // the optimizer's state lives beside its parameters
      replica.optimizers.push_back(std::make_unique<DeviceOptimizer>(optimizer_config_, group.count));
    }
  }
  replica.model->loss_context().make_current();
  replica.metrics = DeviceArray<double>(2, "loss metrics");
  GPUPROF_CHECK(cudaMemset(replica.metrics.data(), 0, replica.metrics.bytes()));
  for (const auto& context : replica.contexts) {
    context->make_current();
    GPUPROF_CHECK(cudaDeviceSynchronize());  // setup copies and memsets precede the compute streams' work
  }
  replicas_.push_back(std::move(replica));
}

// Only replicated strategies all-reduce, and their models have one parameter group.
void Trainer::create_allreduce() {
  std::vector<GradientAllReduce::Member> members;
  for (Replica& replica : replicas_) {
    const ParameterGroup group = replica.model->parameter_groups().front();
    members.push_back({group.context, group.gradients});
  }
  const std::size_t bucket_floats = static_cast<std::size_t>(options_.bucket_kib) * 1024 / sizeof(float);
  allreduce_ = std::make_unique<GradientAllReduce>(std::move(members), bucket_floats);
}

void Trainer::create_host_master() {
  const std::size_t count = replicas_.front().model->parameter_count();
  master_ = HostArray<float>(count, true, "host master weights");
  std::copy(initial_.begin(), initial_.end(), master_.data());
  for (std::size_t i = 0; i < replicas_.size(); ++i) host_gradients_.emplace_back(count, true, "host gradient copy");
  host_optimizer_ = std::make_unique<HostOptimizer>(optimizer_config_, count);
}

void Trainer::create_graphed_steps() {
  const CudaGraphMode mode = parse_cuda_graph_mode(options_.cuda_graphs);
  const CudaGraphSchedule schedule = plan_cuda_graph_steps(mode, cuda_graph_ineligibility(options_, plan_),
                                                           plan_.warmup_steps, plan_.total_steps);
  if (schedule.capture_step < 0) {
    cuda_graphs_decision_ = decide_cuda_graphs(mode, schedule, {}).reason;
    return;
  }
  graphed_ = std::make_unique<GraphedSteps>(
      mode, schedule, replicas_.front(), data_.train().shape(), plan_.per_gpu_batch,
      [this](const std::vector<DeviceBatch>& batches) { enqueue_single_step(batches); });
}

// The whole step of a single replica on its batch: what a CUDA graph captures.
void Trainer::enqueue_single_step(const std::vector<DeviceBatch>& batches) {
  forward_backward({batches});
  apply_device_optimizers();
}

void Trainer::forward_backward(const std::vector<std::vector<DeviceBatch>>& batches) {
  const float loss_scale = 1.0F / static_cast<float>(plan_.global_batch);
  {
    NvtxRange range("forward");
    for (std::size_t r = 0; r < replicas_.size(); ++r) {
      TrainableModel& model = *replicas_[r].model;
      model.zero_gradients();
      model.forward_loss(batches[r], true, loss_scale, replicas_[r].loss_metrics());
    }
  }
  NvtxRange range("backward");
  TrainableModel& first = *replicas_.front().model;
  const int stages = first.backward_stages();
  const bool overlap = allreduce_ && options_.overlap_allreduce;
  for (int stage = 0; stage < stages; ++stage) {
    for (Replica& replica : replicas_) replica.model->backward_stage(stage);
    // The last stage's gradients are reduced by train_step, after the backward range.
    if (overlap && stage + 1 < stages) {
      NvtxRange allreduce_range("allreduce");
      const GradientRange ready = first.stage_gradients(stage);
      allreduce_->start(ready.offset, ready.count);
    }
  }
}

void Trainer::apply_device_optimizers() {
  NvtxRange range("optimizer");
  for (Replica& replica : replicas_) {
    const std::vector<ParameterGroup> groups = replica.model->parameter_groups();
    for (std::size_t g = 0; g < groups.size(); ++g) {
      groups[g].context->make_current();
      replica.optimizers[g]->step(groups[g].values, groups[g].gradients, groups[g].context->compute_stream());
      refresh_bf16_copy(groups[g]);
    }
  }
}

// Host-staged: gradients come back to the host, are summed (the loss is already
// scaled by the global batch) and applied to the master copy. Replicated models
// have a single parameter group.
void Trainer::apply_host_optimizer() {
  const std::size_t count = master_count();
  {
    NvtxRange range("host-sync");
    for (std::size_t i = 0; i < replicas_.size(); ++i) {
      const ParameterGroup group = replicas_[i].model->parameter_groups().front();
      group.context->make_current();
      GPUPROF_CHECK(cudaMemcpyAsync(host_gradients_[i].data(), group.gradients, count * sizeof(float),
                                    cudaMemcpyDeviceToHost, group.context->compute_stream()));
    }
    for (Replica& replica : replicas_) replica.contexts.front()->synchronize();
    for (std::size_t i = 1; i < replicas_.size(); ++i) {
      for (std::size_t k = 0; k < count; ++k) host_gradients_[0].data()[k] += host_gradients_[i].data()[k];
    }
  }
  NvtxRange range("optimizer");
  host_optimizer_->step(std::span<float>(master_.data(), count),
                        std::span<const float>(host_gradients_[0].data(), count));
}

void copy_master_to(Replica& replica, const HostArray<float>& master) {
  const ParameterGroup group = replica.model->parameter_groups().front();
  group.context->make_current();
  GPUPROF_CHECK(cudaMemcpyAsync(group.values, master.data(), master.size() * sizeof(float), cudaMemcpyHostToDevice,
                                group.context->compute_stream()));
  refresh_bf16_copy(group);
}

void Trainer::train_step(int step) {
  NvtxRange step_range(fmt::format("step {}", step));
  if (plan_.strategy == Strategy::host_staged) {
    NvtxRange range("h2d");
    for (Replica& replica : replicas_) copy_master_to(replica, master_);
  }
  if (graphed_) {
    graphed_->run_step(step);
    return;
  }
  std::vector<std::vector<DeviceBatch>> batches(replicas_.size());
  for (std::size_t r = 0; r < replicas_.size(); ++r) {
    for (auto& pipeline : replicas_[r].pipelines) batches[r].push_back(pipeline->acquire(step));
  }
  forward_backward(batches);
  if (allreduce_) {
    NvtxRange range("allreduce");
    TrainableModel& first = *replicas_.front().model;
    if (options_.overlap_allreduce) {
      const GradientRange last = first.stage_gradients(first.backward_stages() - 1);
      allreduce_->start(last.offset, last.count);
    } else {
      allreduce_->start(0, first.parameter_count());
    }
    allreduce_->finish();
  }
  if (plan_.strategy == Strategy::host_staged) {
    apply_host_optimizer();
  } else {
    apply_device_optimizers();
  }
  for (Replica& replica : replicas_) {
    for (auto& pipeline : replica.pipelines) pipeline->release(step);
  }
}

// Notes a model adds while training (a layer's fallback) are printed once, after those of its setup.
void Trainer::print_new_notes(std::ostream* log) {
  const std::vector<std::string> notes = replicas_.front().model->notes();
  for (; notes_printed_ < notes.size(); ++notes_printed_) {
    if (log != nullptr) *log << notes[notes_printed_] << std::endl;
  }
  if (!graphed_) return;
  for (; graph_notes_printed_ < graphed_->notes().size(); ++graph_notes_printed_) {
    if (log != nullptr) *log << graphed_->notes()[graph_notes_printed_] << std::endl;
  }
}

void Trainer::wait_for_gpus() {
  for (Replica& replica : replicas_) {
    for (const auto& context : replica.contexts) context->synchronize();
  }
}

EpochTotals Trainer::take_training_totals() {
  EpochTotals totals;
  for (Replica& replica : replicas_) {
    const DeviceContext& context = replica.model->loss_context();
    context.make_current();
    std::array<double, 2> values{};
    replica.metrics.download(values.data(), 2, context.compute_stream());
    replica.metrics.zero(context.compute_stream());
    for (const auto& other : replica.contexts) other->synchronize();
    totals.loss_sum += values[0];
    totals.correct += values[1];
  }
  return totals;
}

// A validation batch on one input GPU: device buffers and their host staging.
struct EvaluationBuffers {
  const DeviceContext* context = nullptr;
  DeviceArray<float> inputs;
  DeviceArray<float> targets;
  DeviceArray<std::int32_t> ints;
};

// Validation runs on replica 0 only: after each step all replicas hold the same weights.
std::array<double, 2> Trainer::evaluate() {
  NvtxRange range("eval");
  Replica& replica = replicas_.front();
  if (plan_.strategy == Strategy::host_staged) copy_master_to(replica, master_);
  const SampleSource& validation = data_.validation();
  const SampleShape shape = validation.shape();
  const auto batch = static_cast<std::size_t>(plan_.validation_batch);
  std::vector<float> host_inputs(batch * shape.inputs);
  std::vector<float> host_targets(batch * shape.targets);
  std::vector<std::int32_t> host_ints(batch * shape.ints);
  std::vector<EvaluationBuffers> buffers;
  for (const DeviceContext* context : replica.model->input_contexts()) {
    context->make_current();
    buffers.push_back({context, DeviceArray<float>(host_inputs.size(), "validation inputs"),
                       DeviceArray<float>(host_targets.size(), "validation targets"),
                       DeviceArray<std::int32_t>(host_ints.size(), "validation integers")});
  }
  const DeviceContext& loss_context = replica.model->loss_context();
  loss_context.make_current();
  DeviceArray<double> metrics(2, "validation metrics");
  metrics.zero(loss_context.compute_stream());
  for (int first = 0; first < validation.samples(); first += plan_.validation_batch) {
    const int size = std::min(plan_.validation_batch, validation.samples() - first);
    const auto rows = static_cast<std::size_t>(size);
    gather_range(validation, first, size, host_inputs.data(), host_targets.data(), host_ints.data(),
                 options_.loader_threads);
    std::vector<DeviceBatch> batches;
    for (EvaluationBuffers& b : buffers) {
      b.context->make_current();
      cudaStream_t stream = b.context->compute_stream();
      if (shape.inputs > 0) b.inputs.upload(host_inputs.data(), rows * shape.inputs, stream);
      if (shape.targets > 0) b.targets.upload(host_targets.data(), rows * shape.targets, stream);
      if (shape.ints > 0) b.ints.upload(host_ints.data(), rows * shape.ints, stream);
      batches.push_back({b.inputs.data(), b.targets.data(), b.ints.data(), size});
    }
    replica.model->forward_loss(batches, false, 1.0F, LossMetrics{metrics.data()});
    // The host buffers are refilled next; keep it simple and wait for every GPU.
    for (const auto& context : replica.contexts) context->synchronize();
  }
  std::array<double, 2> values{};
  loss_context.make_current();
  metrics.download(values.data(), 2, loss_context.compute_stream());
  loss_context.synchronize();
  const auto samples = static_cast<double>(validation.samples());
  return {values[0] / samples, values[1] / samples};
}

std::vector<float> Trainer::final_parameters() {
  if (plan_.strategy == Strategy::host_staged) return {master_.data(), master_.data() + master_.size()};
  std::vector<float> values;
  for (const ParameterGroup& group : replicas_.front().model->parameter_groups()) {
    group.context->make_current();
    const std::size_t offset = values.size();
    values.resize(offset + group.count);
    GPUPROF_CHECK(cudaMemcpy(values.data() + offset, group.values, group.count * sizeof(float),
                             cudaMemcpyDeviceToHost));
  }
  return values;
}

TrainingResult Trainer::run(std::ostream* log) {
  TrainingResult result;
  RunSummary& summary = result.summary;
  summary.options = options_;
  summary.plan = plan_;
  summary.parameter_count = replicas_.front().model->parameter_count();
  summary.transfers_per_step = static_cast<int>(placement_.transfers.size());
  for (int device = 0; device < plan_.gpu_count; ++device) {
    const bool placed = places_layers_across_gpus(plan_.strategy);
    const Replica& replica = replicas_[placed ? 0 : static_cast<std::size_t>(device)];
    const auto& contexts = replica.contexts;
    summary.device_names.push_back(contexts[contexts.size() == 1 ? 0 : static_cast<std::size_t>(device)]->name());
  }
  // One process drives every GPU, so its batch is the whole job's: compare and study read these.
  nvtx_mark(fmt::format("gpuprof.meta global_batch={}", plan_.global_batch));
  nvtx_mark(fmt::format("gpuprof.meta gpus={}", plan_.gpu_count));
  // The gradient size `gpuprof predict` needs: the optimizer updates fp32 arrays, one value per parameter.
  nvtx_mark(fmt::format("gpuprof.meta parameter_count={}", summary.parameter_count));
  nvtx_mark(fmt::format("gpuprof.meta gradient_bytes={}", summary.parameter_count * sizeof(float)));
  using Clock = std::chrono::steady_clock;
  const auto origin = Clock::now();
  auto seconds_now = [&origin] { return std::chrono::duration<double>(Clock::now() - origin).count(); };
  ThroughputMeter meter(plan_.warmup_steps, plan_.global_batch);
  int step = 0;
  for (int epoch = 1; epoch <= plan_.epochs; ++epoch) {
    const int steps = std::min(plan_.steps_per_epoch, plan_.total_steps - step);
    const double start = seconds_now();
    meter.start_epoch(start);
    for (int i = 0; i < steps; ++i) {
      train_step(step);
      if (meter.ends_warmup(step)) {
        wait_for_gpus();  // the warm-up's work is done before the clock starts
        meter.warmup_done(seconds_now());
      }
      ++step;
    }
    const EpochTotals totals = take_training_totals();  // waits for every GPU
    const double end = seconds_now();
    const TimedSpan timed = meter.end_epoch(steps, end);
    EpochRecord record;
    record.epoch = epoch;
    record.steps = steps;
    record.warmup_steps = steps - timed.steps;
    const double samples = static_cast<double>(steps) * plan_.global_batch;
    record.train_loss = totals.loss_sum / samples;
    record.train_accuracy = totals.correct / samples;
    record.seconds = end - start;
    record.samples_per_second = ThroughputMeter::samples_per_second(timed, plan_.global_batch);
    if (epoch % options_.eval_every == 0 || epoch == plan_.epochs) {
      const auto [loss, accuracy] = evaluate();
      record.validation_loss = loss;
      record.validation_accuracy = accuracy;
    }
    print_new_notes(log);
    if (log != nullptr && !options_.quiet) *log << format_epoch_line(record) << std::endl;
    summary.training_seconds += record.seconds;
    summary.epochs.push_back(record);
  }
  summary.samples_per_second = meter.samples_per_second();
  summary.warmup_steps = meter.warmup_steps();
  summary.timed_steps = meter.timed_steps();
  summary.timed_seconds = meter.timed_seconds();
  summary.cuda_graphs = graphed_ ? graphed_->decision() : cuda_graphs_decision_;
  result.final_parameters = final_parameters();
  return result;
}

}  // namespace

TrainingResult train_workload(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log) {
  Trainer trainer(options, plan, log);
  return trainer.run(log);
}

TrainingResult train_rnn(const WorkloadOptions& options, const TrainingPlan& plan, std::ostream* log) {
  WorkloadOptions rnn = options;
  rnn.model = "rnn";
  return train_workload(rnn, plan, log);
}

}  // namespace gpuprof::workloads
