#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sequence_dataset.hpp"

namespace gpuprof::workloads {

// How many values one sample contributes to each part of a batch: dense inputs,
// float targets (ratings, 0/1 labels) and integers (token ids, class labels).
struct SampleShape {
  std::size_t inputs = 0;
  std::size_t targets = 0;
  std::size_t ints = 0;
};

// A dataset as the input pipeline sees it: samples it can write into batch rows.
// Every model's data goes through this one interface, so one pipeline serves them all.
class SampleSource {
 public:
  virtual ~SampleSource() = default;
  virtual int samples() const = 0;
  virtual SampleShape shape() const = 0;
  // Writes sample `index` to inputs[0..shape.inputs), targets[...], ints[...].
  virtual void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const = 0;
};

// Writes `count` samples named by order[first..first+count) as consecutive batch rows, on
// `threads` host threads (like a data loader's workers; write_sample must be thread-safe).
void gather_samples(const SampleSource& source, const std::vector<std::int32_t>& order, int first, int count,
                    float* inputs, float* targets, std::int32_t* ints, int threads = 1);
// The same for samples first..first+count-1 in stored order (validation).
void gather_range(const SampleSource& source, int first, int count, float* inputs, float* targets,
                  std::int32_t* ints, int threads = 1);

// The rnn's sequences: inputs are the sequence, the one integer is the class label.
class SequenceSamples : public SampleSource {
 public:
  explicit SequenceSamples(const SequenceDataset& dataset) : dataset_(dataset) {}
  int samples() const override { return dataset_.samples; }
  SampleShape shape() const override;
  void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const override;

 private:
  const SequenceDataset& dataset_;
};

}  // namespace gpuprof::workloads
