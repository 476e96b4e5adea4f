#include "teacher_dataset.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t teacher_stream = 41;
constexpr std::uint64_t sample_stream = 42;
constexpr int latents = 16;
constexpr int teacher_units = 16;

// The fixed random parts: how latents become features, and the teacher network on the latents.
struct Teacher {
  Teacher(int feature_count, std::uint64_t seed) : features(feature_count) {
    DeterministicRandom random(derive_seed(seed, teacher_stream));
    mixing.resize(static_cast<std::size_t>(features) * latents);
    for (float& w : mixing) w = static_cast<float>(random.normal());
    hidden.resize(static_cast<std::size_t>(teacher_units) * latents);
    for (float& w : hidden) w = static_cast<float>(random.normal());
    output.resize(teacher_units);
    for (float& w : output) w = static_cast<float>(random.normal());
  }

  // Features: half signal (unit-variance mix scaled by 1/2), half uniform noise in [-1/2, 1/2].
  void write_features(const double* z, DeterministicRandom& random, float* x) const {
    const double scale = 0.5 / std::sqrt(static_cast<double>(latents));
    for (int f = 0; f < features; ++f) {
      const float* row = &mixing[static_cast<std::size_t>(f) * latents];
      double sum = 0.0;
      for (int l = 0; l < latents; ++l) sum += row[l] * z[l];
      x[f] = static_cast<float>(scale * sum + random.uniform(-0.5, 0.5));
    }
  }

  // Inputs scaled to unit variance keep tanh out of saturation, so the score is not a plain sign.
  double score(const double* z) const {
    double total = 0.0;
    for (int u = 0; u < teacher_units; ++u) {
      double sum = 0.0;
      for (int l = 0; l < latents; ++l) sum += hidden[static_cast<std::size_t>(u) * latents + l] * z[l];
      total += output[static_cast<std::size_t>(u)] * std::tanh(sum / std::sqrt(static_cast<double>(latents)));
    }
    return total;
  }

  int features;
  std::vector<float> mixing;  // [features][latents]
  std::vector<float> hidden;  // [units][latents]
  std::vector<float> output;
};

DenseDataset slice(const DenseDataset& all, int first, int count) {
  const auto stride = static_cast<std::size_t>(all.features);
  DenseDataset part{count, all.features, {}, {}, {}};
  part.inputs.assign(all.inputs.begin() + static_cast<std::ptrdiff_t>(first * stride),
                     all.inputs.begin() + static_cast<std::ptrdiff_t>((first + count) * stride));
  part.targets.assign(all.targets.begin() + first, all.targets.begin() + first + count);
  part.scores.assign(all.scores.begin() + first, all.scores.begin() + first + count);
  return part;
}

}  // namespace

TeacherData generate_teacher_data(const TeacherDataConfig& config) {
  const int total = config.train_samples + config.validation_samples;
  const auto stride = static_cast<std::size_t>(config.features);
  DenseDataset all{total, config.features, std::vector<float>(stride * static_cast<std::size_t>(total)), {}, {}};
  const Teacher teacher(config.features, config.seed);
  DeterministicRandom random(derive_seed(config.seed, sample_stream));
  double z[latents];
  for (int i = 0; i < total; ++i) {
    for (double& value : z) value = random.normal();
    teacher.write_features(z, random, &all.inputs[static_cast<std::size_t>(i) * stride]);
    all.scores.push_back(teacher.score(z));
  }
  std::vector<double> sorted = all.scores;
  std::nth_element(sorted.begin(), sorted.begin() + total / 2, sorted.end());
  const double median = sorted[static_cast<std::size_t>(total / 2)];
  for (double score : all.scores) all.targets.push_back(score > median ? 1.0F : 0.0F);
  return TeacherData{slice(all, 0, config.train_samples), slice(all, config.train_samples, config.validation_samples)};
}

void DenseSamples::write_sample(int index, float* inputs, float* targets, std::int32_t* /*ints*/) const {
  const auto stride = static_cast<std::size_t>(dataset_.features);
  std::memcpy(inputs, dataset_.inputs.data() + static_cast<std::size_t>(index) * stride, stride * sizeof(float));
  targets[0] = dataset_.targets[static_cast<std::size_t>(index)];
}

}  // namespace gpuprof::workloads
