#include "sequence_dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int teacher_hidden = 8;
constexpr std::uint64_t data_stream = 1;
constexpr std::uint64_t teacher_stream = 2;
constexpr std::uint64_t shuffle_stream = 3;

struct Teacher {
  int features = 0;
  std::vector<double> input_weights;      // [teacher_hidden][features]
  std::vector<double> recurrent_weights;  // [teacher_hidden][teacher_hidden]
  std::vector<double> readout;            // [teacher_hidden]

  Teacher(int feature_count, std::uint64_t seed) : features(feature_count) {
    DeterministicRandom random(derive_seed(seed, teacher_stream));
    const double input_scale = 1.5 / std::sqrt(static_cast<double>(features));
    // Recurrent gain below one keeps a fading memory of several steps, not just the last.
    const double recurrent_scale = 0.8 / std::sqrt(static_cast<double>(teacher_hidden));
    input_weights.resize(static_cast<std::size_t>(teacher_hidden) * features);
    for (auto& w : input_weights) w = input_scale * random.normal();
    recurrent_weights.resize(teacher_hidden * teacher_hidden);
    for (auto& w : recurrent_weights) w = recurrent_scale * random.normal();
    readout.resize(teacher_hidden);
    for (auto& w : readout) w = random.normal();
  }

  double score(const float* sequence, int seq_len) const {
    std::vector<double> state(teacher_hidden, 0.0);
    std::vector<double> next(teacher_hidden);
    for (int t = 0; t < seq_len; ++t) {
      const float* x = sequence + static_cast<std::size_t>(t) * features;
      for (int i = 0; i < teacher_hidden; ++i) {
        double sum = 0.0;
        for (int f = 0; f < features; ++f) sum += input_weights[i * features + f] * x[f];
        for (int j = 0; j < teacher_hidden; ++j) sum += recurrent_weights[i * teacher_hidden + j] * state[j];
        next[i] = std::tanh(sum);
      }
      state.swap(next);
    }
    return std::inner_product(state.begin(), state.end(), readout.begin(), 0.0);
  }
};

// Class boundaries at the quantiles of all scores give (nearly) equal classes.
std::vector<std::int32_t> labels_by_quantile(const std::vector<double>& scores, int classes) {
  std::vector<double> sorted = scores;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> boundaries;
  for (int c = 1; c < classes; ++c) {
    boundaries.push_back(sorted[sorted.size() * static_cast<std::size_t>(c) / classes]);
  }
  std::vector<std::int32_t> labels(scores.size());
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const auto above = std::upper_bound(boundaries.begin(), boundaries.end(), scores[i]);
    labels[i] = static_cast<std::int32_t>(above - boundaries.begin());
  }
  return labels;
}

SequenceDataset slice(const SequenceDataConfig& config, const std::vector<float>& inputs,
                      const std::vector<std::int32_t>& labels, int first, int count) {
  SequenceDataset dataset{count, config.seq_len, config.features, config.classes, {}, {}};
  const std::size_t stride = static_cast<std::size_t>(config.seq_len) * config.features;
  dataset.inputs.assign(inputs.begin() + static_cast<std::ptrdiff_t>(first * stride),
                        inputs.begin() + static_cast<std::ptrdiff_t>((first + count) * stride));
  dataset.labels.assign(labels.begin() + first, labels.begin() + first + count);
  return dataset;
}

}  // namespace

SequenceData generate_sequence_data(const SequenceDataConfig& config) {
  const int total = config.train_samples + config.validation_samples;
  const std::size_t stride = static_cast<std::size_t>(config.seq_len) * config.features;
  std::vector<float> inputs(stride * total);
  DeterministicRandom random(derive_seed(config.seed, data_stream));
  for (auto& value : inputs) value = static_cast<float>(random.uniform(-1.0, 1.0));

  const Teacher teacher(config.features, config.seed);
  std::vector<double> scores(total);
  for (int i = 0; i < total; ++i) scores[i] = teacher.score(inputs.data() + i * stride, config.seq_len);
  const std::vector<std::int32_t> labels = labels_by_quantile(scores, config.classes);

  return SequenceData{slice(config, inputs, labels, 0, config.train_samples),
                      slice(config, inputs, labels, config.train_samples, config.validation_samples)};
}

std::vector<std::int32_t> epoch_order(int samples, std::uint64_t seed, int epoch) {
  std::vector<std::int32_t> order(samples);
  std::iota(order.begin(), order.end(), 0);
  DeterministicRandom random(derive_seed(seed, shuffle_stream + 16 * static_cast<std::uint64_t>(epoch)));
  for (int i = samples - 1; i > 0; --i) {
    const auto j = static_cast<int>(random.below(static_cast<std::uint64_t>(i) + 1));
    std::swap(order[i], order[j]);
  }
  return order;
}

void gather_batch(const SequenceDataset& dataset, const std::vector<std::int32_t>& order, int first,
                  int count, float* inputs, std::int32_t* labels) {
  const std::size_t stride = static_cast<std::size_t>(dataset.seq_len) * dataset.features;
  for (int i = 0; i < count; ++i) {
    const int sample = order[first + i];
    std::memcpy(inputs + i * stride, dataset.sequence(sample), stride * sizeof(float));
    labels[i] = dataset.labels[sample];
  }
}

}  // namespace gpuprof::workloads
