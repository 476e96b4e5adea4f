#pragma once

#include <cstdint>
#include <vector>

#include "sample_source.hpp"

namespace gpuprof::workloads {

struct ImageDataConfig {
  int samples = 0;
  int image_size = 0;
  int classes = 0;
  std::uint64_t seed = 1;
  std::uint64_t first_index = 0;  // validation images use indices after the training ones
  bool channels_last = true;       // [size][size][3], else [3][size][size]
};

// What makes a class recognisable: a colour and a stripe frequency pair.
struct ImageClass {
  float colour[3] = {0.0F, 0.0F, 0.0F};
  int frequency_x = 1;
  int frequency_y = 1;
};

// Class-conditional synthetic RGB images (channels-last or planar), made on the host
// when a batch is assembled (a stored ResNet-sized set would not fit in memory). Image i's
// class and contents depend only on (seed, first_index + i). Each image is its class's
// colour plus oriented stripes at its class's frequencies, with a random phase and
// amplitude and pixel noise, so the class is learnable but no two images are the same.
class ImageSamples : public SampleSource {
 public:
  explicit ImageSamples(const ImageDataConfig& config);
  int samples() const override { return config_.samples; }
  SampleShape shape() const override;
  void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const override;

  int label_of(int index) const;
  const ImageClass& image_class(int label) const { return classes_[static_cast<std::size_t>(label)]; }

 private:
  ImageDataConfig config_;
  std::vector<ImageClass> classes_;
};

}  // namespace gpuprof::workloads
