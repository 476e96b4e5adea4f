#include "sample_source.hpp"

#include <cstring>

namespace gpuprof::workloads {
namespace {

void write_row(const SampleSource& source, const SampleShape& shape, int sample, std::size_t row, float* inputs,
               float* targets, std::int32_t* ints) {
  source.write_sample(sample, inputs + row * shape.inputs, targets + row * shape.targets, ints + row * shape.ints);
}

}  // namespace

void gather_samples(const SampleSource& source, const std::vector<std::int32_t>& order, int first, int count,
                    float* inputs, float* targets, std::int32_t* ints) {
  const SampleShape shape = source.shape();
  for (int i = 0; i < count; ++i) {
    write_row(source, shape, order[static_cast<std::size_t>(first + i)], static_cast<std::size_t>(i), inputs,
              targets, ints);
  }
}

void gather_range(const SampleSource& source, int first, int count, float* inputs, float* targets,
                  std::int32_t* ints) {
  const SampleShape shape = source.shape();
  for (int i = 0; i < count; ++i) {
    write_row(source, shape, first + i, static_cast<std::size_t>(i), inputs, targets, ints);
  }
}

SampleShape SequenceSamples::shape() const {
  return SampleShape{static_cast<std::size_t>(dataset_.seq_len) * dataset_.features, 0, 1};
}

void SequenceSamples::write_sample(int index, float* inputs, float* /*targets*/, std::int32_t* ints) const {
  const std::size_t stride = shape().inputs;
  std::memcpy(inputs, dataset_.sequence(index), stride * sizeof(float));
  ints[0] = dataset_.labels[static_cast<std::size_t>(index)];
}

}  // namespace gpuprof::workloads
