#include "image_dataset.hpp"

#include <cmath>

#include "deterministic_random.hpp"

namespace gpuprof::workloads {
namespace {

constexpr std::uint64_t class_stream = 51;
constexpr std::uint64_t image_stream = 52;
constexpr double two_pi = 6.283185307179586;
// Distinct (x, y) stripe frequency pairs on a 17 x 17 grid cover up to 289 classes.
constexpr int frequency_grid = 17;

}  // namespace

ImageSamples::ImageSamples(const ImageDataConfig& config) : config_(config) {
  DeterministicRandom random(derive_seed(config.seed, class_stream));
  for (int c = 0; c < config.classes; ++c) {
    ImageClass image_class;
    for (float& channel : image_class.colour) channel = static_cast<float>(random.uniform(-0.5, 0.5));
    const int cell = c % (frequency_grid * frequency_grid);
    image_class.frequency_x = cell % frequency_grid;
    image_class.frequency_y = cell / frequency_grid;
    classes_.push_back(image_class);
  }
}

SampleShape ImageSamples::shape() const {
  return SampleShape{static_cast<std::size_t>(config_.image_size) * config_.image_size * 3, 0, 1};
}

int ImageSamples::label_of(int index) const {
  DeterministicRandom random(derive_seed(config_.seed, image_stream + 16 * (config_.first_index + index)));
  return static_cast<int>(random.below(static_cast<std::uint64_t>(config_.classes)));
}

void ImageSamples::write_sample(int index, float* inputs, float* /*targets*/, std::int32_t* ints) const {
  DeterministicRandom random(derive_seed(config_.seed, image_stream + 16 * (config_.first_index + index)));
  const int label = static_cast<int>(random.below(static_cast<std::uint64_t>(config_.classes)));
  ints[0] = label;
  const ImageClass& image_class = classes_[static_cast<std::size_t>(label)];
  const int size = config_.image_size;
  const double phase = two_pi * random.uniform();
  const double amplitude = random.uniform(0.3, 0.6);
  // sin(ax + by + p) = sin(ax) cos(by + p) + cos(ax) sin(by + p): two tables instead of a sine per pixel.
  std::vector<double> sin_x(static_cast<std::size_t>(size)), cos_x(sin_x.size());
  std::vector<double> sin_y(sin_x.size()), cos_y(sin_x.size());
  for (int i = 0; i < size; ++i) {
    const double ax = two_pi * (image_class.frequency_x + 1) * i / size;
    const double by = two_pi * (image_class.frequency_y + 1) * i / size + phase;
    sin_x[static_cast<std::size_t>(i)] = std::sin(ax);
    cos_x[static_cast<std::size_t>(i)] = std::cos(ax);
    sin_y[static_cast<std::size_t>(i)] = std::sin(by);
    cos_y[static_cast<std::size_t>(i)] = std::cos(by);
  }
  // A 32-bit linear congruential generator is plenty for pixel noise and far cheaper than splitmix.
  auto noise_state = static_cast<std::uint32_t>(random.next());
  const auto plane = static_cast<std::size_t>(size) * static_cast<std::size_t>(size);
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const auto sx = static_cast<std::size_t>(x);
      const auto sy = static_cast<std::size_t>(y);
      const double stripes = amplitude * (sin_x[sx] * cos_y[sy] + cos_x[sx] * sin_y[sy]);
      const std::size_t position = sy * static_cast<std::size_t>(size) + sx;
      for (std::size_t c = 0; c < 3; ++c) {
        noise_state = noise_state * 1664525U + 1013904223U;
        const double noise = (static_cast<double>(noise_state >> 8) * 0x1.0p-24 - 0.5) * 0.4;
        const std::size_t at = config_.channels_last ? position * 3 + c : c * plane + position;
        inputs[at] = static_cast<float>(image_class.colour[c] + stripes + noise);
      }
    }
  }
}

}  // namespace gpuprof::workloads
