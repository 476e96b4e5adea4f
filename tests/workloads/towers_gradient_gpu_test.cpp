// The whole towers model against central differences of its own loss, and the trainer's
// optimizer against every layer: what the per-layer tests cannot see (the wiring between
// layers and towers, which buffer each gradient lands in, accumulation and zeroing, the
// loss scale, the parameter groups the optimizer is given).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cuda_check.hpp"
#include "deterministic_random.hpp"
#include "gpu_availability.hpp"
#include "gpu_test_helpers.hpp"
#include "model_graph.hpp"
#include "placement_plan.hpp"
#include "towers_model.hpp"
#include "trainer.hpp"
#include "training_plan.hpp"

namespace gpuprof::workloads {
namespace {

using namespace gpuprof::workloads::testing;

// Small enough that a forward pass is a few microseconds of GPU work; every layer keeps
// the shape it has in training (64 tower outputs, 8 factors: TowersModel's constants).
const TowersConfig small_config{/*vocab=*/20, /*review_len=*/6, /*embedding=*/4, /*filters=*/5, /*kernel_size=*/3,
                                /*max_batch=*/4};

// One fixed batch through one single-GPU TowersModel, its parameters read and written
// through the parameter group the trainer gives the optimizer.
class TowersProbe {
 public:
  explicit TowersProbe(const TowersConfig& config)
      : context_(0, Precision::fp32),
        model_({&context_}, make_placement_plan(towers_graph(), Strategy::single, 1), config),
        batch_(config.max_batch),
        metrics_(2, "metrics") {
    if (model_.parameter_groups().size() != 1) throw std::logic_error("one GPU, one parameter group");
    group_ = model_.parameter_groups().front();
    DeterministicRandom random(7);
    std::vector<std::int32_t> tokens(static_cast<std::size_t>(batch_) * 2 * config.review_len);
    const auto vocab = static_cast<std::uint64_t>(config.vocab);
    for (auto& token : tokens) token = static_cast<std::int32_t>(random.below(vocab));
    // Targets around 0 and a head bias of 0 (set_values) keep predictions small, so the
    // fp32 rounding of the loss is small next to the differences the check divides.
    const std::vector<float> targets = random_values(static_cast<std::size_t>(batch_), 8, -1.5, 1.5);
    tokens_ = to_device(tokens);
    targets_ = to_device(targets);
  }

  const ParameterLayout& layout() const { return model_.group_layout(0); }
  std::vector<float> initial_parameters(std::uint64_t seed) const { return model_.initial_parameters(seed); }
  std::size_t count() const { return group_.count; }

  void set_values(const std::vector<float>& values) {
    GPUPROF_CHECK(cudaMemcpy(group_.values, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  void set_value(std::size_t index, float value) {
    GPUPROF_CHECK(cudaMemcpy(group_.values + index, &value, sizeof(float), cudaMemcpyHostToDevice));
  }

  // The mean squared error of the batch, as the trainer computes it (loss scale 1 / batch).
  double loss() {
    forward();
    return to_host(metrics_.data(), 2)[0] / batch_;
  }

  // d(mean loss)/d(parameters) from the model's own backward stages.
  std::vector<float> gradients() {
    forward();
    for (int stage = 0; stage < model_.backward_stages(); ++stage) model_.backward_stage(stage);
    context_.synchronize();
    return to_host(group_.gradients, group_.count);
  }

 private:
  void forward() {
    GPUPROF_CHECK(cudaMemset(metrics_.data(), 0, metrics_.bytes()));
    model_.zero_gradients();
    const std::vector<DeviceBatch> batches{{nullptr, targets_.data(), tokens_.data(), batch_}};
    model_.forward_loss(batches, true, 1.0F / static_cast<float>(batch_), LossMetrics{metrics_.data()});
    context_.synchronize();
  }

  DeviceContext context_;
  TowersModel model_;
  int batch_;
  ParameterGroup group_;
  DeviceArray<std::int32_t> tokens_;
  DeviceArray<float> targets_;
  DeviceArray<double> metrics_;
};

// The entries of one layer worth checking: those with the largest analytic gradients (so a
// wrong gradient is large next to the tolerance) and a few spread over the layer (so zeros
// where the loss does move, or gradients where it does not, show too).
std::vector<std::size_t> indices_to_check(const std::vector<float>& analytic, const ParameterLayout::Entry& entry) {
  std::vector<std::size_t> local(entry.count);
  std::iota(local.begin(), local.end(), 0);
  const std::size_t largest = std::min<std::size_t>(4, entry.count);
  std::partial_sort(local.begin(), local.begin() + static_cast<std::ptrdiff_t>(largest), local.end(),
                    [&](std::size_t a, std::size_t b) {
                      return std::fabs(analytic[entry.offset + a]) > std::fabs(analytic[entry.offset + b]);
                    });
  local.resize(largest);
  for (std::size_t i : spread_indices(entry.count, 4)) local.push_back(i);
  std::sort(local.begin(), local.end());
  local.erase(std::unique(local.begin(), local.end()), local.end());
  std::vector<std::size_t> indices;
  for (std::size_t i : local) indices.push_back(entry.offset + i);
  return indices;
}

class TowersGradientGpuTest : public ::testing::Test {
 protected:
  void SetUp() override { GPUPROF_SKIP_WITHOUT_GPU(); }
};

const ParameterLayout::Entry& entry_named(const ParameterLayout& layout, const std::string& name) {
  for (const auto& entry : layout.entries()) {
    if (entry.name == name) return entry;
  }
  throw std::logic_error("no parameters named " + name);
}

// fp32 differences: a step of 3e-3 keeps the loss's rounding (~1e-7 of ~1) small next to
// the differences. A wrong gradient (wrong buffer, sign, scale, or missing) is off by its
// own size, which for the entries checked is far above these tolerances.
constexpr double difference_step = 3e-3;
constexpr double relative_tolerance = 0.05;
constexpr double absolute_tolerance = 2e-4;

// The loss at a parameter's value and a step either side.
struct Differences {
  double below = 0.0;
  double center = 0.0;
  double above = 0.0;
  double step_down = 0.0;  // value - (value - step) as fp32 holds them
  double step_up = 0.0;
  double central() const { return (above - below) / (step_up + step_down); }
  double slope_up() const { return (above - center) / step_up; }
  double slope_down() const { return (center - below) / step_down; }
};

Differences differences(TowersProbe& probe, std::size_t index, float value, double center) {
  const float up = value + static_cast<float>(difference_step);
  const float down = value - static_cast<float>(difference_step);
  Differences d;
  d.center = center;
  d.step_up = double(up) - value;
  d.step_down = double(value) - down;
  probe.set_value(index, up);
  d.above = probe.loss();
  probe.set_value(index, down);
  d.below = probe.loss();
  probe.set_value(index, value);
  return d;
}

// How one entry's analytic gradient compares with the differences.
enum class Verdict { matches, matches_at_kink, wrong };

// A ReLU output or a max-over-time choice that crosses over within the step (a kink) makes
// the two one-sided slopes disagree; there the analytic gradient is right when it lies
// between them (it equals the slope on the side without the kink).
Verdict judge(double analytic, const Differences& d) {
  const auto allowed = [](double a, double b) {
    return relative_tolerance * std::max(std::fabs(a), std::fabs(b)) + absolute_tolerance;
  };
  if (std::fabs(analytic - d.central()) <= allowed(analytic, d.central())) return Verdict::matches;
  const double low = std::min(d.slope_up(), d.slope_down());
  const double high = std::max(d.slope_up(), d.slope_down());
  const bool kink = high - low > allowed(high, low);
  const double margin = allowed(analytic, high) + allowed(analytic, low);
  if (kink && analytic >= low - margin && analytic <= high + margin) return Verdict::matches_at_kink;
  return Verdict::wrong;
}

TEST_F(TowersGradientGpuTest, WholeModelGradientMatchesCentralDifferences) {
  TowersProbe probe(small_config);
  std::vector<float> values = probe.initial_parameters(1);
  values[entry_named(probe.layout(), "head").offset] = 0.0F;  // the head's bias: see TowersProbe
  probe.set_values(values);
  const std::vector<float> analytic = probe.gradients();
  const double center = probe.loss();
  for (const auto& entry : probe.layout().entries()) {
    double largest = 0.0;
    std::size_t kinks = 0;
    const std::vector<std::size_t> indices = indices_to_check(analytic, entry);
    for (std::size_t index : indices) {
      const Differences d = differences(probe, index, values[index], center);
      const Verdict verdict = judge(analytic[index], d);
      EXPECT_NE(verdict, Verdict::wrong)
          << entry.name << "[" << index - entry.offset << "] (flat " << index << "): analytic " << analytic[index]
          << ", central difference " << d.central() << " (one-sided " << d.slope_down() << " below, "
          << d.slope_up() << " above)";
      if (verdict == Verdict::matches_at_kink) ++kinks;
      largest = std::max(largest, std::fabs(d.central()));
    }
    // A layer whose loss barely moves, or whose entries all sit at kinks, would pass any
    // gradient: the check would say nothing.
    EXPECT_GT(largest, 20 * absolute_tolerance) << entry.name << ": largest |dL/dp| checked is " << largest;
    EXPECT_LE(2 * kinks, indices.size()) << entry.name << ": " << kinks << " of " << indices.size() << " at kinks";
    std::printf("%-15s %zu entries checked (%zu at a kink), largest |gradient| %.3g\n", entry.name.c_str(),
                indices.size(), kinks, largest);
  }
  // Gradients are zeroed between steps, not accumulated across them.
  const std::vector<float> again = probe.gradients();
  for (std::size_t i = 0; i < analytic.size(); ++i) {
    ASSERT_NEAR(again[i], analytic[i], 1e-5 * (1.0 + std::fabs(analytic[i]))) << "flat parameter " << i;
  }
}

// A towers run of exactly one Adam step, through the trainer.
WorkloadOptions one_step_towers() {
  WorkloadOptions options;
  options.model = "towers";
  options.users = 20;
  options.items = 20;
  options.vocab = 50;
  options.review_len = 8;
  options.embedding = 4;
  options.filters = 5;
  options.kernel_size = 3;
  options.train_samples = 64;
  options.validation_samples = 64;
  options.batch = 64;
  options.epochs = 1;
  options.optimizer = "adam";
  options.learning_rate = 1e-3;
  options.quiet = true;
  return options;
}

// Adam's first step moves every parameter with a nonzero gradient by the learning rate
// (m / sqrt(v) = g / |g|): so each layer that the optimizer reaches, with the learning
// rate the options give, shows steps of exactly that size.
TEST_F(TowersGradientGpuTest, OneAdamStepMovesEveryLayerByTheLearningRate) {
  const WorkloadOptions options = one_step_towers();
  const TrainingPlan plan = make_training_plan(options, 1);
  ASSERT_EQ(plan.total_steps, 1);
  const TrainingResult result = train_workload(options, plan, nullptr);
  DeviceContext context(0, Precision::fp32);
  const TowersConfig config{options.vocab, options.review_len, options.embedding, options.filters,
                            options.kernel_size, options.batch};
  const TowersModel model({&context}, make_placement_plan(towers_graph(), Strategy::single, 1), config);
  const std::vector<float> initial = model.initial_parameters(options.seed);
  ASSERT_EQ(result.final_parameters.size(), initial.size());
  for (const auto& entry : model.group_layout(0).entries()) {
    std::size_t moved = 0;
    double largest = 0.0;
    for (std::size_t i = entry.offset; i < entry.offset + entry.count; ++i) {
      const double step = std::fabs(double(result.final_parameters[i]) - initial[i]);
      if (step > 0.0) ++moved;
      largest = std::max(largest, step);
    }
    EXPECT_GT(moved, 0U) << entry.name << ": no parameter moved";
    EXPECT_NEAR(largest, options.learning_rate, 0.01 * options.learning_rate) << entry.name;
    std::printf("%-15s %zu of %zu parameters moved, largest step %.3g\n", entry.name.c_str(), moved, entry.count,
                largest);
  }
}

// Documents fixed per user and item make the text as good as an id: a working model
// memorises one batch of 64 ratings, seen 200 times, whatever it does on new pairs.
TEST_F(TowersGradientGpuTest, FitsOneBatchItSeesOverAndOver) {
  WorkloadOptions options;
  options.model = "towers";
  options.users = 200;
  options.items = 200;
  options.vocab = 500;
  options.review_len = 32;
  options.embedding = 16;
  options.filters = 32;
  options.kernel_size = 3;
  options.train_samples = 64;
  options.validation_samples = 64;
  options.batch = 64;
  options.epochs = 200;  // one step each
  options.eval_every = options.epochs;
  options.learning_rate = 3e-3;
  options.quiet = true;
  const auto epochs = train_workload(options, make_training_plan(options, 1), nullptr).summary.epochs;
  ASSERT_EQ(epochs.size(), 200U);
  for (std::size_t e : {0, 9, 49, 99, 149, 199}) std::printf("step %3zu: loss %.4f\n", e + 1, epochs[e].train_loss);
  EXPECT_LT(epochs.back().train_loss, 0.25 * epochs.front().train_loss);
}

}  // namespace
}  // namespace gpuprof::workloads
