#include "sample_source.hpp"

#include <algorithm>
#include <cstring>
#include <thread>
#include <vector>

namespace gpuprof::workloads {
namespace {

void write_row(const SampleSource& source, const SampleShape& shape, int sample, std::size_t row, float* inputs,
               float* targets, std::int32_t* ints) {
  source.write_sample(sample, inputs + row * shape.inputs, targets + row * shape.targets, ints + row * shape.ints);
}

// Rows [0, count) split into contiguous parts, one per thread (the calling thread takes the
// first). Rows are independent, so the batch is the same whatever the thread count.
template <typename WriteRow>
void write_rows(int count, int threads, const WriteRow& write) {
  const int parts = std::clamp(threads, 1, std::max(count, 1));
  const int per_part = (count + parts - 1) / std::max(parts, 1);
  auto write_part = [&](int part) {
    for (int i = part * per_part; i < std::min(count, (part + 1) * per_part); ++i) write(i);
  };
  std::vector<std::jthread> helpers;
  for (int part = 1; part < parts; ++part) helpers.emplace_back(write_part, part);
  write_part(0);
}

}  // namespace

void gather_samples(const SampleSource& source, const std::vector<std::int32_t>& order, int first, int count,
                    float* inputs, float* targets, std::int32_t* ints, int threads) {
  const SampleShape shape = source.shape();
  write_rows(count, threads, [&](int i) {
    write_row(source, shape, order[static_cast<std::size_t>(first + i)], static_cast<std::size_t>(i), inputs,
              targets, ints);
  });
}

void gather_range(const SampleSource& source, int first, int count, float* inputs, float* targets,
                  std::int32_t* ints, int threads) {
  const SampleShape shape = source.shape();
  write_rows(count, threads, [&](int i) {
    write_row(source, shape, first + i, static_cast<std::size_t>(i), inputs, targets, ints);
  });
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
