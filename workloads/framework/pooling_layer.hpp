#pragma once

#include "cudnn_descriptors.hpp"
#include "device_context.hpp"

namespace gpuprof::workloads {

struct PoolingConfig {
  cudnnPoolingMode_t mode = CUDNN_POOLING_MAX;
  int window = 1;
  int padding = 0;
  int stride = 1;
};

// cuDNN pooling (either layout): ResNet's 3x3 stride-2 max pooling after
// the stem, and global average pooling (window = the whole image) before the classifier.
class PoolingLayer {
 public:
  explicit PoolingLayer(const PoolingConfig& config);

  // Output shape for an input shape (also sets the descriptors for following calls).
  ImageShape prepare(const ImageShape& input);
  ImageShape output_shape(const ImageShape& input) const;
  // Arrays of the prepared shape's element type.
  void forward(const DeviceContext& context, const void* input, void* output) const;
  // Writes dL/dinput; max pooling needs the forward input and output.
  void backward(const DeviceContext& context, const void* input, const void* output, const void* output_gradient,
                void* input_gradient) const;
  // The prepared descriptors (their layout is checked on CPU).
  const TensorDescriptor& input_descriptor() const { return input_descriptor_; }
  const TensorDescriptor& output_descriptor() const { return output_descriptor_; }

 private:
  PoolingConfig config_;
  PoolingDescriptor descriptor_;
  TensorDescriptor input_descriptor_;
  TensorDescriptor output_descriptor_;
};

// Global average pooling as a PoolingConfig for an image of the given size.
PoolingConfig global_average_pooling(int height);

}  // namespace gpuprof::workloads
