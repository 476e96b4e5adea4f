#pragma once

#include <cstdint>
#include <vector>

namespace gpuprof::workloads {

// Sequences [samples][seq_len][features] with one class label each, on the host.
struct SequenceDataset {
  int samples = 0;
  int seq_len = 0;
  int features = 0;
  int classes = 0;
  std::vector<float> inputs;
  std::vector<std::int32_t> labels;

  const float* sequence(int index) const {
    return inputs.data() + static_cast<std::size_t>(index) * seq_len * features;
  }
};

struct SequenceDataConfig {
  int train_samples = 0;
  int validation_samples = 0;
  int seq_len = 0;
  int features = 0;
  int classes = 0;
  std::uint64_t seed = 1;
};

struct SequenceData {
  SequenceDataset train;
  SequenceDataset validation;
};

// Learnable synthetic data: a fixed random "teacher" RNN reads each sequence and
// its final state's projection decides the class by quantile, so classes are balanced
// and the label depends on the order of the time steps, as real sequence labels do.
SequenceData generate_sequence_data(const SequenceDataConfig& config);

// The training order of an epoch: a permutation that depends only on seed and epoch,
// so every prefetch mode and strategy sees the same batches.
std::vector<std::int32_t> epoch_order(int samples, std::uint64_t seed, int epoch);

// Copies `count` samples, named by order[first..first+count), into contiguous
// buffers of count*seq_len*features inputs and count labels.
void gather_batch(const SequenceDataset& dataset, const std::vector<std::int32_t>& order, int first,
                  int count, float* inputs, std::int32_t* labels);

}  // namespace gpuprof::workloads
