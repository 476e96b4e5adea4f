#pragma once

#include <cstdint>
#include <vector>

#include "sample_source.hpp"

namespace gpuprof::workloads {

struct TeacherDataConfig {
  int features = 0;
  int train_samples = 0;
  int validation_samples = 0;
  std::uint64_t seed = 1;
};

// Dense feature vectors with a 0/1 target each, for binary classification.
struct DenseDataset {
  int samples = 0;
  int features = 0;
  std::vector<float> inputs;   // [samples][features], uniform in [-1, 1]
  std::vector<float> targets;  // [samples], 0 or 1
  std::vector<double> scores;  // [samples], the teacher's score (kept for tests)
};

struct TeacherData {
  DenseDataset train;
  DenseDataset validation;
};

// Each sample has 16 hidden latent values; its features are a fixed random linear mix
// of them plus uniform noise, and a fixed random network (16 latents -> 16 tanh units -> 1)
// scores it. The target is 1 above the median score, so classes are balanced. Because the
// features live near a 16-dimensional subspace, a network learns the labels from a few
// thousand samples even though there are 8000 features.
TeacherData generate_teacher_data(const TeacherDataConfig& config);

class DenseSamples : public SampleSource {
 public:
  explicit DenseSamples(const DenseDataset& dataset) : dataset_(dataset) {}
  int samples() const override { return dataset_.samples; }
  SampleShape shape() const override { return SampleShape{static_cast<std::size_t>(dataset_.features), 1, 0}; }
  void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const override;

 private:
  const DenseDataset& dataset_;
};

}  // namespace gpuprof::workloads
